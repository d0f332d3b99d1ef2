/** The database, for the background only: opening, migrations and queries. */
export * from './open';
export * from './claims';
export * from './sources';
export * from './import';
export * from './transfer';
export * from './pdf';
export * from './settings';
export * from './dismissals';
export * from './sync';
export * from './rechecks';
export * from './page-writes';
export { DB_NAME } from './schema';
export type { RecipeDb, StoredBase, StoredDismissal, StoredModel, StoredRecheck, StoredSource } from './schema';
export { DB_VERSION, MIGRATIONS } from './migrations';
export * from './address-review';
export * from './write-count';
