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

/** Tag of the broadcast the background sends to extension pages when claims change. */
export const NOTICE_CHANNEL = 'recipe-lens-notice';

/**
 * Whether a message is the background's change notice (`ChangeNotice` in the protocol, checked without the schema
 * library): our notice tag, the type `claims.changed`, and an absolute http(s) page URL or null.
 */
export function isChangeNotice(message: unknown): message is { channel: typeof NOTICE_CHANNEL; type: 'claims.changed'; url: string | null } {
  if (!message || typeof message !== 'object') return false;
  const { channel, type, url } = message as { channel?: unknown; type?: unknown; url?: unknown };
  if (channel !== NOTICE_CHANNEL || type !== 'claims.changed') return false;
  if (url === null) return true;
  if (typeof url !== 'string') return false;
  try {
    const protocol = new URL(url).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
