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
  const writes: Array<Promise<unknown>> = [];
  try {
    // Every read is issued at once, then every write: IndexedDB pipelines requests within a transaction,
    // so 10,000 records cost two round trips rather than 20,000.
    const keys = records.map((r) => (r.schema === CLAIM_SCHEMA ? (r as ClaimRecord).id : modelKey(r.model, r.recipe)));
    const stored = await Promise.all(
      records.map((r, i) => {
        const read = r.schema === CLAIM_SCHEMA ? claims.get(keys[i]!) : models.get(keys[i]!);
        writes.push(read);
        return read;
      }),
    );
    const latest = new Map<string, { updated_at: string }>();
    records.forEach((record, i) => {
      const key = `${record.schema}\u0000${keys[i]!}`;
      const existing = latest.get(key) ?? stored[i];
      if (!existing) counts.added += 1;
      else if (isNewer(record.updated_at, existing.updated_at)) counts.updated += 1;
      else {
        counts.unchanged += 1;
        return;
      }
      latest.set(key, record);
      writes.push(record.schema === CLAIM_SCHEMA ? claims.put(record as ClaimRecord) : models.put({ ...(record as ModelRecord), key: keys[i]! }));
    });
    await Promise.all(writes);
    await tx.done;
  } catch (error) {
    // Requests still pending reject once the transaction aborts: they are part of this one failure.
    for (const w of writes) w.catch(() => undefined);
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
