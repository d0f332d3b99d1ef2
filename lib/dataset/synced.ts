/** What the store keeps of its syncing with a dataset, as the store (`lib/db`) and the dataset service both see it. */
import type { SurveyRecord } from '../schema';
import type { OpenedReview } from './reviews';

/** What a sync decides to write: records, the bases to record, and what to tell the caller. */
export interface SyncWrite<T> {
  writes: readonly SurveyRecord[];
  bases: ReadonlyArray<readonly [string, string]>;
  result: T;
}

/** What the store remembers of its dataset (never the token: that stays in the extension's `storage.local`). */
export interface DatasetState {
  /** The dataset synced with: its repository URL and branch. */
  url: string;
  branch: string;
  lastPullAt: string | null;
  /** The dataset's head at the last pull. */
  lastPulledCommit: string | null;
  lastPublishAt: string | null;
  lastPublishedCommit: string | null;
  /** Conflicts the last pull left for later. */
  conflicts: number;
  /** The reviews the curator opened, newest first, as the last publish or pull left them. */
  reviews: OpenedReview[];
}
