/** Documents (pages with the content script, PDFs in the viewer): their claims, their badge, and loading the capture script. */
import { browser } from 'wxt/browser';
import { claimsForPdf, claimsForUrl, getSettings, getSource } from '../../lib/db';
import { siteListed } from '../../lib/finder/sites';
import { documentAddress } from '../../lib/messages/addresses';
import { siteOf } from '../../lib/source/sites';
import { parseHttpUrl } from '../../lib/source/url';
import type { BackgroundCall, Handlers } from '../../lib/messages';
import type { Sender } from '../../lib/messages/roles';
import { badgeText, showTabStatus } from './badge';
import { db } from './db';

/** The capture script's file in the build (the runtime-registered `capture` content script). */
const CAPTURE_SCRIPT = '/content-scripts/capture.js';
/** The painting script's file in the build (the runtime-registered `paint` content script). */
const PAINT_SCRIPT = '/content-scripts/paint.js';
/** The highlights' stylesheet in the build (the painting script's `highlights.css`, inserted by us, never from the manifest). */
const HIGHLIGHT_STYLES = 'content-scripts/paint.css';
/**
 * Whether the page needs that stylesheet inserted. Chromium's pages have the highlights' styles on their root from
 * the manifest (the page script's `highlights-root.css`, inherited by every element's highlights); inserting a sheet
 * into a page already laid out would make it recalculate every element's style. Firefox has no highlight
 * inheritance, so it gets the per-element rules when claims are painted.
 */
const INSERT_HIGHLIGHT_STYLES = import.meta.env.FIREFOX === true;

/**
 * Runs one of our runtime-registered scripts in the sender's frame (the sender rule admits our content script in a
 * tab), with the highlights' stylesheet first when asked: a user stylesheet the browser adds, no element in the page.
 */
async function inject(sender: Sender, file: typeof CAPTURE_SCRIPT | typeof PAINT_SCRIPT, styles: boolean): Promise<{ loaded: boolean }> {
  const target = { tabId: sender.tab!.id!, frameIds: [sender.frameId ?? 0] };
  if (styles) await browser.scripting.insertCSS({ target, files: [HIGHLIGHT_STYLES] });
  await browser.scripting.executeScript({ target, files: [file] });
  return { loaded: true };
}

/** Answers to the calls documents make about themselves. */
export const documentHandlers = {
  async 'document.claims'({ url, canonical, pdf }, sender) {
    const d = await db();
    if (pdf) {
      const [claims, source] = await Promise.all([claimsForPdf(d, { url, ...pdf }), url ? getSource(d, url) : Promise.resolve(undefined)]);
      return { claims, source: source ?? null };
    }
    // A page is the page the browser says the sender is in (or where the History API moved it on that origin), its
    // canonical link honoured on the same site only: never another site the page names. The schema admits a null address only with a PDF's identity.
    const page = sender.tab && sender.url && /^https?:/.test(sender.url) ? documentAddress(sender.url, url, canonical, siteOf) : url!;
    const [claims, source, settings] = await Promise.all([claimsForUrl(d, page), getSource(d, page), getSettings(d)]);
    // The finder runs by itself only on the sites the curator opted in; elsewhere it costs nothing until asked.
    const host = parseHttpUrl(page)?.hostname;
    return { url: page, site: host ? siteOf(host) : null, claims, source: source ?? null, autoFind: siteListed(page, settings.finderSites) };
  },
  async 'document.status'({ anchored, orphans }, sender) {
    const tabId = sender.tab?.id;
    if (tabId === undefined) return { badge: badgeText(anchored, orphans) };
    return { badge: await showTabStatus(tabId, anchored, orphans) };
  },
  'capture.load': ({ styles }, sender) => inject(sender, CAPTURE_SCRIPT, INSERT_HIGHLIGHT_STYLES && styles === true),
  'paint.load': (_request, sender) => inject(sender, PAINT_SCRIPT, INSERT_HIGHLIGHT_STYLES),
} satisfies Partial<Handlers<BackgroundCall>>;
