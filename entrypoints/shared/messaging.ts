/**
 * The protocol's transport through the browser: sending calls to the
 * background or to a tab, and listening for the calls a context answers.
 * Validation and sender rules are `lib/messages` (pure); this is the glue.
 */
import { browser } from 'wxt/browser';
import {
  type BackgroundCall,
  CHANNEL,
  type DocumentCall,
  dispatch,
  Envelope,
  type Handlers,
  type Reply,
  type RequestOf,
  type ResponseOf,
  routes,
  type Self,
  type Sender,
  unwrapReply,
} from '../../lib/messages';

export { onChangeNotice } from './calls';

/** This extension as the sender rules know it. */
export function ourselves(): Self {
  return { id: browser.runtime.id, origin: browser.runtime.getURL('/') };
}

/** Sends a call from the background to the document of a tab (its top frame's content script, or the PDF viewer). */
export async function callTab<K extends DocumentCall>(tabId: number, type: K, payload: RequestOf<K>): Promise<ResponseOf<K>> {
  const reply: unknown = await browser.tabs.sendMessage(tabId, { channel: CHANNEL, type, payload }, { frameId: 0 });
  return unwrapReply<ResponseOf<K>>(reply, type);
}

/**
 * Registers, synchronously, the background's listener for every call it answers; `siteOf` (the Public Suffix
 * List's registrable domain) checks the addresses a sender names.
 */
export function answerInBackground(handlers: Handlers<BackgroundCall>, siteOf: (hostname: string) => string | null): void {
  const table = routes(handlers);
  const self = { ...ourselves(), siteOf };
  browser.runtime.onMessage.addListener(((message: unknown, sender: Sender) => {
    // Return undefined (not a promise) for foreign messages so they stay unanswered here.
    if (!Envelope.safeParse(message).success) return undefined;
    return dispatch(table, message, sender, self);
  }) as never);
}

/**
 * A document's answerer for the background's calls: validates, checks the sender, runs the handler. Undefined for
 * messages that are not ours and, with `onlyOurs`, for calls that are not for documents: the PDF viewer, an
 * extension page, also hears every other page's calls to the background and must stay silent for those.
 */
export function documentAnswerer(
  handlers: Handlers<DocumentCall>,
  onlyOurs = false,
): (message: unknown, sender: Sender) => Promise<Reply<unknown> | undefined> | undefined {
  const table = routes(handlers);
  const self = ourselves();
  return (message, sender) => {
    const envelope = Envelope.safeParse(message);
    if (!envelope.success || (onlyOurs && (!table.has(envelope.data.type) || sender.tab))) return undefined;
    return dispatch(table, message, sender, self);
  };
}

/** Answers the background's calls to this extension page as a document would; returns a function that stops. */
export function answerAsDocument(handlers: Handlers<DocumentCall>): () => void {
  const listener = documentAnswerer(handlers, true);
  browser.runtime.onMessage.addListener(listener as never);
  return () => browser.runtime.onMessage.removeListener(listener as never);
}
