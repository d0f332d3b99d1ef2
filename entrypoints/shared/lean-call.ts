/**
 * A content → background call for the page's small scripts (the page script
 * and the painting script), which run without the promise polyfill and the
 * schema library: the browser's own `runtime.sendMessage`, answered through
 * the same channel and unwrapped the same way as every other call.
 */
import { browser } from 'wxt/browser';
import { CHANNEL, unwrapReply } from '../../lib/messages/channel';

/** The calls the small scripts make. */
export type LeanCall = 'document.claims' | 'document.status' | 'capture.load' | 'paint.load';

/** Sends a content → background call and unwraps its answer. */
export async function askBackground<T>(type: LeanCall, payload: unknown): Promise<T> {
  return unwrapReply<T>(await browser.runtime.sendMessage({ channel: CHANNEL, type, payload }), type);
}
