/**
 * The painting script: injected by the background when the page script found
 * claims for the page. It anchors and paints them and sets the badge, with no
 * UI and no schema library, so a page that is only read pays for little more
 * than the anchoring. The capture script takes its work over when the curator
 * interacts. Wiring only: the work is `components/capture/paint-session`.
 */
import './highlights.css';
import { HtmlSurface } from '../../components/capture/html-surface';
import { PaintSession } from '../../components/capture/paint-session';
import { HighlightPainter } from '../../lib/paint/painter';
import { takePaintingBridge, type PageLookup } from '../shared/capture-bridge';
import { ignoreForgedRestarts } from '../shared/forged-restart';
import { callAsDocument } from '../shared/calls';

export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  // Injected by the background when the page script asks for it (the page has claims).
  registration: 'runtime',
  // highlights.css is built as content-scripts/paint.css and, on Firefox, inserted by the background with the script
  // (`scripting.insertCSS`): no element is added to the page for it, and a page with nothing stored never gets it.
  // Chromium has the page script's highlights-root.css from the manifest instead.
  cssInjectionMode: 'manual',
  noScriptStartedPostMessage: true,
  main(ctx) {
    ignoreForgedRestarts();
    const bridge = takePaintingBridge();
    // Only the page script loads this script; without its bridge there is nothing to paint.
    if (!bridge) return;
    const surface = new HtmlSurface(document);
    surface.keepText(false);
    const painter = new HighlightPainter();
    let handedOver = false;
    const session = new PaintSession<Range>(surface, painter, { call: callAsDocument }, (_painted, orphans) => {
      if (orphans) bridge.needsCapture();
    });
    ctx.onInvalidated(() => {
      if (!handedOver) session.clear();
    });
    // A lookup shown by the page script (an in-page navigation's) supersedes the first one if that is still on its way.
    let shown = false;
    const show = (lookup: PageLookup) => {
      shown = true;
      // Filed under the address the background answered for, not one the page suggested.
      surface.adoptAddress(lookup.url, lookup.site);
      return session.show(lookup);
    };
    bridge.attach({
      show,
      reload: () => session.reload(),
      hits: (x, y) => session.hits(x, y),
      handOver: () => {
        handedOver = true;
        return { surface, painter, state: session.handOver() };
      },
    });
    // The first lookup may still be on its way (the page script asks for this script beside it): shown when it comes.
    void bridge.lookup.then((lookup) => (shown || handedOver ? undefined : show(lookup))).catch(() => undefined);
  },
});
