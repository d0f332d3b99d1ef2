/** The status line: last pull and publish, changes not yet published, conflicts and reviews, the work under way, the last automatic pull's failure. */
import { localChanges } from '..';
import type { DatasetActivity, DatasetFailure, DatasetLink, DatasetStatus } from '../link';
import type { DatasetState } from '../synced';
import type { SyncStore } from './ports';

/** Counts the local changes not yet published (against the bases of the dataset connected; none for another). */
export async function countUnpublished(store: SyncStore, link: DatasetLink | null, state: DatasetState | null): Promise<number> {
  if (!link) return 0;
  const snapshot = await store.snapshot();
  const same = state?.url === link.url && state?.branch === link.branch;
  return localChanges(snapshot.records, same ? snapshot.bases : new Map()).length;
}

/** What the status line is made of. */
export interface StatusParts {
  link: DatasetLink | null;
  state: DatasetState | null;
  unpublished: number;
  running: DatasetActivity | null;
  lastError: DatasetFailure | null;
}

/** The status line; what the store remembers counts only when it is of the dataset connected. */
export function statusOf({ link, state, unpublished, running, lastError }: StatusParts): DatasetStatus {
  const same = !!link && !!state && state.url === link.url && state.branch === link.branch;
  return {
    connected: !!link,
    lastPullAt: same ? state!.lastPullAt : null,
    lastPublishAt: same ? state!.lastPublishAt : null,
    unpublished,
    conflicts: same ? state!.conflicts : 0,
    reviews: same
      ? state!.reviews.map((r) => ({
          branch: r.branch,
          url: r.url,
          openedAt: r.openedAt,
          updatedAt: r.updatedAt,
          state: r.state,
          mergedAt: r.mergedAt,
          records: r.records.length,
        }))
      : [],
    running,
    lastError,
  };
}
