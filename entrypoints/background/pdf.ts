/**
 * The background's side of the PDF viewer: opening a PDF in it, telling
 * which PDF a tab shows, showing a PDF claim in a viewer tab, and — when the
 * curator turned it on — sending PDF navigations to the viewer. (The viewer
 * asks for its claims and sets its badge as any document does: `documents.ts`.)
 */
import { browser, type Browser } from 'wxt/browser';
import type { BackgroundCall, Handlers } from '../../lib/messages';
import { callTab } from '../shared/messaging';
import { VIEWER_PATH, isInlinePdfResponse, isLikelyPdfUrl, isViewerUrl, parseViewerUrl, pdfAddressOf, viewerUrl } from '../../lib/pdf';
import type { ClaimRecord } from '../../lib/schema';
import { normalizeUrl } from '../../lib/source';

/** The viewer page's address in this extension. */
export function viewerBase(): string {
  return browser.runtime.getURL(VIEWER_PATH);
}

/** Opens a PDF in the viewer: in `tabId` when given, else in a new tab next to the current one. */
export async function openViewer(file: string, tabId: number | null, page: number | null = null, claim: string | null = null): Promise<number> {
  const url = viewerUrl(viewerBase(), { file, page, claim });
  if (tabId !== null) {
    const tab = await browser.tabs.update(tabId, { url, active: true });
    return tab?.id ?? tabId;
  }
  const tab = await browser.tabs.create({ url, active: true });
  return tab.id ?? -1;
}

/** Answers to the PDF calls of the panel and the popup. */
export const pdfHandlers = {
  async 'pdf.open'({ url, tabId, page }) {
    return { tabId: await openViewer(url, tabId, page) };
  },
  async 'pdf.engine'({ keep }) {
    return { kept: keep ? await openEngineKeeper() : await closeEngineKeeper() };
  },
  async 'tab.pdf'({ windowId }) {
    const [tab] = await browser.tabs.query({ active: true, windowId });
    if (tab?.id === undefined) return { tabId: -1, url: null };
    return { tabId: tab.id, url: await pdfShownBy(tab) };
  },
} satisfies Partial<Handlers<BackgroundCall>>;

/** The keeper of pdf.js's engine, an offscreen document (`entrypoints/pdf-engine`). */
const ENGINE_KEEPER_PATH = '/pdf-engine.html';

let keeperOpening: Promise<boolean> | null = null;

/** Whether the engine's keeper document is open. */
async function keeperOpen(): Promise<boolean> {
  const url = browser.runtime.getURL(ENGINE_KEEPER_PATH);
  return (await browser.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'], documentUrls: [url] })).length > 0;
}

/** Opens the engine's keeper unless it is open; false where the browser has no offscreen documents. */
async function openEngineKeeper(): Promise<boolean> {
  const offscreen = browser.offscreen as typeof browser.offscreen | undefined;
  if (!offscreen?.createDocument) return false;
  keeperOpening ??= (async () => {
    try {
      if (await keeperOpen()) return true;
      await offscreen.createDocument({
        url: ENGINE_KEEPER_PATH,
        reasons: ['WORKERS'],
        justification: 'Keeps the PDF engine (a shared worker) booted between technical reports, for ten minutes after the last one closes.',
      });
      return true;
    } catch (error) {
      // Opened meanwhile by a worker that was stopped and started again: the keeper is there all the same.
      if (await keeperOpen()) return true;
      throw error;
    } finally {
      keeperOpening = null;
    }
  })();
  return keeperOpening;
}

/** Closes the engine's keeper if it is open (the engine then ends with the last viewer); false: it is not open. */
async function closeEngineKeeper(): Promise<false> {
  await keeperOpening?.catch(() => false);
  const offscreen = browser.offscreen as typeof browser.offscreen | undefined;
  if (!offscreen?.closeDocument) return false;
  if (await keeperOpen()) await offscreen.closeDocument();
  return false;
}

/** The PDF a tab shows (a PDF address, or a server that says it sends a PDF), or null. */
async function pdfShownBy(tab: Browser.tabs.Tab): Promise<string | null> {
  const url = tab.url ?? '';
  if (!url || isViewerUrl(url, viewerBase())) return null;
  if (isLikelyPdfUrl(url)) return url;
  if (!/^https?:/.test(url)) return null;
  try {
    const response = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(1500), credentials: 'include' });
    return isInlinePdfResponse(response.headers.get('content-type'), response.headers.get('content-disposition'), url) ? url : null;
  } catch {
    return null;
  }
}

/** Whether a claim was read in a PDF (it carries a `pdf` field, or its source address is a PDF's). */
export function isPdfClaim(claim: ClaimRecord): boolean {
  return !!claim.pdf || isLikelyPdfUrl(claim.source.url);
}

/** Shows a PDF claim: in a viewer tab already showing its document (scrolled there), else in a new viewer tab opened at it. */
export async function revealPdfClaim(claim: ClaimRecord): Promise<{ how: 'tab' | 'opened' }> {
  const tabs = await browser.tabs.query({});
  const base = viewerBase();
  const showing = (t: Browser.tabs.Tab) => {
    const target = isViewerUrl(t.url, base) ? parseViewerUrl(t.url!) : null;
    return !!target && normalizeUrl(target.file) === claim.source.url;
  };
  const tab = tabs.find((t) => t.active && showing(t)) ?? tabs.find(showing);
  if (tab?.id !== undefined) {
    await browser.tabs.update(tab.id, { active: true });
    if (tab.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true });
    const { found } = await callTab(tab.id, 'passage.reveal', { id: claim.id }).catch(() => ({ found: false }));
    if (found) return { how: 'tab' };
  }
  await openViewer(pdfAddressOf(claim.source.url), null, claim.pdf?.page ?? null, claim.id);
  return { how: 'opened' };
}

/** Whether a tab shows this extension's PDF viewer (which answers tab calls like a content script). */
export function isViewerTab(url: string | undefined): boolean {
  return isViewerUrl(url, viewerBase());
}
