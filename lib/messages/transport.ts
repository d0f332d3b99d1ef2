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
import { CallError, unwrapReply } from './channel';
import { isContextInvalidated, isTransient, withRetry } from './retry';
import { fromOurBackground, fromOurContentScript, fromOurContentScriptOrPage, fromOurPage, type SenderRule } from './senders';

export { CallError, isContextInvalidated, isTransient, withRetry };
export { fromOurBackground, fromOurContentScript, fromOurContentScriptOrPage, fromOurPage, type SenderRule };

type Sender = Browser.runtime.MessageSender;

/** Sends a call to the background from a content script or an extension page. */
export async function callBackground<K extends ContentCall | SharedCall | PageCall>(type: K, payload: RequestOf<K>): Promise<ResponseOf<K>> {
  const reply: unknown = await browser.runtime.sendMessage({ channel: CHANNEL, type, payload });
  return unwrapReply<ResponseOf<K>>(reply, type);
}

/** Sends a call from the background to the top-frame content script of a tab. */
export async function callTab<K extends TabCall>(tabId: number, type: K, payload: RequestOf<K>): Promise<ResponseOf<K>> {
  const reply: unknown = await browser.tabs.sendMessage(tabId, { channel: CHANNEL, type, payload }, { frameId: 0 });
  return unwrapReply<ResponseOf<K>>(reply, type);
}

/** Handlers for a set of calls; each gets the validated request and the sender. */
export type Handlers<K extends CallName> = { [P in K]: (request: ParsedRequestOf<P>, sender: Sender) => Promise<ResponseOf<P>> | ResponseOf<P> };

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

/**
 * The content script's answerer for background → content calls: validates,
 * checks the sender, runs the handler. Returns undefined for messages that
 * are not ours, so the caller can leave them unanswered.
 */
export function contentAnswerer(handlers: Handlers<TabCall>): (message: unknown, sender: Sender) => Promise<Reply<unknown> | undefined> | undefined {
  const table = routes([{ schemas: backgroundToContent, rule: fromOurBackground, handlers: handlers as never }]);
  return (message, sender) => (Envelope.safeParse(message).success ? dispatch(table, message, sender) : undefined);
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
