/**
 * Calls to the background and its change notices, with nothing but the
 * channel's shape checks (`lib/messages/channel`): no schema library, so an
 * extension page whose first paint needs only an answer (the panel's first
 * rows) does not load and evaluate zod first. The background validates every
 * request it gets; answers are read as the background wrote them.
 */
import { browser } from 'wxt/browser';
import { CHANNEL, isChangeNotice, unwrapReply } from '../../lib/messages/channel';
import type { BackgroundCall, RequestOf, ResponseOf } from '../../lib/messages/protocol';

/** Sends a call to the background from a document or an extension page. */
export async function callBackground<K extends BackgroundCall>(type: K, payload: RequestOf<K>): Promise<ResponseOf<K>> {
  const reply: unknown = await browser.runtime.sendMessage({ channel: CHANNEL, type, payload });
  return unwrapReply<ResponseOf<K>>(reply, type);
}

/** Calls back on the background's change notices to extension pages (with the page URL, or null for many); returns a function that stops. */
export function onChangeNotice(callback: (url: string | null) => void): () => void {
  const listener = (message: unknown) => {
    if (isChangeNotice(message)) callback(message.url);
  };
  browser.runtime.onMessage.addListener(listener);
  return () => browser.runtime.onMessage.removeListener(listener);
}
