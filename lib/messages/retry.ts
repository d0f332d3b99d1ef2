/**
 * Retrying calls whose channel failed: the service worker was starting, or
 * was stopped under the call. Free of the schema library so the small page
 * script can use it.
 */
import { CallError } from './channel';

/** True when the extension was reloaded or updated under this content script: nothing will answer again. */
export function isContextInvalidated(error: unknown): boolean {
  return error instanceof Error && /context invalidated/i.test(error.message);
}

/** True for failures of the message channel itself (the service worker stopped mid-call): worth retrying. */
export function isTransient(error: unknown): boolean {
  // Chrome says "message port closed" or, for a listener that answers later, "message channel closed".
  return (
    error instanceof Error && !(error instanceof CallError) && /message (port|channel) closed|Receiving end does not exist|did not answer/i.test(error.message)
  );
}

/**
 * Runs a call, retrying channel failures with growing pauses. Only safe for
 * idempotent calls (saves carry their ids, so a retry overwrites, never duplicates).
 */
export async function withRetry<T>(
  call: () => Promise<T>,
  options: {
    delays?: readonly number[];
    onRetry?: (attempt: number) => void /** An attempt unanswered this long counts as a channel failure. */;
    timeoutMs?: number;
  } = {},
): Promise<T> {
  const delays = options.delays ?? [150, 400, 1000, 2500];
  for (let attempt = 0; ; attempt++) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      // A worker stopped mid-call can leave the call unanswered for good: give up on the attempt and retry.
      const late =
        options.timeoutMs === undefined
          ? null
          : new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('Recipe Lens did not answer in time')), options.timeoutMs)));
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
