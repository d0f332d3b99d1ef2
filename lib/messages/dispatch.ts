/**
 * Answering protocol calls, without the browser: a table of routes built from
 * handlers and the protocol's entries, and `dispatch`, which validates a
 * message, checks its sender's role, runs the handler and turns any failure
 * into an error value. The transport (who listens, who sends) is browser glue
 * that calls these.
 */
import { describeZodError } from '../schema';
import { type CallName, Envelope, isCallName, type ParsedRequestOf, protocol, type Reply, type ResponseOf } from './protocol';
import { addressesRefusal } from './addresses';
import { refusal, type Self, type Sender } from './roles';

/** Handlers for a set of calls; each gets the validated request and the sender. */
export type Handlers<K extends CallName> = { [P in K]: (request: ParsedRequestOf<P>, sender: Sender) => Promise<ResponseOf<P>> | ResponseOf<P> };

/** A table of the calls one receiver answers. */
export type Routes = ReadonlyMap<string, (request: never, sender: Sender) => unknown>;

/** The routes of a set of handlers (each call's schema and role come from its protocol entry). */
export function routes(handlers: Partial<Handlers<CallName>>): Routes {
  const table = new Map<string, (request: never, sender: Sender) => unknown>();
  for (const [type, handler] of Object.entries(handlers)) {
    if (!isCallName(type)) throw new Error(`"${type}" is not a call of the protocol`);
    if (typeof handler !== 'function') throw new Error(`no handler for "${type}"`);
    table.set(type, handler as (request: never, sender: Sender) => unknown);
  }
  return table;
}

/**
 * Answers one message: validates, checks the sender, runs the handler, turns failures into error replies.
 * Undefined for a message that is not ours, so other listeners may answer it.
 */
export async function dispatch(table: Routes, message: unknown, sender: Sender, self: Self): Promise<Reply<unknown> | undefined> {
  const envelope = Envelope.safeParse(message);
  if (!envelope.success) return undefined;
  const type = envelope.data.type;
  const handler = table.get(type);
  if (!handler || !isCallName(type)) return { ok: false, error: `unknown call "${type}"` };
  const entry = protocol[type];
  const refused = refusal(entry.from, sender, self);
  if (refused) return { ok: false, error: refused };
  const parsed = entry.request.safeParse(envelope.data.payload);
  if (!parsed.success) return { ok: false, error: `invalid "${type}" request: ${describeZodError(parsed.error)}` };
  // The addresses a request names are the sender's claim: checked against what the browser says of the sender.
  if ('speaksFor' in entry && self.siteOf) {
    const refusedAddress = addressesRefusal((entry.speaksFor as (r: unknown) => Array<string | null>)(parsed.data), sender, self, self.siteOf);
    if (refusedAddress) return { ok: false, error: refusedAddress };
  }
  try {
    return { ok: true, data: await handler(parsed.data as never, sender) };
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

/** The call names a list of handler sets answers. */
type Answered<P extends readonly object[]> = P[number] extends infer U ? (U extends object ? keyof U : never) : never;
/** Call names answered by more than one of the handler sets. */
type Repeated<P extends readonly object[], Seen = never> = P extends readonly [infer H extends object, ...infer R extends readonly object[]]
  ? (keyof H & Seen) | Repeated<R, Seen | keyof H>
  : never;
/** Accepts the handler sets only when each call of `K` is answered exactly once; else names the calls that are not. */
type ExactlyOnce<K extends CallName, P extends readonly object[]> = [Repeated<P>] extends [never]
  ? [Exclude<K, Answered<P>>] extends [never]
    ? unknown
    : { 'calls without a handler': Exclude<K, Answered<P>> }
  : { 'calls answered twice': Repeated<P> };

/**
 * Joins the handlers of several features into the handlers of every call `K`. The type checker proves each call has
 * exactly one handler: a call answered by two features, or by none, is a type error naming it.
 */
export function joinHandlers<K extends CallName>(): <const P extends readonly Partial<Handlers<K>>[]>(...parts: P & ExactlyOnce<K, P>) => Handlers<K> {
  return (...parts) => {
    const joined: Record<string, unknown> = {};
    for (const part of parts) {
      for (const [type, handler] of Object.entries(part)) {
        if (type in joined) throw new Error(`"${type}" is answered twice`);
        joined[type] = handler;
      }
    }
    return joined as Handlers<K>;
  };
}
