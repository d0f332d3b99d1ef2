/** Pushing a commit to a branch, never forced, with only what the host lacks. */
import git from 'isomorphic-git';
import { writePack } from './pack';
import { advertisement, sendPack, ZERO_ID, type PushReport } from './smart';
import type { SyncContext } from './sync-context';
import { hasObject, objectsToPush } from './transfer';

/** The host did not move the ref: `report` is its answer, or null when the push was not sent (the branch had moved). */
export class PushRefusedError extends Error {
  override name = 'PushRefusedError';
  constructor(
    readonly ref: string,
    readonly report: PushReport | null,
  ) {
    super(
      report
        ? `the host refused to update ${ref}: ${report.unpack !== 'ok' ? `unpack ${report.unpack}` : (report.refs.get(ref)?.reason ?? 'no answer for the ref')}`
        : `${ref} moved: not a fast-forward`,
    );
  }
}

/** Whether a refused push means the branch moved (merge and try again), not that the host refused the commit. */
export function isNonFastForward(error: unknown): boolean {
  if (!(error instanceof PushRefusedError)) return false;
  if (!error.report) return true;
  const reason = error.report.refs.get(error.ref)?.reason ?? '';
  return error.report.unpack === 'ok' && /non-fast-forward|fetch first|failed to update|stale info|cannot lock|failed to lock/i.test(reason);
}

/**
 * Pushes `commit` to `branch`, never forced: a branch that moved to
 * something `commit` does not descend from is a `PushRefusedError` without
 * sending anything (the caller merges and tries again). The pack holds only
 * what the host lacks, changed files as deltas of the host's versions.
 */
export async function pushCommit(ctx: SyncContext, commit: string, branch: string, messages: string[]): Promise<void> {
  const ref = `refs/heads/${branch}`;
  const advertised = await advertisement(ctx.request, 'git-receive-pack');
  const old = advertised.refs.get(ref) ?? ZERO_ID;
  if (old === commit) return;
  if (old !== ZERO_ID) {
    const descends =
      (await hasObject(ctx.clone, old)) &&
      (await git.isDescendent({ fs: ctx.env.fs, dir: ctx.env.dir, oid: commit, ancestor: old, depth: -1, cache: ctx.cache }));
    if (!descends) throw new PushRefusedError(ref, null);
  }
  const { objects } = await objectsToPush(ctx.clone, commit, [...advertised.refs.values()], { thin: !advertised.capabilities.has('no-thin') });
  const pack = await writePack(objects);
  const report = await sendPack(ctx.request, advertised, [{ old, new: commit, ref }], pack, (line) => messages.push(line.replace(/\s+$/, '')));
  if (report.unpack !== 'ok' || !report.refs.get(ref)?.ok) throw new PushRefusedError(ref, report);
}
