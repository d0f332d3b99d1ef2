/**
 * The store's side of syncing with a dataset: every record with tombstones,
 * the bases (the dataset version each record last synced with, see
 * `lib/dataset`) and the spec's source records, and writing pulled records
 * with their new bases in one all-or-nothing transaction.
 */
import { withChanges, backupState } from '../backup';
import type { OpenedReview } from '../dataset/reviews';
import type { DatasetState, SyncWrite } from '../dataset/synced';
import type { SourceRecord, SurveyRecord } from '../schema';
import type { RecipeDatabase } from './open';
import { claimsOfPages } from './pages';
import { BACKUP_KEY, bulkWrite, putAll, readMatching, request, storesOf } from './transfer';
import type { StoredBase } from './schema';

export type { DatasetState, SyncWrite };

/** Every claim (tombstones included) and model record, the bases by record ref, and the source records, read in one transaction. */
export async function syncSnapshot(db: RecipeDatabase): Promise<{ records: SurveyRecord[]; bases: Map<string, string>; sources: SourceRecord[] }> {
  const tx = db.transaction(['pages', 'models', 'synced', 'rechecks']);
  const [pages, models, bases, rechecks] = await Promise.all([
    tx.objectStore('pages').getAll(),
    tx.objectStore('models').getAll(),
    tx.objectStore('synced').getAll(),
    tx.objectStore('rechecks').getAll(),
  ]);
  await tx.done;
  return {
    records: [...claimsOfPages(pages), ...models.map(({ key: _key, ...record }) => record)],
    bases: new Map(bases.map((b) => [b.ref, b.hash])),
    sources: rechecks.flatMap((r) => (r.record ? [r.record] : [])),
  };
}

/**
 * Writes a pull (or the bases of a publish) in one all-or-nothing
 * transaction: reads the stored versions of `incoming` and every base, lets
 * `decide` plan against exactly what the transaction sees (the store may have
 * changed since a preview), writes its records and bases, and counts the
 * records towards the backup reminder.
 */
export async function writeSync<T>(
  db: RecipeDatabase,
  incoming: readonly SurveyRecord[],
  decide: (stored: SurveyRecord[], bases: Map<string, string>) => SyncWrite<T>,
  now: string,
): Promise<T> {
  return bulkWrite(db, ['pages', 'models', 'meta', 'synced'], async (tx) => {
    const stores = storesOf(tx);
    const synced = tx.objectStore('synced');
    const meta = tx.objectStore('meta');
    const [stored, bases, state] = await Promise.all([
      readMatching(stores, incoming),
      request(synced.getAll()) as Promise<StoredBase[]>,
      request(meta.get(BACKUP_KEY)),
    ]);
    const { writes, bases: next, result } = decide(stored, new Map(bases.map((b) => [b.ref, b.hash])));
    await putAll(stores, writes);
    for (const [ref, hash] of next) synced.put({ ref, hash } satisfies StoredBase);
    if (writes.length) meta.put(withChanges(backupState(state), writes.length, now), BACKUP_KEY);
    return result;
  });
}

/** Forgets every base: the store is then as if it never synced (when the curator connects another dataset). */
export async function clearSyncBases(db: RecipeDatabase): Promise<void> {
  const tx = db.transaction('synced', 'readwrite');
  await Promise.all([tx.store.clear(), tx.done]);
}

/** What a version before the reviews were followed kept: the last publish for review. */
interface LegacyReview {
  branch: string;
  url: string | null;
  at: string;
}

/** A stored state as this version reads it: a state kept before reviews were followed has its last review as one open review. */
function upgradeState(value: DatasetState & { review?: LegacyReview | null }): DatasetState {
  if (Array.isArray(value.reviews)) return value;
  const { review, ...rest } = value;
  const reviews: OpenedReview[] = review
    ? [
        {
          branch: review.branch,
          url: review.url,
          openedAt: review.at,
          updatedAt: review.at,
          commit: null,
          base: null,
          records: [],
          state: 'open',
          mergedAt: null,
        },
      ]
    : [];
  return { ...rest, reviews };
}

const DATASET_KEY = 'dataset';

/** The dataset state, or null when the store never synced. */
export async function getDatasetState(db: RecipeDatabase): Promise<DatasetState | null> {
  const value = (await db.get('meta', DATASET_KEY)) as DatasetState | undefined;
  return value && typeof value.url === 'string' && typeof value.branch === 'string' ? upgradeState(value) : null;
}

/**
 * Records what a pull or publish did. Connecting another dataset (another URL
 * or branch) starts afresh: the old bases and state are forgotten in the same
 * transaction, so the new dataset's records are planned as for a store that
 * never synced.
 */
export async function putDatasetState(
  db: RecipeDatabase,
  dataset: { url: string; branch: string },
  patch: Partial<Omit<DatasetState, 'url' | 'branch'>>,
): Promise<DatasetState> {
  const tx = db.transaction(['meta', 'synced'], 'readwrite');
  const meta = tx.objectStore('meta');
  const raw = (await meta.get(DATASET_KEY)) as DatasetState | undefined;
  const stored = raw && upgradeState(raw);
  const same = stored?.url === dataset.url && stored?.branch === dataset.branch;
  if (!same) await tx.objectStore('synced').clear();
  const base: DatasetState = same
    ? stored!
    : {
        url: dataset.url,
        branch: dataset.branch,
        lastPullAt: null,
        lastPulledCommit: null,
        lastPublishAt: null,
        lastPublishedCommit: null,
        conflicts: 0,
        reviews: [],
      };
  const next: DatasetState = { ...base, ...patch, url: dataset.url, branch: dataset.branch };
  await meta.put(next, DATASET_KEY);
  await tx.done;
  return next;
}
