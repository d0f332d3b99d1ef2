/**
 * The local clone, a cache of the host: made when missing, half-made or of
 * another repository, and made again once when git finds it damaged. Work on
 * it runs one operation at a time.
 */
import git from 'isomorphic-git';
import { describeFailure, errorCode, SyncError } from './errors';
import { fetchBranch } from './fetch-branch';
import { cloneIsComplete, flush, initClone, markComplete, markIncomplete } from './store';
import type { SyncContext } from './sync-context';

/** Errors that mean the local clone is damaged (an object or file missing), not the host or the network. */
export function isDamage(error: unknown): boolean {
  const c = errorCode(error);
  return c === 'NotFoundError' || c === 'ObjectTypeError' || c === 'InternalError' || c === 'ENOENT' || c === 'ReadObjectFail' || c === 'IncompletePack';
}

/** Makes sure a complete clone is there: a missing, half-made or foreign one is wiped and cloned again. */
export async function ensureClone(ctx: SyncContext): Promise<void> {
  const { fs, dir } = ctx.env;
  const { url, branch } = ctx.connection;
  if (await cloneIsComplete(fs, dir, url, branch)) return;
  ctx.reads.clear();
  await initClone(fs, dir, url, branch);
  const head = await fetchBranch(ctx, branch);
  if (head) await git.writeRef({ fs, dir, ref: `refs/heads/${branch}`, value: head, force: true });
  await flush(fs);
  await markComplete(fs, dir, url, branch);
}

/** Runs `work` on the clone after the operation under way (one at a time); a damaged clone is cloned again once and `work` run again. */
export function onClone<T>(ctx: SyncContext, work: () => Promise<T>): Promise<T> {
  const next = ctx.running.then(
    () => onCloneNow(ctx, work),
    () => onCloneNow(ctx, work),
  );
  ctx.running = next.catch(() => undefined);
  return next;
}

async function onCloneNow<T>(ctx: SyncContext, work: () => Promise<T>): Promise<T> {
  try {
    await ctx.step('clone', () => ensureClone(ctx));
  } catch (error) {
    throw describeFailure(error, ctx.where);
  }
  try {
    return await work();
  } catch (error) {
    if (error instanceof SyncError || !isDamage(error)) throw error instanceof SyncError ? error : describeFailure(error, ctx.where);
    await markIncomplete(ctx.env.fs, ctx.env.dir);
    await ensureClone(ctx);
    try {
      return await work();
    } catch (again) {
      throw describeFailure(again, ctx.where);
    }
  }
}
