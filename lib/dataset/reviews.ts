/**
 * The reviews a curator opened (publishes to `curators/<name>`), followed
 * until their changes arrive in the dataset's branch. Pure.
 *
 * A review is **merged** when every record version it carried is in the
 * branch, as the last pull saw it (that version, or a newer one of the same
 * record): the host may have merged it, squashed it or rebased it, so commits
 * are not compared. It is **behind** when the branch moved on since the
 * review was built (the host may then need it brought up to date: publishing
 * for review again rebuilds it on the new head, merging by record id), and
 * **open** otherwise.
 */
import type { SurveyRecord } from '../schema';
import { recordHash, recordRef } from './hash';

/** Where a review stands, as of the last pull. */
export type ReviewState = 'open' | 'behind' | 'merged';

/** One review the curator opened. */
export interface OpenedReview {
  /** The review branch, `curators/<slug>`. */
  branch: string;
  /** Where the host opens it (null for hosts Recipe Lens does not know). */
  url: string | null;
  openedAt: string;
  /** When it was last published to. */
  updatedAt: string;
  /** The review branch's commit as last pushed. */
  commit: string | null;
  /** The dataset branch's head it was built on. */
  base: string | null;
  /** The record versions it carries: `[recordRef, recordHash, updated_at]`, sorted by ref. */
  records: Array<[string, string, string]>;
  state: ReviewState;
  /** When a pull first found its changes in the branch. */
  mergedAt: string | null;
}

/** How many reviews are remembered (the newest first). */
export const KEPT_REVIEWS = 10;

/** What one publish for review pushed. */
export interface ReviewPublish {
  branch: string;
  url: string | null;
  commit: string | null;
  base: string | null;
  writes: readonly SurveyRecord[];
}

/**
 * The reviews after a publish for review: the newest review of that branch, while not merged, grows by what was
 * pushed (a newer version of a record replaces the one it carried); otherwise a new review is opened.
 */
export function recordReview(reviews: readonly OpenedReview[], pushed: ReviewPublish, now: string): OpenedReview[] {
  const carried = new Map<string, [string, string, string]>();
  const i = reviews.findIndex((r) => r.branch === pushed.branch);
  const current = i !== -1 && reviews[i]!.state !== 'merged' ? reviews[i]! : null;
  for (const r of current?.records ?? []) carried.set(r[0], r);
  for (const w of pushed.writes) carried.set(recordRef(w), [recordRef(w), recordHash(w), w.updated_at]);
  const review: OpenedReview = {
    branch: pushed.branch,
    url: pushed.url,
    openedAt: current?.openedAt ?? now,
    updatedAt: now,
    commit: pushed.commit,
    base: pushed.base,
    records: [...carried.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)),
    state: 'open',
    mergedAt: null,
  };
  const rest = reviews.filter((r) => r !== current);
  return [review, ...rest].slice(0, KEPT_REVIEWS);
}

/** Whether every version a review carried is in the dataset (that version, or a newer one of the record). */
export function reviewArrived(review: OpenedReview, dataset: ReadonlyMap<string, SurveyRecord>): boolean {
  if (!review.records.length) return false;
  return review.records.every(([ref, hash, at]) => {
    const there = dataset.get(ref);
    return there !== undefined && (recordHash(there) === hash || Date.parse(there.updated_at) > Date.parse(at));
  });
}

/** A review's state against the branch as a pull found it: its head and its records by `recordRef`. */
export function reviewState(review: OpenedReview, head: string | null, dataset: ReadonlyMap<string, SurveyRecord>): ReviewState {
  if (review.state === 'merged' || reviewArrived(review, dataset)) return 'merged';
  return review.base !== head ? 'behind' : 'open';
}

/** The reviews after a pull: each one's state, and when a merged one was first seen merged. */
export function followReviews(reviews: readonly OpenedReview[], head: string | null, dataset: ReadonlyMap<string, SurveyRecord>, now: string): OpenedReview[] {
  return reviews.map((r) => {
    const state = reviewState(r, head, dataset);
    return state === r.state ? r : { ...r, state, mergedAt: state === 'merged' ? (r.mergedAt ?? now) : null };
  });
}
