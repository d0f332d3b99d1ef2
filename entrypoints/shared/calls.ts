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
import type { Caller, PageCaller, ViewerCaller } from '../../lib/messages/caller';
import type { BackgroundCall, DocumentSends, RequestOf, ResponseOf } from '../../lib/messages/protocol';

/** Every call the background answers: what the transport below can send, whoever sends it. */
type BackgroundCaller = Caller<BackgroundCall>;

/**
 * The calls of a document: the page's content scripts (the page script, the painting and capture scripts). It is
 * the one transport: the other roles' callers below are this function under their role's type, so the page
 * script, which runs on every page, carries no alias.
 */
export async function callAsDocument<K extends DocumentSends>(type: K, payload: RequestOf<K>): Promise<ResponseOf<K>> {
  return unwrapReply<ResponseOf<K>>(await browser.runtime.sendMessage({ channel: CHANNEL, type, payload }), type);
}

/** The calls of an extension page (options, side panel, popup, the PDF engine's keeper). */
export const callAsPage = callAsDocument as BackgroundCaller as PageCaller;

/** The calls of the PDF viewer, a document and an extension page at once. */
export const callAsViewer = callAsDocument as BackgroundCaller as ViewerCaller;

/** Calls back on the background's change notices to extension pages (with the page URL, or null for many); returns a function that stops. */
export function onChangeNotice(callback: (url: string | null) => void): () => void {
  const listener = (message: unknown) => {
    if (isChangeNotice(message)) callback(message.url);
  };
  browser.runtime.onMessage.addListener(listener);
  return () => browser.runtime.onMessage.removeListener(listener);
}
