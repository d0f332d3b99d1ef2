/**
 * Claim queries and writes. Every write is one transaction.
 *
 * A deleted claim stays in the store as a tombstone (`deleted_at` set) so that
 * a pull or an import never brings it back; every query here but
 * `allClaimsWithTombstones` leaves tombstones out, so the page, the panel and
 * the exports never see them.
 */
import { isTombstone, withoutTombstones } from '../survey/tombstones';
import { modelKey, type ClaimRecord, type ModelRecord } from '../schema';
import { nowTimestamp } from '../time';
import type { RecipeDatabase } from './open';

/** Claims captured on one page (its normalised URL). */
export async function claimsForUrl(db: RecipeDatabase, url: string): Promise<ClaimRecord[]> {
  return withoutTombstones(await db.getAllFromIndex('claims', 'by-url', url));
}

/** How many claims a page has (tombstones read as keys only). */
export async function countClaimsForUrl(db: RecipeDatabase, url: string): Promise<number> {
  const tx = db.transaction('claims');
  const [keys, tombstones] = await Promise.all([tx.store.index('by-url').getAllKeys(url), tombstoneIds(tx.store)]);
  await tx.done;
  return keys.filter((id) => !tombstones.has(id)).length;
}

/** The ids of the tombstones, from the `by-deleted` index (which holds only them). */
async function tombstoneIds(store: { index(name: 'by-deleted'): { getAllKeys(): Promise<string[]> } }): Promise<Set<string>> {
  return new Set(await store.index('by-deleted').getAllKeys());
}

/** Every claim, tombstones left out. */
export async function allClaims(db: RecipeDatabase): Promise<ClaimRecord[]> {
  return withoutTombstones(await db.getAll('claims'));
}

/** Every claim, tombstones included (what a dataset and a backup hold). */
export async function allClaimsWithTombstones(db: RecipeDatabase): Promise<ClaimRecord[]> {
  return db.getAll('claims');
}

/** The claims with these ids (missing ids and tombstones are left out). */
export async function getClaims(db: RecipeDatabase, ids: readonly string[]): Promise<ClaimRecord[]> {
  const tx = db.transaction('claims');
  const found = await Promise.all(ids.map((id) => tx.store.get(id)));
  await tx.done;
  return found.filter((c): c is ClaimRecord => c !== undefined && !isTombstone(c));
}

/**
 * Stores claims as given, in one transaction: all or none. Saving the same
 * id again overwrites it, so a retried save never makes a duplicate.
 */
export async function putClaims(db: RecipeDatabase, claims: readonly ClaimRecord[]): Promise<void> {
  const tx = db.transaction('claims', 'readwrite');
  await Promise.all([...claims.map((c) => tx.store.put(c)), tx.done]);
}

/**
 * Deletes claims by id in one transaction: each becomes a tombstone
 * (`deleted_at` and `updated_at` set to `now`, its other fields as they were).
 * Returns the claims as they were before (for undo: `putClaims` puts them
 * back); ids unknown or already deleted are left out.
 */
export async function deleteClaims(db: RecipeDatabase, ids: readonly string[], now: string = nowTimestamp()): Promise<ClaimRecord[]> {
  const tx = db.transaction('claims', 'readwrite');
  const deleted: ClaimRecord[] = [];
  for (const id of ids) {
    const existing = await tx.store.get(id);
    if (existing && !isTombstone(existing)) {
      deleted.push(existing);
      await tx.store.put({ ...existing, updated_at: now, deleted_at: now });
    }
  }
  await tx.done;
  return deleted;
}

/** Distinct model names in the store, most used first (for completion); tombstones do not count. */
export async function modelNames(db: RecipeDatabase): Promise<string[]> {
  const counts = new Map<string, number>();
  const store = db.transaction('claims').store;
  const tombstones = await tombstoneIds(store);
  let cursor = await store.index('by-model').openKeyCursor();
  while (cursor) {
    if (!tombstones.has(cursor.primaryKey)) counts.set(cursor.key, (counts.get(cursor.key) ?? 0) + 1);
    cursor = await cursor.continue();
  }
  const models = await db.getAllKeys('models');
  for (const key of models) {
    const name = key.split('\u0000')[0]!;
    if (!counts.has(name)) counts.set(name, 0);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name]) => name);
}

/** Stores a model record under its (model, recipe) key. */
export async function putModel(db: RecipeDatabase, record: ModelRecord): Promise<void> {
  await db.put('models', { ...record, key: modelKey(record.model, record.recipe) });
}

/** The claims and model records of the first `count` models in model order (one key cursor over the claims by model); tombstones left out. */
export async function surveyHead(db: RecipeDatabase, count: number): Promise<{ claims: ClaimRecord[]; models: ModelRecord[] }> {
  const tx = db.transaction(['claims', 'models']);
  const tombstones = await tombstoneIds(tx.objectStore('claims'));
  const names: string[] = [];
  let cursor = await tx.objectStore('claims').index('by-model').openKeyCursor();
  while (cursor && names.length < count) {
    // A model whose claims are all tombstones has no row; skip to the next model once one live claim is seen.
    if (!tombstones.has(cursor.primaryKey)) {
      names.push(cursor.key);
      cursor = await cursor.continue(`${cursor.key}\u0000`);
    } else cursor = await cursor.continue();
  }
  if (!names.length) {
    const models = (await tx.objectStore('models').getAll(null, count)).map(({ key: _key, ...record }) => record);
    return { claims: [], models };
  }
  const range = IDBKeyRange.bound(names[0]!, names[names.length - 1]!);
  const [claims, models] = await Promise.all([
    tx.objectStore('claims').index('by-model').getAll(range),
    tx.objectStore('models').getAll(IDBKeyRange.bound(names[0]!, `${names[names.length - 1]!}\uffff`)),
  ]);
  return { claims: withoutTombstones(claims), models: models.filter((m) => names.includes(m.model)).map(({ key: _key, ...record }) => record) };
}
