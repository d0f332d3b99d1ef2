/**
 * The publish dry run and the publish, from the store: the store's changes
 * planned against the dataset's head, and what a publish did recorded (the
 * bases of what the branch now holds, the review opened).
 */
import { recordReview, slug } from '..';
import type { DatasetLink, PublishDone, PublishDryRun } from '../link';
import { conflictViews } from './conflicts';
import type { DatasetEngine, DatasetStatePatch, SyncStore } from './ports';

/** What publishing would do, without doing it. */
export async function previewFromStore(
  engine: DatasetEngine,
  link: DatasetLink,
  store: SyncStore,
  target: DatasetLink['target'] | undefined,
): Promise<PublishDryRun> {
  await store.putState(link, {});
  const to = target ?? link.target;
  const { plan, files } = await engine.preview(await store.snapshot(), { target: to });
  const review = to === 'review';
  return {
    models: plan.models,
    totals: plan.totals,
    message: plan.message,
    conflicts: conflictViews(plan.conflicts),
    pushTo: review ? `curators/${slug(link.name)}` : link.branch,
    reviewBranch: `curators/${slug(link.name)}`,
    files,
    sources: plan.sources.length,
  };
}

/** What the curator asked of a publish. */
export interface PublishRequest {
  message?: string;
  target?: DatasetLink['target'];
}

/** Publishes the store's changes and records what was published; what it did. */
export async function publishFromStore(
  engine: DatasetEngine,
  link: DatasetLink,
  store: SyncStore,
  request: PublishRequest,
  now: () => string,
): Promise<PublishDone> {
  await store.putState(link, {});
  const outcome = await engine.publish(await store.snapshot(), { message: request.message, target: request.target ?? link.target });
  const at = now();
  if (outcome.bases.length) await store.writeSync([], () => ({ writes: [], bases: outcome.bases, result: null }), at);
  const patch: DatasetStatePatch = { conflicts: outcome.plan.conflicts.length };
  if (outcome.status === 'published') {
    patch.lastPublishAt = at;
    patch.lastPublishedCommit = outcome.commit;
    if (outcome.pushedTo !== link.branch) {
      const pushed = { branch: outcome.pushedTo, url: outcome.reviewUrl, commit: outcome.commit, base: outcome.base, writes: outcome.plan.writes };
      patch.reviews = recordReview((await store.state())?.reviews ?? [], pushed, at);
    }
  }
  await store.putState(link, patch);
  return {
    status: outcome.status,
    totals: outcome.plan.totals,
    commit: outcome.commit,
    pushedTo: outcome.pushedTo,
    reviewUrl: outcome.reviewUrl,
    merges: outcome.merges,
    conflicts: outcome.plan.conflicts.length,
    messages: outcome.messages,
    sources: outcome.status === 'published' ? outcome.plan.sources.length : 0,
  };
}
