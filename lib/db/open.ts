/**
 * Opening the database: runs the upgrade path, closes this connection when a
 * newer version elsewhere needs it (`blocking`), and turns a failed migration
 * into an error that says what happened.
 */
import { openDB, type IDBPDatabase } from 'idb';
import { DB_NAME, type RecipeDb } from './schema';
import { DB_VERSION, MIGRATIONS, runMigrations, type Migration } from './migrations';

/** An open database connection. */
export type RecipeDatabase = IDBPDatabase<RecipeDb>;

/** Options for tests: another name, a shorter upgrade path. */
export interface OpenOptions {
  name?: string;
  migrations?: readonly Migration[];
  /** Called when this connection was closed so that a newer version can open. */
  onClosed?: () => void;
}

/** Opens (creating or upgrading) the Recipe Lens database. */
export async function openRecipeDb(options: OpenOptions = {}): Promise<RecipeDatabase> {
  const migrations = options.migrations ?? MIGRATIONS;
  const version = options.migrations ? migrations[migrations.length - 1]!.version : DB_VERSION;
  let migrationError: unknown = null;
  try {
    const db = await openDB<RecipeDb>(options.name ?? DB_NAME, version, {
      upgrade(db, oldVersion, newVersion, tx) {
        // A failed migration aborts this transaction; openDB's own rejection carries the error.
        tx.done.catch(() => undefined);
        runMigrations(db, tx, oldVersion, newVersion ?? version, migrations).catch((error: unknown) => {
          migrationError = error;
          try {
            tx.abort();
          } catch {
            // already finished or aborted
          }
        });
      },
      blocking() {
        // A newer version wants to open (another extension page after an update): let it.
        db.close();
        options.onClosed?.();
      },
    });
    return db;
  } catch (error) {
    if (migrationError) {
      const detail = migrationError instanceof Error ? migrationError.message : String(migrationError);
      throw new Error(`The database upgrade failed and was rolled back; your records are unchanged (${detail}).`);
    }
    throw error;
  }
}
