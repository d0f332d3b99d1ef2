/**
 * Moving records in and out of the store in bulk: planned imports and
 * restores written in one transaction each, backups read in one, and the
 * count of changes since the last backup (in the `meta` store).
 *
 * Bulk writes use relaxed durability (the browser may confirm before the
 * disk has flushed; a crash can lose the import, never half of it) and put
 * records without a promise each, so 10,000 records cost one pass.
 */
import { pagesWritten } from './page-writes';
import { unwrap } from 'idb';
import { CLAIM_SCHEMA, modelKey, type ClaimRecord, type ModelRecord, type SourceCorrection, type SourceRecord, type SurveyRecord } from '../schema';
import { backupState, withChanges, type BackupState } from '../backup';
import type { RecipeDatabase } from './open';
import { claimsOfPages, PageGroups, request } from './pages';
import type { StoredRecheck } from './schema';
import { mergeSourceRecordsInto, replaceSourceRecordsIn } from './source-records';

/** The `meta` key of the backup state. */
export const BACKUP_KEY = 'backup';

/** The claims (a page to a value) and the raw models store of an open transaction. */
export type Stores = { pages: PageGroups; models: IDBObjectStore };

/** The claims and models of an open transaction (raw, unwrapped). */
export function storesOf(tx: IDBTransaction): Stores {
  return { pages: new PageGroups(tx.objectStore('pages')), models: tx.objectStore('models') };
}

/** A raw IndexedDB request as a promise. */
export { request };

/** Reads all of a store when most of it is wanted, else the wanted keys one by one (requests pipelined). */
async function readKeys(store: IDBObjectStore, wanted: readonly string[], total: number): Promise<unknown[]> {
  if (!wanted.length) return [];
  if (wanted.length * 4 >= total) {
    const want = new Set(wanted);
    const all = (await request(store.getAll())) as Array<Record<string, unknown>>;
    const keyPath = store.keyPath as string;
    return all.filter((v) => want.has(v[keyPath] as string));
  }
  return Promise.all(wanted.map((key) => request(store.get(key))));
}

/** The stored versions of records with the identities of `incoming`, read through the stores of an open transaction. */
export async function readMatching(stores: Stores, incoming: readonly SurveyRecord[]): Promise<SurveyRecord[]> {
  const claimIds: string[] = [];
  const wantModels = new Set<string>();
  const modelKeys = (await request(stores.models.getAllKeys())) as string[];
  const haveModels = new Set(modelKeys);
  for (const r of incoming) {
    if (r.schema === CLAIM_SCHEMA) claimIds.push((r as ClaimRecord).id);
    else {
      const key = modelKey(r.model, r.recipe);
      if (haveModels.has(key)) wantModels.add(key);
    }
  }
  const [, models] = await Promise.all([stores.pages.load(claimIds), readKeys(stores.models, [...wantModels], haveModels.size)]);
  const claims: ClaimRecord[] = [];
  for (const id of new Set(claimIds)) {
    const claim = stores.pages.claim(id);
    if (claim) claims.push(claim);
  }
  const strip = (m: unknown) => {
    const { key: _key, ...record } = m as ModelRecord & { key?: string };
    return record as ModelRecord;
  };
  return [...claims, ...models.filter(Boolean).map(strip)];
}

/** The stored versions of the records `incoming` would replace (same claim id, same model and recipe). */
export async function storedVersions(db: RecipeDatabase, incoming: readonly SurveyRecord[]): Promise<SurveyRecord[]> {
  const tx = db.transaction(['pages', 'models']);
  const found = await readMatching(storesOf(unwrap(tx)), incoming);
  await tx.done;
  return found;
}

/** Writes records: claims into their pages (each changed page once), model records one value each; no promise per value; a failure aborts the transaction. */
export async function putAll(stores: Stores, records: readonly SurveyRecord[]): Promise<void> {
  const claims: ClaimRecord[] = [];
  for (const r of records) {
    if (r.schema === CLAIM_SCHEMA) claims.push(r as ClaimRecord);
    else stores.models.put({ ...(r as ModelRecord), key: modelKey(r.model, r.recipe) });
  }
  await stores.pages.put(claims);
  stores.pages.flush();
}

/**
 * Runs `body` in a readwrite transaction with relaxed durability; aborts it when `body` throws. `added`, when given,
 * tells after the commit what the transaction did to the pages store (see `writeTransaction`).
 */
export async function bulkWrite<T>(
  db: RecipeDatabase,
  names: Array<StoreName>,
  body: (tx: IDBTransaction) => Promise<T>,
  added?: () => readonly string[] | null,
): Promise<T> {
  return writeTransaction(db, names, body, 'relaxed', added);
}

/** A store of the database by name. */
export type StoreName = 'pages' | 'models' | 'sources' | 'meta' | 'synced' | 'rechecks';

/**
 * Runs `body` in a readwrite transaction (raw, unwrapped) and waits for it to commit; aborts it when `body` throws, so
 * nothing of it is stored. `added`, asked after the commit, gives the addresses of the pages the transaction put when
 * it wrote the pages store through nothing but those puts (no delete, no clear), else null: the watcher of page writes
 * then need not read the store.
 */
export async function writeTransaction<T>(
  db: RecipeDatabase,
  names: Array<StoreName>,
  body: (tx: IDBTransaction) => Promise<T>,
  durability: IDBTransactionDurability = 'default',
  added?: () => readonly string[] | null,
): Promise<T> {
  const tx = db.transaction(names, 'readwrite', { durability });
  const done = tx.done;
  // An aborted transaction rejects `done`; the error reaches the caller through the catch below.
  done.catch(() => undefined);
  try {
    const result = await body(unwrap(tx));
    await done;
    // Whoever keeps an index of the pages store (the background's claims index) hears of the write before its caller.
    if (names.includes('pages')) await pagesWritten(db, added?.() ?? undefined);
    return result;
  } catch (error) {
    try {
      tx.abort();
    } catch {
      // the transaction already ended
    }
    throw error;
  }
}

/**
 * Imports in one all-or-nothing transaction: reads the stored versions of
 * `incoming`, lets `decide` choose what to write (it sees exactly what the
 * transaction sees), writes that, and counts the writes as changes since the
 * last backup.
 */
export async function writeImport<T>(
  db: RecipeDatabase,
  incoming: readonly SurveyRecord[],
  decide: (stored: SurveyRecord[]) => { writes: readonly SurveyRecord[]; result: T },
  now: string,
): Promise<T> {
  return (await writePlanned(db, incoming, [], decide, now)).result;
}

/**
 * `writeImport` that also stores the spec's source records of the file in the same transaction (each URL keeps the
 * later `updated_at`; they do not count towards the backup reminder). Returns `decide`'s result and how many source
 * records changed.
 */
export async function writeImportWithSources<T>(
  db: RecipeDatabase,
  incoming: readonly SurveyRecord[],
  sourceRecords: readonly SourceRecord[],
  decide: (stored: SurveyRecord[]) => { writes: readonly SurveyRecord[]; result: T },
  now: string,
): Promise<{ result: T; sourceRecords: number }> {
  return writePlanned(db, incoming, sourceRecords, decide, now);
}

/** `writeImport` without counting the writes towards the backup reminder. */
export async function writeRecords<T>(
  db: RecipeDatabase,
  incoming: readonly SurveyRecord[],
  decide: (stored: SurveyRecord[]) => { writes: readonly SurveyRecord[]; result: T },
): Promise<T> {
  return (await writePlanned(db, incoming, [], decide, null)).result;
}

/**
 * Reads the stored versions of `incoming` (all keys first: no request per record), writes what `decide` chooses and
 * merges `sourceRecords` in; counts the record writes when `now` is given.
 */
async function writePlanned<T>(
  db: RecipeDatabase,
  incoming: readonly SurveyRecord[],
  sourceRecords: readonly SourceRecord[],
  decide: (stored: SurveyRecord[]) => { writes: readonly SurveyRecord[]; result: T },
  now: string | null,
): Promise<{ result: T; sourceRecords: number }> {
  const names: StoreName[] = now === null ? ['pages', 'models'] : ['pages', 'models', 'meta'];
  if (sourceRecords.length) names.push('rechecks');
  // The pages store is written through `stores.pages` alone: the claims index may just add the pages it put.
  let pages: PageGroups | null = null;
  return bulkWrite(
    db,
    names,
    async (tx) => {
      const stores = storesOf(tx);
      pages = stores.pages;
      const meta = now === null ? null : tx.objectStore('meta');
      const [stored, state] = await Promise.all([readMatching(stores, incoming), meta ? request(meta.get(BACKUP_KEY)) : null]);
      const { writes, result } = decide(stored);
      await putAll(stores, writes);
      if (meta && now !== null && writes.length) meta.put(withChanges(backupState(state), writes.length, now), BACKUP_KEY);
      const changed = sourceRecords.length ? await mergeSourceRecordsInto(tx.objectStore('rechecks'), sourceRecords) : 0;
      return { result, sourceRecords: changed };
    },
    () => (pages as PageGroups | null)?.addedOnly() ?? null,
  );
}

/** How many of each the store holds (source records too), and the keys of its records (`recordRef` form: `claim:<id>`, `model:<key>`). */
export async function storeRefs(db: RecipeDatabase): Promise<{ refs: Set<string>; claims: number; models: number; sources: number; sourceRecords: number }> {
  const tx = db.transaction(['pages', 'models', 'sources', 'rechecks']);
  const [pages, models, sources, rechecks] = await Promise.all([
    tx.objectStore('pages').getAll(),
    tx.objectStore('models').getAllKeys(),
    tx.objectStore('sources').count(),
    tx.objectStore('rechecks').getAll(),
  ]);
  await tx.done;
  const claims = pages.flatMap((page) => page.ids);
  const refs = new Set([...claims.map((k) => `claim:${k}`), ...models.map((k) => `model:${k}`)]);
  return { refs, claims: claims.length, models: models.length, sources, sourceRecords: rechecks.filter((r) => r.record).length };
}

/**
 * Replaces every claim and model record (and, when `sources` is given,
 * every source correction; when `sourceRecords` is given, every source
 * record, the findings of this store's rechecks kept — or, `merge`, merges
 * them in by `updated_at`) with these, in one all-or-nothing transaction. The store then equals a backup, so the change
 * count starts again at zero, and its dataset bases are forgotten (a restored
 * older version is not a change to publish over the team's newer one).
 */
export async function replaceStore(
  db: RecipeDatabase,
  records: readonly SurveyRecord[],
  sources: readonly SourceCorrection[] | null,
  sourceRecords: readonly SourceRecord[] | null = null,
  how: 'replace' | 'merge' = 'replace',
): Promise<void> {
  const names: StoreName[] = sources ? ['pages', 'models', 'sources', 'meta', 'synced'] : ['pages', 'models', 'meta', 'synced'];
  if (sourceRecords) names.push('rechecks');
  await bulkWrite(db, names, async (tx) => {
    // The store no longer holds what it last synced with a dataset: the next pull plans as for a store that never synced.
    tx.objectStore('synced').clear();
    const stores = storesOf(tx);
    const meta = tx.objectStore('meta');
    const state = backupState(await request(meta.get(BACKUP_KEY)));
    stores.pages.clear();
    stores.models.clear();
    await putAll(stores, records);
    if (sources) {
      const store = tx.objectStore('sources');
      store.clear();
      for (const s of sources) store.put(s);
    }
    if (sourceRecords && how === 'merge') await mergeSourceRecordsInto(tx.objectStore('rechecks'), sourceRecords);
    else if (sourceRecords) await replaceSourceRecordsIn(tx.objectStore('rechecks'), sourceRecords);
    meta.put({ ...state, changes: 0, firstChangeAt: null } satisfies BackupState, BACKUP_KEY);
  });
}

/** Everything a backup holds (source records too), read in one transaction, and the backup time recorded (the change count starts again). */
export async function takeBackup(
  db: RecipeDatabase,
  now: string,
): Promise<{ claims: ClaimRecord[]; models: ModelRecord[]; sources: SourceCorrection[]; sourceRecords: SourceRecord[] }> {
  const tx = db.transaction(['pages', 'models', 'sources', 'rechecks', 'meta'], 'readwrite');
  const [pages, models, sources, rechecks] = await Promise.all([
    tx.objectStore('pages').getAll(),
    tx.objectStore('models').getAll(),
    tx.objectStore('sources').getAll(),
    tx.objectStore('rechecks').getAll(),
  ]);
  await tx.objectStore('meta').put({ lastBackupAt: now, changes: 0, firstChangeAt: null } satisfies BackupState, BACKUP_KEY);
  await tx.done;
  const sourceRecords = rechecks.flatMap((r: StoredRecheck) => (r.record ? [r.record] : []));
  return { claims: claimsOfPages(pages), models: models.map(({ key: _key, ...record }) => record), sources, sourceRecords };
}

/** What the store remembers about backups. */
export async function getBackupState(db: RecipeDatabase): Promise<BackupState> {
  return backupState(await db.get('meta', BACKUP_KEY));
}

/** Counts `count` changed records towards the backup reminder. */
export async function noteChanges(db: RecipeDatabase, count: number, now: string): Promise<void> {
  if (count <= 0) return;
  const tx = db.transaction('meta', 'readwrite');
  const state = backupState(await tx.store.get(BACKUP_KEY));
  await tx.store.put(withChanges(state, count, now), BACKUP_KEY);
  await tx.done;
}
