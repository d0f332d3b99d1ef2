/** A dataset failure as the interface shows it. */
import { SyncError } from '../git/errors';
import type { DatasetFailure } from '../link';

/** The engine's code, sentence and details; anything else as "failed" with its message. */
export function failureOf(error: unknown): DatasetFailure {
  if (error instanceof SyncError) return { code: error.code, message: error.message, details: [...error.details] };
  return { code: 'failed', message: error instanceof Error ? error.message : String(error), details: [] };
}

/** The failure of an operation asked for while no dataset (or no token) is stored. */
export function notConnected(): DatasetFailure {
  return { code: 'not-connected', message: 'No dataset is connected: connect one on the options page.', details: [] };
}
