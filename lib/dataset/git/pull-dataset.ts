/** A pull: fetch the branch, read the records at its head (nothing used from a dataset with problems), plan them against the store. */
import git from 'isomorphic-git';
import { planPull } from '../pull';
import { onClone } from './clone-upkeep';
import { fetchDataset } from './fetch-branch';
import { readUsable } from './read-dataset';
import { flush } from './store';
import type { SyncContext } from './sync-context';
import type { LocalSnapshot, PullOutcome } from './sync-types';

/** Fetches the dataset and plans bringing it into the store. Writes nothing to the store. */
export function pullDataset(ctx: SyncContext, local: LocalSnapshot): Promise<PullOutcome> {
  return onClone(ctx, async () => {
    const head = await ctx.step('fetch', () => fetchDataset(ctx));
    const { read } = await ctx.step('read', () => readUsable(ctx, head));
    const remote = read.records.map((r) => r.record);
    const plan = await ctx.step('plan', () => planPull(local.records, local.bases, remote));
    if (head) await git.writeRef({ fs: ctx.env.fs, dir: ctx.env.dir, ref: `refs/heads/${ctx.connection.branch}`, value: head, force: true });
    await flush(ctx.env.fs);
    return { head, plan, remote, sources: read.sources.map((s) => s.record), ignored: read.ignored, layout: read.layout };
  });
}
