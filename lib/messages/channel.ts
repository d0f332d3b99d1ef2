/**
 * The tag of Recipe Lens's messages and a first look at a message's shape,
 * free of the schema library so the small page script can use them. A call's
 * payload is still validated with its zod schema before anything reads it.
 */

/** Tag on every message of ours, so stray messages are told apart at once. */
export const CHANNEL = 'recipe-lens';

/** The call name of a message shaped like ours (`{ channel, type, payload }`), else null. */
export function callNameOf(message: unknown): string | null {
  if (!message || typeof message !== 'object') return null;
  const { channel, type } = message as { channel?: unknown; type?: unknown };
  return channel === CHANNEL && typeof type === 'string' && type.length <= 64 ? type : null;
}

/** Raised on the sending side when the receiver answered with an error. */
export class CallError extends Error {
  override name = 'CallError';
}

/** The data of an answer as it travels, or the error it carries (thrown). */
export function unwrapReply<T>(reply: unknown, type: string): T {
  if (!reply || typeof reply !== 'object' || !('ok' in reply)) {
    throw new Error(`Recipe Lens did not answer "${type}". Reload the page; if it persists, reload the extension.`);
  }
  const r = reply as { ok: true; data: T } | { ok: false; error: string };
  if (!r.ok) throw new CallError(r.error);
  return r.data;
}
