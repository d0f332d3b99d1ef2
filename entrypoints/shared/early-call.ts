/**
 * Calls an extension page sends from a tiny classic script in its `<head>`, before its modules are fetched and
 * evaluated, so the background works on the answer meanwhile; the page's own code takes the answer when it
 * starts. No schema library and no polyfill: the script that sends must stay small.
 */
import { CHANNEL, unwrapReply } from '../../lib/messages/channel';
import type { PageSends, RequestOf, ResponseOf } from '../../lib/messages/protocol';

/** Models in the evidence panel's first rows: its early script asks for them, and the panel asks again only without it. */
export const PANEL_FIRST_MODELS = 12;

const SLOT = '__recipeLensEarlyCalls';

type Runtime = { sendMessage(message: unknown): Promise<unknown> };

/** The early calls' raw replies, by call name, on the page's global object (shared by the classic script and the modules). */
function slots(): Record<string, Promise<unknown> | undefined> {
  const g = globalThis as unknown as Record<string, Record<string, Promise<unknown> | undefined> | undefined>;
  g[SLOT] ??= {};
  return g[SLOT];
}

/** The extension's runtime API as the browser provides it (Firefox's `browser`, else `chrome`; both return promises). */
function runtime(): Runtime | undefined {
  const g = globalThis as unknown as { browser?: { runtime?: Runtime }; chrome?: { runtime?: Runtime } };
  return g.browser?.runtime ?? g.chrome?.runtime;
}

/** Sends the call now and keeps its reply for `takeEarlyCall`; does nothing where there is no extension runtime. */
export function sendEarlyCall<K extends PageSends>(type: K, payload: RequestOf<K>): void {
  const api = runtime();
  if (!api?.sendMessage) return;
  const reply = api.sendMessage({ channel: CHANNEL, type, payload });
  // Not taken yet: a failure is reported to whoever takes it, not as an unhandled rejection.
  reply.catch(() => undefined);
  slots()[type] = reply;
}

/** The answer to the early call of `type`, taken once; undefined when none was sent. */
export function takeEarlyCall<K extends PageSends>(type: K): Promise<ResponseOf<K>> | undefined {
  const all = slots();
  const reply = all[type];
  delete all[type];
  return reply?.then((r) => unwrapReply<ResponseOf<K>>(r, type));
}
