/**
 * The publish dry run and the publish: fetch, plan the local changes against
 * the dataset at its head (`planPublish`), write one commit on top of it with
 * the changed records files and the regenerated README, and push it — to the
 * branch, or to `curators/<name>` for review (records only: the branch
 * rebuilds its README once the review is merged). Never forced.
 */
import git from 'isomorphic-git';
import type { SourceRecord } from '../../schema';
import { recordHash, recordRef } from '../hash';
import { slug } from '../layout';
import { applyPublish, indexDataset, planPublish } from '../publish';
import { onClone } from './clone-upkeep';
import { fetchBranch, fetchDataset } from './fetch-branch';
import { mergeByIdentity, PUBLISH_REF } from './merge-by-identity';
import { pushWithRetry } from './publish-retry';
import { readUsable } from './read-dataset';
import { reviewLink } from './review';
import { flush, writeDatasetTree } from './store';
import type { SyncContext } from './sync-context';
import type { LocalSnapshot, PublishOptions, PublishOutcome, PublishPreview } from './sync-types';

/**
 * The source records a publish weighs: the store's against the branch's. A review carries claims and models only
 * (two reviews adding source records would not merge cleanly on the host); its source records go with a publish to
 * the branch, where a moved branch is merged by URL.
 */
function publishedSources(local: LocalSnapshot, theirs: readonly SourceRecord[], review: boolean) {
  return { local: review ? [] : (local.sources ?? []), dataset: theirs };
}

/** What publishing would do (a dry run: fetched, planned, nothing written or pushed). */
export function previewPublish(ctx: SyncContext, local: LocalSnapshot, options: Pick<PublishOptions, 'target'> = {}): Promise<PublishPreview> {
  return onClone(ctx, async () => {
    const head = await fetchDataset(ctx);
    const { read, readme } = await readUsable(ctx, head);
    const theirs = read.sources.map((s) => s.record);
    const review = options.target === 'review';
    const plan = planPublish(local.records, local.bases, indexDataset(read.records.map((r) => r.record)), publishedSources(local, theirs, review));
    const how = { title: ctx.connection.title, review, sources: theirs, sourceWrites: plan.sources };
    const files = plan.writes.length || plan.sources.length ? [...applyPublish(read.records, read.texts, readme, plan.writes, how).files.keys()] : [];
    return { head, plan, files };
  });
}

/** Publishes the store's changes in one commit, merging by record identity when the branch moved. */
export function publishDataset(ctx: SyncContext, local: LocalSnapshot, options: PublishOptions = {}): Promise<PublishOutcome> {
  return onClone(ctx, async () => {
    const { fs, dir } = ctx.env;
    const head = await ctx.step('fetch', () => fetchDataset(ctx));
    const { read, readme } = await ctx.step('read', () => readUsable(ctx, head));
    const theirs = read.sources.map((s) => s.record);
    const review = options.target === 'review';
    const plan = await ctx.step('plan', () =>
      planPublish(local.records, local.bases, indexDataset(read.records.map((r) => r.record)), publishedSources(local, theirs, review)),
    );
    const pushedTo = review ? `curators/${slug(ctx.connection.name)}` : ctx.connection.branch;
    const outcome: PublishOutcome = {
      status: 'nothing',
      plan,
      commit: head,
      pushedTo,
      base: head,
      reviewUrl: null,
      bases: [...plan.agreed],
      merges: 0,
      messages: [],
    };
    if (!plan.writes.length && !plan.sources.length) return outcome;
    const author = ctx.author();
    let commit = await ctx.step('write', async () => {
      const { files } = applyPublish(read.records, read.texts, readme, plan.writes, {
        title: ctx.connection.title,
        review,
        sources: theirs,
        sourceWrites: plan.sources,
      });
      const tree = await writeDatasetTree(fs, dir, head, files, ctx.cache, ctx.remember);
      const made = await git.commit({
        fs,
        dir,
        message: options.message?.trim() ? `${options.message.trim()}\n` : plan.message,
        author,
        committer: author,
        tree,
        parent: head ? [head] : [],
        ref: PUBLISH_REF,
        cache: ctx.cache,
      });
      await flush(fs);
      return made;
    });
    if (review) {
      const existing = await fetchBranch(ctx, pushedTo);
      if (existing && !(await git.isDescendent({ fs, dir, oid: commit, ancestor: existing, depth: -1, cache: ctx.cache }))) {
        commit = await ctx.step('merge', () => mergeByIdentity(ctx, commit, existing, pushedTo, review));
        outcome.merges += 1;
      }
    }
    const pushed = await pushWithRetry(ctx, commit, pushedTo, review, outcome.messages);
    commit = pushed.commit;
    outcome.merges += pushed.merges;
    await flush(fs);
    if (!review) {
      await git.writeRef({ fs, dir, ref: `refs/heads/${ctx.connection.branch}`, value: commit, force: true });
      await flush(fs);
      outcome.bases.push(...plan.writes.map((w) => [recordRef(w), recordHash(w)] as [string, string]));
    } else outcome.reviewUrl = reviewLink(ctx.connection.url, ctx.connection.branch, pushedTo, ctx.connection.forge ?? undefined);
    outcome.status = 'published';
    outcome.commit = commit;
    return outcome;
  });
}
