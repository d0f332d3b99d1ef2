/**
 * Claim queries and writes. Every write is one transaction; the claims live
 * a page to a value (`./pages`), so a write of one claim reads and rewrites
 * its page's value inside the transaction.
 *
 * A deleted claim stays in the store as a tombstone (`deleted_at` set) so that
 * a pull or an import never brings it back; every query here but
 * `allClaimsWithTombstones` leaves tombstones out, so the page, the panel and
 * the exports never see them.
 */
import { isTombstone, withoutTombstones } from '../survey/tombstones';
import { modelKey, type ClaimRecord, type ModelRecord, type SourceRecord } from '../schema';
import { nowTimestamp } from '../time';
import type { RecipeDatabase } from './open';
import { claimsOfPages, PageGroups } from './pages';
import { writeTransaction } from './transfer';

/** Claims captured on one page (its normalised URL): one read by key. */
export async function claimsForUrl(db: RecipeDatabase, url: string): Promise<ClaimRecord[]> {
  return withoutTombstones((await db.get('pages', url))?.claims ?? []);
}

/** How many claims a page has, tombstones left out. */
export async function countClaimsForUrl(db: RecipeDatabase, url: string): Promise<number> {
  return (await claimsForUrl(db, url)).length;
}

/** Every claim, tombstones left out, sorted by id. */
export async function allClaims(db: RecipeDatabase): Promise<ClaimRecord[]> {
  return withoutTombstones(await allClaimsWithTombstones(db));
}

/** Every claim, tombstones included (what a dataset and a backup hold), sorted by id. */
export async function allClaimsWithTombstones(db: RecipeDatabase): Promise<ClaimRecord[]> {
  return claimsOfPages(await db.getAll('pages'));
}

/** The claims with these ids (missing ids and tombstones are left out). */
export async function getClaims(db: RecipeDatabase, ids: readonly string[]): Promise<ClaimRecord[]> {
  const tx = db.transaction('pages');
  const pages = await Promise.all(ids.map((id) => tx.store.index('by-id').get(id)));
  await tx.done;
  const found: ClaimRecord[] = [];
  ids.forEach((id, i) => {
    const claim = pages[i]?.claims.find((c) => c.id === id);
    if (claim && !isTombstone(claim)) found.push(claim);
  });
  return found;
}

/**
 * Stores claims as given, in one transaction: all or none. Saving the same
 * id again overwrites it (moving it to another page when its URL changed), so
 * a retried save never makes a duplicate.
 */
export async function putClaims(db: RecipeDatabase, claims: readonly ClaimRecord[]): Promise<void> {
  await writeTransaction(db, ['pages'], async (tx) => {
    const pages = new PageGroups(tx.objectStore('pages'));
    await pages.put(claims);
    pages.flush();
  });
}

/**
 * Deletes claims by id in one transaction: each becomes a tombstone
 * (`deleted_at` and `updated_at` set to `now`, its other fields as they were).
 * Returns the claims as they were before (for undo: `putClaims` puts them
 * back); ids unknown or already deleted are left out.
 */
export async function deleteClaims(db: RecipeDatabase, ids: readonly string[], now: string = nowTimestamp()): Promise<ClaimRecord[]> {
  return writeTransaction(db, ['pages'], async (tx) => {
    const pages = new PageGroups(tx.objectStore('pages'));
    await pages.load(ids);
    const deleted: ClaimRecord[] = [];
    for (const id of new Set(ids)) {
      const existing = pages.claim(id);
      if (existing && !isTombstone(existing)) deleted.push(existing);
    }
    await pages.put(deleted.map((claim) => ({ ...claim, updated_at: now, deleted_at: now })));
    pages.flush();
    return deleted;
  });
}

/** Distinct model names in the store, most used first (for completion); tombstones do not count. */
export async function modelNames(db: RecipeDatabase): Promise<string[]> {
  const counts = new Map<string, number>();
  const tx = db.transaction(['pages', 'models']);
  const [pages, models] = await Promise.all([tx.objectStore('pages').getAll(), tx.objectStore('models').getAllKeys()]);
  await tx.done;
  for (const page of pages) for (const claim of page.claims) if (!isTombstone(claim)) counts.set(claim.model, (counts.get(claim.model) ?? 0) + 1);
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

/** The stores `surveyHead` reads. */
export const SURVEY_HEAD_STORES = ['pages', 'models', 'rechecks'] as const;

/**
 * The claims and model records of the first `count` models in model order
 * (one key cursor over the pages by model: the index lists the models of
 * live claims only); tombstones left out. Claims come by model, then id;
 * with them, the source records of their pages (their "as of" days).
 */
export async function surveyHead(db: RecipeDatabase, count: number): Promise<{ claims: ClaimRecord[]; models: ModelRecord[]; sources: SourceRecord[] }> {
  const tx = db.transaction(SURVEY_HEAD_STORES);
  const index = tx.objectStore('pages').index('by-model');
  const names: string[] = [];
  // One entry per model ('nextunique'), each the next without a key: the browser reads ahead of a cursor moved so.
  let cursor = await index.openKeyCursor(null, 'nextunique');
  while (cursor && names.length < count) {
    names.push(cursor.key);
    cursor = await cursor.continue();
  }
  if (!names.length) {
    const models = (await tx.objectStore('models').getAll(null, count)).map(({ key: _key, ...record }) => record);
    return { claims: [], models, sources: [] };
  }
  const [pages, models] = await Promise.all([
    index.getAll(IDBKeyRange.bound(names[0]!, names[names.length - 1]!)),
    tx.objectStore('models').getAll(IDBKeyRange.bound(names[0]!, `${names[names.length - 1]!}\uffff`)),
  ]);
  const wanted = new Set(names);
  const seen = new Set<string>();
  const cited: string[] = [];
  const claims: ClaimRecord[] = [];
  for (const page of pages) {
    if (seen.has(page.url)) continue;
    seen.add(page.url);
    const before = claims.length;
    for (const claim of page.claims) if (wanted.has(claim.model) && !isTombstone(claim)) claims.push(claim);
    if (claims.length > before) cited.push(page.url);
  }
  const rechecks = tx.objectStore('rechecks');
  const sources = (await Promise.all(cited.map((url) => rechecks.get(url)))).flatMap((r) => (r?.record ? [r.record] : []));
  claims.sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { claims, models: models.filter((m) => wanted.has(m.model)).map(({ key: _key, ...record }) => record), sources };
}
