/** Source corrections: a curator fixes a page's metadata once and every claim on it follows. */
import { isTombstone } from '../survey/tombstones';
import type { SourceOverride } from '../schema';
import type { RecipeDatabase } from './open';
import { PageGroups } from './pages';
import { writeTransaction } from './transfer';
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
  return writeTransaction(db, ['sources', 'pages'], async (tx) => {
    tx.objectStore('sources').put({ ...source, updated_at: now });
    const pages = new PageGroups(tx.objectStore('pages'));
    await pages.load([], [source.url]);
    const live = pages.claimsAt(source.url).filter((claim) => !isTombstone(claim));
    await pages.put(live.map((claim) => ({ ...claim, source: { ...claim.source, ...source, accessed: claim.source.accessed }, updated_at: now })));
    pages.flush();
    return live.length;
  });
}
