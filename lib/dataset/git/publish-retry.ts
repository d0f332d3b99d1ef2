/**
 * Pushing a publish until it lands: when the branch moved meanwhile, the
 * commit is merged with the new head by record identity and pushed again, a
 * few times at most; a refusal is said with the server's own words.
 */
import { describeFailure, SyncError } from './errors';
import { fetchBranch } from './fetch-branch';
import { mergeByIdentity } from './merge-by-identity';
import { isNonFastForward, PushRefusedError, pushCommit } from './push-commit';
import type { SyncContext } from './sync-context';

/** What pushing did: the commit now at the head of the branch, and the merges made on the way. */
export interface PushedCommit {
  commit: string;
  merges: number;
}

/**
 * Pushes `commit` to `branch`, merging with the branch's new head and trying
 * again while it keeps moving (`env.maxPushAttempts`, default 5); the
 * server's messages are added to `messages`.
 */
export async function pushWithRetry(ctx: SyncContext, commit: string, branch: string, review: boolean, messages: string[]): Promise<PushedCommit> {
  const attempts = ctx.env.maxPushAttempts ?? 5;
  let merges = 0;
  for (let attempt = 1; ; attempt++) {
    const said: string[] = [];
    const pushed = Date.now();
    try {
      await pushCommit(ctx, commit, branch, said);
      messages.push(...said);
      ctx.env.onStep?.('push', Date.now() - pushed);
      return { commit, merges };
    } catch (error) {
      ctx.env.onStep?.('push', Date.now() - pushed);
      messages.push(...said);
      if (!isNonFastForward(error) || attempt >= attempts) throw pushFailure(ctx, error, said, attempt >= attempts && isNonFastForward(error));
      const moved = await ctx.step('fetch', () => fetchBranch(ctx, branch));
      if (!moved) continue;
      commit = await ctx.step('merge', () => mergeByIdentity(ctx, commit, moved, branch, review));
      merges += 1;
    }
  }
}

/** Why a push failed, in words a curator can act on (the server's last message when it gave one). */
function pushFailure(ctx: SyncContext, error: unknown, messages: readonly string[], gaveUp: boolean): SyncError {
  if (gaveUp) return new SyncError('refused', 'The branch kept moving while publishing; nothing was lost. Publish again in a moment.', messages);
  if (error instanceof PushRefusedError && error.report) {
    const said = messages.filter((m) => m.trim() !== '');
    const reason = error.report.refs.get(error.ref)?.reason;
    if (error.report.unpack !== 'ok')
      return new SyncError(
        'failed',
        `The server could not store the publish (${error.report.unpack}). Nothing was published; your changes are kept. Try again.`,
        said,
      );
    return new SyncError(
      'refused',
      `The server refused the publish${said.length ? `: ${said[said.length - 1]}` : reason ? ` (${reason})` : ''}. Nothing was published; your changes are kept.`,
      said.length ? said : reason ? [reason] : [],
    );
  }
  const failure = describeFailure(error, { ...ctx.where, pushing: true });
  return failure.details.length || !messages.length ? failure : new SyncError(failure.code, failure.message, messages);
}
