/**
 * What went wrong talking to a dataset, in words a curator can act on. Every
 * failure of the sync engine is a `SyncError` with a `code` the interface can
 * translate and an English message (for logs and the CLI).
 */

/** The kinds of failure. */
export type SyncProblem = 'unreachable' | 'auth' | 'not-found' | 'no-branch' | 'read-only' | 'refused' | 'conflicts' | 'invalid-dataset' | 'aborted' | 'failed';

/** A failure of a dataset operation. */
export class SyncError extends Error {
  override name = 'SyncError';
  constructor(
    readonly code: SyncProblem,
    message: string,
    /** Further lines: the server's messages, the dataset's problems (`path:line: message`). */
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}

function statusOf(error: unknown): number | null {
  const e = error as { code?: string; data?: { statusCode?: number } };
  return e?.code === 'HttpError' && typeof e.data?.statusCode === 'number' ? e.data.statusCode : null;
}

function isNetworkError(error: unknown): boolean {
  const e = error as { name?: string; message?: string; cause?: { code?: string }; code?: string };
  if (e?.name === 'TypeError' && /fetch|network|Failed to fetch/i.test(e.message ?? '')) return true;
  const code = e?.cause?.code ?? e?.code;
  return typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/.test(code);
}

function isAbort(error: unknown): boolean {
  const e = error as { name?: string; code?: string };
  return e?.name === 'AbortError' || e?.code === 'ABORT_ERR';
}

/** The `code` isomorphic-git (or the file system) gave an error, if any. */
export function errorCode(error: unknown): string | undefined {
  return (error as { code?: string })?.code;
}

/** A failure of git work turned into a `SyncError` (`pushing` tells a 403 on a push from other 403s). */
export function describeFailure(error: unknown, where: { url: string; branch: string; pushing?: boolean }): SyncError {
  if (error instanceof SyncError) return error;
  const host = (() => {
    try {
      return new URL(where.url).host;
    } catch {
      return where.url;
    }
  })();
  const status = statusOf(error);
  if (status === 401)
    return new SyncError('auth', `${host} refused the token (401). Check the token, that it has not expired, and that it may read this repository.`);
  if (status === 403)
    return where.pushing
      ? new SyncError('read-only', `${host} lets this token read the dataset but not write to it (403). Ask for write access, or publish for review.`)
      : new SyncError('auth', `${host} refused this token access to the repository (403).`);
  if (status === 404) return new SyncError('not-found', `There is no repository at ${where.url} (404), or the token may not see it.`);
  if (status !== null) return new SyncError('failed', `${host} answered ${status}.`);
  if (isAbort(error)) return new SyncError('aborted', 'Stopped before it finished; nothing was changed on the server. Try again.');
  if (isNetworkError(error)) return new SyncError('unreachable', `Cannot reach ${host}: check the address and the network. Nothing was lost; try again later.`);
  const name = (error as { name?: string })?.name;
  if (name === 'ProtocolError' || name === 'PackError')
    return new SyncError(
      'failed',
      `${host} answered in a way git's protocol does not allow (${(error as Error).message}). Nothing was changed here; try again, and check that the address is the repository's.`,
    );
  const message = error instanceof Error ? error.message : String(error);
  return new SyncError('failed', message);
}
