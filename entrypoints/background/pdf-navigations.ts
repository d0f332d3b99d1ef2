/**
 * "Open every PDF I navigate to in Recipe Lens": the background hears top-level responses and sends an inline PDF's
 * tab to the viewer, but only while the curator has that turned on. A listener of every navigation would start a
 * stopped worker on every page load (`docs/permissions.md`).
 */
import { browser } from 'wxt/browser';
import { getSettings } from '../../lib/db';
import { isInlinePdfResponse } from '../../lib/pdf';
import { db } from './db';
import { openViewer } from './pdf';

type HeadersDetails = Parameters<Parameters<typeof browser.webRequest.onHeadersReceived.addListener>[0]>[0];

/** Sends an inline PDF's top-level navigation to the viewer (the listener only observes: MV3 gives no blocking). */
function onPdfHeaders(details: HeadersDetails): undefined {
  if (details.tabId < 0 || details.method !== 'GET' || (details.statusCode ?? 200) >= 400) return undefined;
  const header = (name: string) => details.responseHeaders?.find((h) => h.name.toLowerCase() === name)?.value ?? null;
  if (!isInlinePdfResponse(header('content-type'), header('content-disposition'), details.url)) return undefined;
  void wanted.then((on) => (on ? openViewer(details.url, details.tabId) : undefined)).catch(() => undefined);
  return undefined;
}

/** Whether the listener is registered. */
let following = false;
/** The setting, once read (the listener is registered before it is known, at the worker's start). */
let wanted: Promise<boolean> = Promise.resolve(false);

/**
 * Listens for top-level responses (to open inline PDFs in the viewer) only while the curator has that turned on:
 * a listener of every navigation would start a stopped worker on every page load.
 */
export function followPdfNavigations(on: boolean): void {
  wanted = Promise.resolve(on);
  const api = (browser as unknown as { webRequest?: typeof browser.webRequest }).webRequest;
  if (!api?.onHeadersReceived || on === following) return;
  try {
    if (on) api.onHeadersReceived.addListener(onPdfHeaders, { urls: ['http://*/*', 'https://*/*'], types: ['main_frame'] }, ['responseHeaders']);
    else api.onHeadersReceived.removeListener(onPdfHeaders);
    following = on;
  } catch (error) {
    // A browser without the event as we use it: PDFs then open in the viewer from the popup and the menu only.
    console.warn('Recipe Lens: PDF navigations cannot be followed here', error);
  }
}

/**
 * "Open every PDF in Recipe Lens": registered at the worker's start, so that the navigation that woke it (with the
 * option on) is heard, and dropped at once when the option is off, so that no ordinary navigation wakes it again.
 */
export function listenForPdfNavigations(): void {
  const setting = db()
    .then(getSettings)
    .then((s) => s.pdfAutoOpen)
    .catch(() => false);
  followPdfNavigations(true);
  wanted = setting;
  void setting.then(followPdfNavigations);
}
