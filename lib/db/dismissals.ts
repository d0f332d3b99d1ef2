/** The claim finder's dismissed candidates, kept per page so that a dismissed one never returns there. */
import type { RecipeDatabase } from './open';
import type { StoredDismissal } from './schema';

/** The keys of the candidates dismissed on a page. */
export async function dismissedKeys(db: RecipeDatabase, url: string): Promise<string[]> {
  const stored = await db.getAllFromIndex('dismissals', 'by-url', url);
  return stored.map((d) => d.key).sort();
}

/** Remembers a dismissed candidate (dismissing it again only refreshes its time). */
export async function putDismissal(db: RecipeDatabase, dismissal: StoredDismissal): Promise<void> {
  await db.put('dismissals', dismissal);
}
