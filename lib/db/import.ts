/** Storing imported survey records: all or nothing, newer `updated_at` wins. */
import { CLAIM_SCHEMA, modelKey, type ClaimRecord, type ModelRecord, type SurveyRecord } from '../schema';
import type { RecipeDatabase } from './open';

/** What an import did. */
export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
}

/**
 * Writes records in one transaction. A record whose id (claims) or
 * (model, recipe) (model records) is already stored replaces it only when its
 * `updated_at` is newer. Any failure aborts the whole transaction.
 */
export async function importRecords(db: RecipeDatabase, records: readonly SurveyRecord[]): Promise<ImportCounts> {
  const counts: ImportCounts = { added: 0, updated: 0, unchanged: 0 };
  const tx = db.transaction(['claims', 'models'], 'readwrite');
  const claims = tx.objectStore('claims');
  const models = tx.objectStore('models');
  // An aborted transaction rejects `done`; the error reaches the caller through the catch below.
  tx.done.catch(() => undefined);
  try {
    for (const record of records) {
      if (record.schema === CLAIM_SCHEMA) {
        const claim = record as ClaimRecord;
        const existing = await claims.get(claim.id);
        if (!existing) counts.added += 1;
        else if (isNewer(claim.updated_at, existing.updated_at)) counts.updated += 1;
        else {
          counts.unchanged += 1;
          continue;
        }
        await claims.put(claim);
      } else {
        const model = record as ModelRecord;
        const key = modelKey(model.model, model.recipe);
        const existing = await models.get(key);
        if (!existing) counts.added += 1;
        else if (isNewer(model.updated_at, existing.updated_at)) counts.updated += 1;
        else {
          counts.unchanged += 1;
          continue;
        }
        await models.put({ ...model, key });
      }
    }
    await tx.done;
  } catch (error) {
    try {
      tx.abort();
    } catch {
      // the transaction already ended
    }
    throw error;
  }
  return counts;
}

/** True when timestamp `a` is later than `b` (RFC 3339, with or without fractions). */
export function isNewer(a: string, b: string): boolean {
  return Date.parse(a) > Date.parse(b);
}
