/**
 * Who hears of writes to the pages store: the background keeps the claims index (`lib/claims-index`) from it. A
 * watcher runs after every committed transaction that could write the pages store, before that write's caller goes on,
 * so no page loads between a claim stored and its address indexed.
 */
import type { RecipeDatabase } from './open';

/**
 * Hears of a committed write of the pages store. `added`, when given, is all that write did to it: it put the pages at
 * these addresses and deleted none (a watcher may then add them to what it knew); absent, the write may have done
 * anything (a watcher reads the store).
 */
type Watcher = (db: RecipeDatabase, added?: readonly string[]) => Promise<void>;

const watchers = new WeakMap<object, Watcher>();

/** Calls `watcher` after every committed write transaction over the pages store of this connection. */
export function watchPageWrites(db: RecipeDatabase, watcher: Watcher): void {
  watchers.set(db, watcher);
}

/**
 * Runs the connection's watcher (after a committed transaction that wrote pages), with the addresses of the pages it
 * put when that is all it did; a failing watcher is reported, never thrown.
 */
export async function pagesWritten(db: RecipeDatabase, added?: readonly string[]): Promise<void> {
  const watcher = watchers.get(db);
  if (!watcher) return;
  try {
    await watcher(db, added);
  } catch (error) {
    console.warn('Recipe Lens: a watcher of page writes failed', error);
  }
}

/** Every address the pages store holds claims under (tombstones' pages too: an address in it only costs a lookup). */
export async function storedAddresses(db: RecipeDatabase): Promise<string[]> {
  return db.getAllKeys('pages');
}
