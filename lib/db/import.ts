/** Storing imported survey records: all or nothing, newer `updated_at` wins. */
import { CLAIM_SCHEMA, modelKey, type ClaimRecord, type SurveyRecord } from '../schema';
import type { RecipeDatabase } from './open';
import { writeRecords } from './transfer';

/** What an import did. */
export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
}

/** A record's key in its store, with its kind: a claim id and a model key never meet. */
function identity(record: SurveyRecord): string {
  return record.schema === CLAIM_SCHEMA ? `c\u0000${(record as ClaimRecord).id}` : `m\u0000${modelKey(record.model, record.recipe)}`;
}

/**
 * Writes records in one transaction. A record whose id (claims) or
 * (model, recipe) (model records) is already stored replaces it only when its
 * `updated_at` is newer; of two in `records` with one identity, the later one
 * wins the same way. The stored versions are read with the store's keys first
 * (no request per record). Any failure aborts the whole transaction.
 */
export async function importRecords(db: RecipeDatabase, records: readonly SurveyRecord[]): Promise<ImportCounts> {
  return writeRecords(db, records, (stored) => {
    const counts: ImportCounts = { added: 0, updated: 0, unchanged: 0 };
    const latest = new Map<string, SurveyRecord>(stored.map((r) => [identity(r), r]));
    const writes = new Map<string, SurveyRecord>();
    for (const record of records) {
      const key = identity(record);
      const existing = latest.get(key);
      if (!existing) counts.added += 1;
      else if (isNewer(record.updated_at, existing.updated_at)) counts.updated += 1;
      else {
        counts.unchanged += 1;
        continue;
      }
      latest.set(key, record);
      writes.set(key, record);
    }
    return { writes: [...writes.values()], result: counts };
  });
}

/** True when timestamp `a` is later than `b` (RFC 3339, with or without fractions). */
export function isNewer(a: string, b: string): boolean {
  return Date.parse(a) > Date.parse(b);
}
