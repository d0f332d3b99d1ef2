/**
 * The capture script: injected by the background when the page script asks
 * (the page has claims, or the curator starts tagging). It runs the capture
 * controller over the page's HTML surface and answers the background's calls
 * for the page script. Wiring only: the flow is `components/capture`.
 */
import { browser } from 'wxt/browser';
import { CaptureController } from '../../components/capture/controller';
import { type FrameLink, mountInFrames } from '../../components/capture/frame-host';
import type { MountUi } from '../../components/capture/mount';
import { HtmlSurface } from '../../components/capture/html-surface';
import { pageFacts } from '../../components/capture/page-facts';
import { callAsDocument } from '../shared/calls';
import { takeBridge } from '../shared/capture-bridge';
import { ignoreForgedRestarts } from '../shared/forged-restart';
import { useBrowserMessages } from '../shared/i18n';
import { documentAnswerer } from '../shared/messaging';
import { showReloadNotice } from '../shared/reload-notice';

/** The extension page each part of the UI is shown in (web-accessible, see wxt.config.ts). */
const FRAME_PAGE = '/capture-ui.html';

export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  // Injected by the background when the page script asks for it (the page has claims, or the curator is tagging).
  registration: 'runtime',
  noScriptStartedPostMessage: true,
  main(ctx) {
    ignoreForgedRestarts();
    useBrowserMessages();
    const bridge = takeBridge();
    // Only the page script loads this script; without its bridge there is nobody to answer for.
    if (!bridge) return;
    let host: Node | null = null;
    // The UI: extension frames in a closed shadow root, made only when first needed, each driven over a port of its own.
    const page = browser.runtime.getURL(FRAME_PAGE as never);
    // The origin spelled out (URL's origin is "null" for some extension schemes).
    const link: FrameLink = { frameUrl: (part) => `${page}#part=${part}`, origin: page.slice(0, page.indexOf('/', page.indexOf('//') + 2)) };
    const framed = mountInFrames(link);
    const mountUi: MountUi = async (store, actions) => {
      const ui = await framed(store, actions);
      host = ui.node;
      return ui;
    };
    // The painting script's surface and painter, when it ran, so that nothing is anchored or painted twice.
    const painting = bridge.painting;
    const surface = painting?.surface ?? new HtmlSurface(document);
    surface.setUiHost(() => host);
    surface.readFactsWith(pageFacts);
    surface.keepText(true);
    // Filed under the address the background answered for, not one the page suggested.
    if (bridge.lookup) surface.adoptAddress(bridge.lookup.url, bridge.lookup.site);
    const controller = new CaptureController({
      surface,
      api: { call: callAsDocument },
      painter: painting?.painter,
      mountUi,
      setTimeout: (callback, ms) => ctx.setTimeout(callback, ms),
      alive: () => ctx.isValid,
    });
    // In-page navigation: the Navigation API's event fires before the URL changes, so it is read once the navigation committed.
    ctx.addEventListener(window, 'wxt:locationchange', () => ctx.setTimeout(() => controller.addressChanged(), 0));
    ctx.addEventListener(window, 'popstate', () => controller.addressChanged());
    // The extension was reloaded or updated under this page: stop everything and say how to recover.
    ctx.onInvalidated(() => {
      const wasInUse = controller.inUse();
      controller.destroy();
      surface.destroy();
      if (wasInUse) showReloadNotice();
    });
    const answer = documentAnswerer(controller.answers);
    controller.start(bridge.lookup, painting?.state ?? null);
    bridge.attach({ answer, checkSelection: () => controller.checkSelection(), pointer: (kind, x, y) => controller.pointer(kind, x, y) });
  },
});
