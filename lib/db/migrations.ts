/**
 * Versioned upgrade path of the database. Each entry upgrades from the
 * version before it; `openRecipeDb` runs every entry above the stored version
 * inside the one `versionchange` transaction, so a migration that throws
 * aborts the upgrade and leaves the old version and its records intact.
 */
import type { IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { ClaimRecord } from '../schema';
import { groupPages, PAGES } from './pages';
import type { RecipeDb } from './schema';

// Migrations address stores that may not exist at the newest version, so they use the untyped API.
type AnyDb = IDBPDatabase<unknown>;
type AnyTx = IDBPTransaction<unknown, string[], 'versionchange'>;

/** One step of the upgrade path. */
export interface Migration {
  version: number;
  description: string;
  run(db: AnyDb, tx: AnyTx): Promise<void> | void;
}

/** Every schema version, oldest first; the last one is the current version. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'claims store keyed by id, indexed by page URL and model',
    run(db) {
      const claims = db.createObjectStore('claims', { keyPath: 'id' });
      claims.createIndex('by-url', 'source.url');
      claims.createIndex('by-model', 'model');
    },
  },
  {
    version: 2,
    description: 'claims by updated time; model records, source corrections and meta stores',
    async run(db, tx) {
      const claims = tx.objectStore('claims');
      claims.createIndex('by-updated', 'updated_at');
      const models = db.createObjectStore('models', { keyPath: 'key' });
      models.createIndex('by-updated', 'updated_at');
      db.createObjectStore('sources', { keyPath: 'url' });
      db.createObjectStore('meta');
      // Version 1 stored no updated_at on claims captured before it existed: give them their created_at.
      let cursor = await claims.openCursor();
      while (cursor) {
        const value = cursor.value as { updated_at?: string; created_at?: string };
        if (!value.updated_at && value.created_at) await cursor.update({ ...value, updated_at: value.created_at });
        cursor = await cursor.continue();
      }
    },
  },
  {
    version: 3,
    description: 'claims on PDFs by document fingerprint and by arXiv id',
    run(_db, tx) {
      // Claims without a `pdf` field (every claim on an HTML page) are simply left out of these indexes.
      const claims = tx.objectStore('claims');
      claims.createIndex('by-fingerprint', 'pdf.fingerprint');
      claims.createIndex('by-arxiv', 'pdf.arxiv');
    },
  },
  {
    version: 4,
    description: "the claim finder's dismissed candidates, per page URL",
    run(db) {
      // Keyed by page and candidate key: dismissing the same candidate twice keeps one entry.
      const dismissals = db.createObjectStore('dismissals', { keyPath: ['url', 'key'] });
      dismissals.createIndex('by-url', 'url');
    },
  },
  {
    version: 5,
    description: 'tombstones of deleted claims by deletion time; the dataset versions each record last synced with',
    run(db, tx) {
      // Only tombstones carry `deleted_at`, so the index lists exactly them; no stored claim has one yet.
      tx.objectStore('claims').createIndex('by-deleted', 'deleted_at');
      db.createObjectStore('synced', { keyPath: 'ref' });
    },
  },
  {
    version: 6,
    description: 'no by-updated indexes: nothing reads them, and every write of a claim or model record paid for one',
    run(_db, tx) {
      // Dropping an index keeps every record; only the index's own entries go.
      tx.objectStore('claims').deleteIndex('by-updated');
      tx.objectStore('models').deleteIndex('by-updated');
    },
  },
  {
    version: 7,
    description:
      "a page's claims in one value (the pages store, by URL; claim ids, models, fingerprints and arXiv ids as multi-entry indexes) instead of one value per claim",
    async run(db, tx) {
      // The browser's cost of a put is per value: an import of 10,000 claims on 2,000 pages writes 2,000 values.
      const pages = db.createObjectStore(PAGES, { keyPath: 'url' });
      pages.createIndex('by-id', 'ids', { multiEntry: true });
      pages.createIndex('by-model', 'models', { multiEntry: true });
      pages.createIndex('by-fingerprint', 'fingerprints', { multiEntry: true });
      pages.createIndex('by-arxiv', 'arxiv', { multiEntry: true });
      const claims = (await tx.objectStore('claims').getAll()) as ClaimRecord[];
      await Promise.all(groupPages(claims).map((page) => pages.put(page)));
      db.deleteObjectStore('claims');
    },
  },
  {
    version: 8,
    description: "rechecks of sources, by URL: the spec's source records and this store's findings (verdicts, new text, candidates)",
    run(db) {
      // New and empty: a store of version 7 has no recheck to carry over.
      db.createObjectStore('rechecks', { keyPath: 'url' });
    },
  },
];

/** The version `openRecipeDb` opens. */
export const DB_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Runs the migrations above `oldVersion`, up to `newVersion`, in order. */
export async function runMigrations(
  db: IDBPDatabase<RecipeDb>,
  tx: IDBPTransaction<RecipeDb, StoreNames<RecipeDb>[], 'versionchange'>,
  oldVersion: number,
  newVersion: number,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<void> {
  for (const migration of migrations) {
    if (migration.version > oldVersion && migration.version <= newVersion) {
      await migration.run(db as unknown as AnyDb, tx as unknown as AnyTx);
    }
  }
}
