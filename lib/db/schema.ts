/**
 * The shape of the Recipe Lens IndexedDB database: its stores, keys and
 * indexes at the newest version. Only the background imports `lib/db`.
 */
import type { DBSchema } from 'idb';
import type { StoredRecheck } from '../recheck/stored';
import type { ClaimRecord, ModelRecord, SourceCorrection } from '../schema';

export type { StoredRecheck };

/** Database name in the extension's origin. */
export const DB_NAME = 'recipe-lens';

/** A source correction stored once per normalised page URL. */
export type StoredSource = SourceCorrection;

/**
 * A page's claims in one value (version 7 on), keyed by the page's URL
 * (`source.url` of each claim in it). The arrays beside the claims are what
 * the multi-entry indexes read: every claim id (tombstones included), and the
 * models, PDF fingerprints and arXiv ids of the live claims.
 */
export interface StoredPage {
  url: string;
  /** The page's claims, tombstones included, sorted by id. */
  claims: ClaimRecord[];
  ids: string[];
  models: string[];
  fingerprints: string[];
  arxiv: string[];
}

/** A model record keyed by `modelKey(model, recipe)`. */
export interface StoredModel extends ModelRecord {
  key: string;
}

/** A finder candidate the curator dismissed on a page: never offered there again. */
export interface StoredDismissal {
  /** Normalised page URL (or the PDF's address). */
  url: string;
  /** The candidate's key (`sentenceKey` of its sentence). */
  key: string;
  /** The sentence as it was dismissed, so a person can read what was turned down. */
  sentence: string;
  dismissed_at: string;
}

/**
 * The dataset version of a record this store last agreed with (pulled, or
 * published to the dataset's branch): `recordRef` of the record and
 * `recordHash` of that version. A stored record whose hash differs is a local
 * change not yet published; see `lib/dataset`.
 */
export interface StoredBase {
  ref: string;
  hash: string;
}

/** Newest database schema, for idb's typed API. */
export interface RecipeDb extends DBSchema {
  pages: {
    key: string;
    value: StoredPage;
    indexes: { 'by-id': string; 'by-model': string; 'by-fingerprint': string; 'by-arxiv': string };
  };
  models: {
    key: string;
    value: StoredModel;
  };
  sources: {
    key: string;
    value: StoredSource;
  };
  meta: {
    key: string;
    value: unknown;
  };
  dismissals: {
    key: [string, string];
    value: StoredDismissal;
    indexes: { 'by-url': string };
  };
  synced: {
    key: string;
    value: StoredBase;
  };
  rechecks: {
    key: string;
    value: StoredRecheck;
  };
}
