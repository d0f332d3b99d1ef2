/**
 * Sending and answering protocol calls. Senders get typed promises that
 * reject with a readable error; receivers validate every request with its zod
 * schema and check who sent it before any handler runs.
 */
import { browser, type Browser } from 'wxt/browser';
import {
  CHANNEL,
  Envelope,
  anyToBackground,
  backgroundToContent,
  contentToBackground,
  pageToBackground,
  type CallName,
  type ContentCall,
  type PageCall,
  type SharedCall,
  type ParsedRequestOf,
  type Reply,
  type RequestOf,
  type ResponseOf,
  type TabCall,
} from './protocol';
import { describeZodError } from '../schema';

type Sender = Browser.runtime.MessageSender;

/** Raised on the sending side when the receiver answered with an error. */
export class CallError extends Error {
  override name = 'CallError';
}

function unwrap<T>(reply: unknown, type: string): T {
  if (!reply || typeof reply !== 'object' || !('ok' in reply)) {
    throw new Error(`Recipe Lens did not answer "${type}". Reload the page; if it persists, reload the extension.`);
  }
  const r = reply as Reply<T>;
  if (!r.ok) throw new CallError(r.error);
  return r.data;
}

/** Sends a call to the background from a content script or an extension page. */
export async function callBackground<K extends ContentCall | SharedCall | PageCall>(type: K, payload: RequestOf<K>): Promise<ResponseOf<K>> {
  const reply: unknown = await browser.runtime.sendMessage({ channel: CHANNEL, type, payload });
  return unwrap<ResponseOf<K>>(reply, type);
}

/** Sends a call from the background to the top-frame content script of a tab. */
export async function callTab<K extends TabCall>(tabId: number, type: K, payload: RequestOf<K>): Promise<ResponseOf<K>> {
  const reply: unknown = await browser.tabs.sendMessage(tabId, { channel: CHANNEL, type, payload }, { frameId: 0 });
  return unwrap<ResponseOf<K>>(reply, type);
}

/** Handlers for a set of calls; each gets the validated request and the sender. */
export type Handlers<K extends CallName> = { [P in K]: (request: ParsedRequestOf<P>, sender: Sender) => Promise<ResponseOf<P>> | ResponseOf<P> };

/** Who may send a call. */
export type SenderRule = (sender: Sender) => string | null;

/** A content script of ours, in the top frame of an http(s) page. */
export const fromOurContentScript: SenderRule = (sender) => {
  if (sender.id !== browser.runtime.id) return 'refused: message from another extension';
  if (!sender.tab || sender.tab.id === undefined) return 'refused: not from a tab';
  if (sender.frameId !== 0) return 'refused: Recipe Lens works in the top frame only';
  if (!sender.url || !/^https?:/.test(sender.url)) return 'refused: not an http(s) page';
  return null;
};

/** One of the extension's own pages (options, side panel, popup). */
export const fromOurPage: SenderRule = (sender) => {
  if (sender.id !== browser.runtime.id) return 'refused: message from another extension';
  const origin = browser.runtime.getURL('/');
  if (!sender.url || !sender.url.startsWith(origin)) return 'refused: not from an extension page';
  return null;
};

/** A content script of ours or one of our pages. */
export const fromOurContentScriptOrPage: SenderRule = (sender) => {
  const asPage = fromOurPage(sender);
  return asPage === null ? null : fromOurContentScript(sender);
};

/** The background (messages to content scripts come without a tab). */
export const fromOurBackground: SenderRule = (sender) => {
  if (sender.id !== browser.runtime.id) return 'refused: message from another extension';
  if (sender.tab) return 'refused: not from the background';
  return null;
};

interface Route {
  schema: { safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: import('zod').ZodError } };
  rule: SenderRule;
  handler: (request: never, sender: Sender) => unknown;
}

/** Builds the table of routes from handler sets and their sender rules. */
export function routes(
  groups: Array<{ schemas: Record<string, Route['schema']>; rule: SenderRule; handlers: Record<string, Route['handler']> }>,
): Map<string, Route> {
  const table = new Map<string, Route>();
  for (const group of groups) {
    for (const [type, schema] of Object.entries(group.schemas)) {
      const handler = group.handlers[type];
      if (!handler) throw new Error(`no handler for "${type}"`);
      table.set(type, { schema, rule: group.rule, handler });
    }
  }
  return table;
}

/** Answers one message: validates, checks the sender, runs the handler, turns failures into error replies. */
export async function dispatch(table: Map<string, Route>, message: unknown, sender: Sender): Promise<Reply<unknown> | undefined> {
  const envelope = Envelope.safeParse(message);
  if (!envelope.success) return undefined; // not ours: stay silent so other listeners may answer
  const route = table.get(envelope.data.type);
  if (!route) return { ok: false, error: `unknown call "${envelope.data.type}"` };
  const refusal = route.rule(sender);
  if (refusal) return { ok: false, error: refusal };
  const parsed = route.schema.safeParse(envelope.data.payload);
  if (!parsed.success) return { ok: false, error: `invalid "${envelope.data.type}" request: ${describeZodError(parsed.error)}` };
  try {
    const data = await route.handler(parsed.data as never, sender);
    return { ok: true, data };
  } catch (error) {
    return { ok: false, error: describeFailure(error) };
  }
}

/** A failure as a sentence a curator can act on. */
export function describeFailure(error: unknown): string {
  if (error instanceof DOMException || (error instanceof Error && error.name === 'QuotaExceededError')) {
    if (error.name === 'QuotaExceededError') {
      return 'The browser has no room left to store this. Free disk space or export and delete old claims, then save again.';
    }
    return `Storage error (${error.name}): ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Registers the listener in a content script for background → content calls. */
export function listenInContent(handlers: Handlers<TabCall>): () => void {
  const table = routes([{ schemas: backgroundToContent, rule: fromOurBackground, handlers: handlers as never }]);
  const listener = (message: unknown, sender: Sender) =>
    Envelope.safeParse(message).success ? dispatch(table, message, sender) : undefined;
  browser.runtime.onMessage.addListener(listener as never);
  return () => browser.runtime.onMessage.removeListener(listener as never);
}

/** Registers, synchronously, the background's listener for every call it answers. */
export function listenInBackground(handlers: { content: Handlers<ContentCall>; shared: Handlers<SharedCall>; pages: Handlers<PageCall> }): void {
  const table = routes([
    { schemas: contentToBackground, rule: fromOurContentScript, handlers: handlers.content as never },
    { schemas: anyToBackground, rule: fromOurContentScriptOrPage, handlers: handlers.shared as never },
    { schemas: pageToBackground, rule: fromOurPage, handlers: handlers.pages as never },
  ]);
  browser.runtime.onMessage.addListener(((message: unknown, sender: Sender) => {
    // Return undefined (not a promise) for foreign messages so they stay unanswered here.
    if (!Envelope.safeParse(message).success) return undefined;
    return dispatch(table, message, sender);
  }) as never);
}

/** True when the extension was reloaded or updated under this content script: nothing will answer again. */
export function isContextInvalidated(error: unknown): boolean {
  return error instanceof Error && /context invalidated/i.test(error.message);
}

/** True for failures of the message channel itself (the service worker stopped mid-call): worth retrying. */
export function isTransient(error: unknown): boolean {
  // Chrome says "message port closed" or, for a listener that answers later, "message channel closed".
  return error instanceof Error && !(error instanceof CallError) && /message (port|channel) closed|Receiving end does not exist|did not answer/i.test(error.message);
}

/**
 * Runs a call, retrying channel failures with growing pauses. Only safe for
 * idempotent calls (saves carry their ids, so a retry overwrites, never duplicates).
 */
export async function withRetry<T>(
  call: () => Promise<T>,
  options: { delays?: readonly number[]; onRetry?: (attempt: number) => void; /** An attempt unanswered this long counts as a channel failure. */ timeoutMs?: number } = {},
): Promise<T> {
  const delays = options.delays ?? [150, 400, 1000, 2500];
  for (let attempt = 0; ; attempt++) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // A worker stopped mid-call can leave the call unanswered for good: give up on the attempt and retry.
      const late = options.timeoutMs === undefined ? null : new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('Recipe Lens did not answer in time')), options.timeoutMs)));
      return await (late ? Promise.race([call(), late]) : call());
    } catch (error) {
      if (!isTransient(error) || attempt >= delays.length) throw error;
      options.onRetry?.(attempt + 1);
      await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
    } finally {
      clearTimeout(timer);
    }
  }
}
