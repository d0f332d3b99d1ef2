/** Claim queries and writes. Every write is one transaction. */
import { modelKey, type ClaimRecord, type ModelRecord } from '../schema';
import type { RecipeDatabase } from './open';

/** Claims captured on one page (its normalised URL). */
export async function claimsForUrl(db: RecipeDatabase, url: string): Promise<ClaimRecord[]> {
  return db.getAllFromIndex('claims', 'by-url', url);
}

/** How many claims a page has, without reading them. */
export async function countClaimsForUrl(db: RecipeDatabase, url: string): Promise<number> {
  return db.countFromIndex('claims', 'by-url', url);
}

/** Every claim. */
export async function allClaims(db: RecipeDatabase): Promise<ClaimRecord[]> {
  return db.getAll('claims');
}

/** The claims with these ids (missing ids are left out). */
export async function getClaims(db: RecipeDatabase, ids: readonly string[]): Promise<ClaimRecord[]> {
  const tx = db.transaction('claims');
  const found = await Promise.all(ids.map((id) => tx.store.get(id)));
  await tx.done;
  return found.filter((c): c is ClaimRecord => c !== undefined);
}

/**
 * Stores claims as given, in one transaction: all or none. Saving the same
 * id again overwrites it, so a retried save never makes a duplicate.
 */
export async function putClaims(db: RecipeDatabase, claims: readonly ClaimRecord[]): Promise<void> {
  const tx = db.transaction('claims', 'readwrite');
  await Promise.all([...claims.map((c) => tx.store.put(c)), tx.done]);
}

/** Deletes claims by id in one transaction and returns what was deleted (for undo). */
export async function deleteClaims(db: RecipeDatabase, ids: readonly string[]): Promise<ClaimRecord[]> {
  const tx = db.transaction('claims', 'readwrite');
  const deleted: ClaimRecord[] = [];
  for (const id of ids) {
    const existing = await tx.store.get(id);
    if (existing) {
      deleted.push(existing);
      await tx.store.delete(id);
    }
  }
  await tx.done;
  return deleted;
}

/** Distinct model names in the store, most used first (for completion). */
export async function modelNames(db: RecipeDatabase): Promise<string[]> {
  const counts = new Map<string, number>();
  let cursor = await db.transaction('claims').store.index('by-model').openKeyCursor();
  while (cursor) {
    counts.set(cursor.key, (counts.get(cursor.key) ?? 0) + 1);
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

/** The claims and model records of the first `count` models in model order (one cursor over distinct names). */
export async function surveyHead(db: RecipeDatabase, count: number): Promise<{ claims: ClaimRecord[]; models: ModelRecord[] }> {
  const tx = db.transaction(['claims', 'models']);
  const names: string[] = [];
  let cursor = await tx.objectStore('claims').index('by-model').openKeyCursor(null, 'nextunique');
  while (cursor && names.length < count) {
    names.push(cursor.key);
    cursor = await cursor.continue();
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
  return { claims, models: models.filter((m) => names.includes(m.model)).map(({ key: _key, ...record }) => record) };
}
