/** Fresh Recipe Lens databases for unit tests (fake-indexeddb), each deleted after its test. */
import { deleteDB } from 'idb';
import { afterEach } from 'vitest';
import { openRecipeDb, type RecipeDatabase } from '../../lib/db';

/** Registers the clean-up and returns a function opening a new database named `<prefix>-<n>`. */
export function freshDatabases(prefix: string): () => Promise<RecipeDatabase> {
  let seq = 0;
  const open: RecipeDatabase[] = [];
  afterEach(async () => {
    for (const db of open.splice(0)) {
      db.close();
      await deleteDB(db.name);
    }
  });
  return async () => {
    const db = await openRecipeDb({ name: `${prefix}-${++seq}` });
    open.push(db);
    return db;
  };
}
