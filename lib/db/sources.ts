/** Source corrections: a curator fixes a page's metadata once and every claim on it follows. */
import { isTombstone } from '../survey/tombstones';
import type { SourceOverride } from '../schema';
import type { RecipeDatabase } from './open';
import type { StoredSource } from './schema';

/** The stored correction for a page, if the curator made one. */
export async function getSource(db: RecipeDatabase, url: string): Promise<StoredSource | undefined> {
  return db.get('sources', url);
}

/**
 * Stores a correction and rewrites the `source` of every claim on that page
 * (keeping each claim's own `accessed` date), in one transaction. Tombstones
 * stay as they were deleted.
 * Returns how many claims were updated.
 */
export async function putSource(db: RecipeDatabase, source: SourceOverride, now: string): Promise<number> {
  const tx = db.transaction(['sources', 'claims'], 'readwrite');
  await tx.objectStore('sources').put({ ...source, updated_at: now });
  const claims = tx.objectStore('claims');
  let updated = 0;
  let cursor = await claims.index('by-url').openCursor(source.url);
  while (cursor) {
    const claim = cursor.value;
    if (isTombstone(claim)) {
      cursor = await cursor.continue();
      continue;
    }
    await cursor.update({ ...claim, source: { ...claim.source, ...source, accessed: claim.source.accessed }, updated_at: now });
    updated += 1;
    cursor = await cursor.continue();
  }
  await tx.done;
  return updated;
}
