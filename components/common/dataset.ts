/**
 * The team's dataset as the options page, the panel and the popup show it:
 * the calls they make (through the `call` their entrypoints pass in), and the
 * words for the status line, the progress line and what went wrong.
 */
import type { DatasetActivity, DatasetFailure, DatasetStatus, PullDone } from '../../lib/dataset/link';
import type { Caller } from '../../lib/messages';
import { localDate } from '../../lib/time';
import { type MessageKey, plural, t } from '../../lib/i18n';

/** The dataset's calls: the connection, its test, the status, preview, publish, pull and settling conflicts. */
export type DatasetCall =
  | 'dataset.get'
  | 'dataset.connect'
  | 'dataset.disconnect'
  | 'dataset.test'
  | 'dataset.status'
  | 'dataset.preview'
  | 'dataset.publish'
  | 'dataset.pull'
  | 'dataset.settle';

/** What the dataset card needs: its calls, and the browser's permission for the repository's host. */
export interface DatasetApi {
  call: Caller<DatasetCall>;
  /** Asks the browser for the repository's origin (only that one); call it first in a click, before anything is awaited. */
  allowHost(url: string): Promise<boolean>;
}

/** A moment as the curator reads it: the local date and time to the minute. */
export function shortTime(timestamp: string | null): string {
  if (!timestamp) return t('datasetNever');
  const d = new Date(timestamp);
  return Number.isNaN(d.getTime()) ? timestamp : `${localDate(d)} ${d.toTimeString().slice(0, 5)}`;
}

const FAILURES: Record<string, MessageKey> = {
  unreachable: 'datasetErrUnreachable',
  auth: 'datasetErrAuth',
  'not-found': 'datasetErrNotFound',
  'no-branch': 'datasetErrNoBranch',
  'read-only': 'datasetErrReadOnly',
  refused: 'datasetErrRefused',
  conflicts: 'datasetErrConflicts',
  'invalid-dataset': 'datasetErrInvalid',
  aborted: 'datasetErrAborted',
  'not-connected': 'datasetErrNotConnected',
  permission: 'datasetErrPermission',
};

/** What went wrong and what to do, in the page's language (the engine's own sentence goes beside it). */
export function failureText(failure: DatasetFailure): string {
  return t(FAILURES[failure.code] ?? 'datasetErrFailed');
}

const STEPS: Record<string, MessageKey> = {
  clone: 'datasetStepClone',
  fetch: 'datasetStepFetch',
  read: 'datasetStepRead',
  plan: 'datasetStepPlan',
  write: 'datasetStepWrite',
  push: 'datasetStepPush',
  merge: 'datasetStepMerge',
};

const OPS: Record<DatasetActivity['op'], MessageKey> = {
  test: 'datasetOpTest',
  preview: 'datasetOpPreview',
  publish: 'datasetOpPublish',
  pull: 'datasetOpPull',
};

/** The progress line of the work under way: "Publishing… sending the commit (120 KB)". */
export function activityText(activity: DatasetActivity): string {
  const step = activity.step && STEPS[activity.step] ? t(STEPS[activity.step]!) : '';
  const bytes = activity.loaded ? ` (${Math.max(1, Math.round(activity.loaded / 1024))} KB)` : '';
  return `${t(OPS[activity.op])}${step ? ` ${step}` : ''}${bytes}`;
}

/** The status line's parts: last pull, last publish, changes not yet published, conflicts waiting, reviews behind the branch or open. */
export function statusParts(status: DatasetStatus): string[] {
  const parts = [t('datasetLastPull', shortTime(status.lastPullAt)), t('datasetLastPublish', shortTime(status.lastPublishAt))];
  parts.push(status.unpublished ? plural(status.unpublished, 'datasetUnpublishedOne', 'datasetUnpublishedMany') : t('datasetAllPublished'));
  if (status.conflicts) parts.push(plural(status.conflicts, 'datasetConflictsOne', 'datasetConflictsMany'));
  const behind = status.reviews.filter((r) => r.state === 'behind').length;
  const open = status.reviews.filter((r) => r.state === 'open').length;
  if (behind) parts.push(plural(behind, 'datasetReviewsBehindOne', 'datasetReviewsBehindMany'));
  if (open) parts.push(plural(open, 'datasetReviewsOpenOne', 'datasetReviewsOpenMany'));
  return parts;
}

/** One line of what a pull did. */
export function pullSummary(done: PullDone): string {
  return t('datasetPulled', done.added, done.updated, done.deleted, done.unchanged);
}
