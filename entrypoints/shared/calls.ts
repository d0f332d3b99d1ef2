/**
 * Calls to the background and its change notices, with nothing but the
 * channel's shape checks (`lib/messages/channel`): no schema library, so an
 * extension page whose first paint needs only an answer (the panel's first
 * rows) and the page script on every page do not load and evaluate zod first.
 * The background validates every request it gets; answers are read as the
 * background wrote them. Each sender takes the caller of its role, made from
 * the protocol: the calls it may not send do not type-check.
 */
import { browser } from 'wxt/browser';
import { CHANNEL, isChangeNotice, unwrapReply } from '../../lib/messages/channel';
import type { DocumentCaller, PageCaller, ViewerCaller } from '../../lib/messages/caller';
import type { BackgroundCall, RequestOf, ResponseOf } from '../../lib/messages/protocol';

/** Sends any call the background answers and unwraps its answer; the roles' callers below narrow it. */
async function callBackground<K extends BackgroundCall>(type: K, payload: RequestOf<K>): Promise<ResponseOf<K>> {
  const reply: unknown = await browser.runtime.sendMessage({ channel: CHANNEL, type, payload });
  return unwrapReply<ResponseOf<K>>(reply, type);
}

/** The calls of an extension page (options, side panel, popup, the PDF engine's keeper). */
export const callAsPage: PageCaller = callBackground;

/** The calls of a document: the page's content scripts (the page script, the painting and capture scripts). */
export const callAsDocument: DocumentCaller = callBackground;

/** The calls of the PDF viewer, a document and an extension page at once. */
export const callAsViewer: ViewerCaller = callBackground;

/** Calls back on the background's change notices to extension pages (with the page URL, or null for many); returns a function that stops. */
export function onChangeNotice(callback: (url: string | null) => void): () => void {
  const listener = (message: unknown) => {
    if (isChangeNotice(message)) callback(message.url);
  };
  browser.runtime.onMessage.addListener(listener);
  return () => browser.runtime.onMessage.removeListener(listener);
}
