/**
 * The spec's `source` records inside an open transaction on the `rechecks` store (raw, unwrapped): merged in by
 * `updated_at` (an import, a pull, `putSourceRecords`) or replacing every one (a restore). The findings of this
 * store's own rechecks, kept beside them, are never touched.
 */
import type { SourceRecord } from '../schema';
import { request } from './pages';
import type { StoredRecheck } from './schema';

/**
 * Puts `incoming` into the raw `rechecks` store: each URL keeps the later `updated_at` of its stored and incoming
 * record (the incoming one on a tie, as settled by whoever brought it). Returns how many records changed.
 */
export async function mergeSourceRecordsInto(store: IDBObjectStore, incoming: readonly SourceRecord[]): Promise<number> {
  let changed = 0;
  for (const record of incoming) {
    const stored = (await request(store.get(record.url))) as StoredRecheck | undefined;
    if (stored?.record && stored.record.updated_at > record.updated_at) continue;
    if (stored?.record && JSON.stringify(stored.record) === JSON.stringify(record)) continue;
    store.put({ url: record.url, record, findings: stored?.findings ?? null } satisfies StoredRecheck);
    changed++;
  }
  return changed;
}

/** Makes `records` the only source records of the raw `rechecks` store (a restore); each URL's findings stay. */
export async function replaceSourceRecordsIn(store: IDBObjectStore, records: readonly SourceRecord[]): Promise<void> {
  const incoming = new Map(records.map((r) => [r.url, r]));
  const stored = (await request(store.getAll())) as StoredRecheck[];
  for (const kept of stored) {
    if (incoming.has(kept.url)) continue;
    if (kept.findings) store.put({ ...kept, record: null } satisfies StoredRecheck);
    else store.delete(kept.url);
  }
  const byUrl = new Map(stored.map((s) => [s.url, s]));
  for (const [url, record] of incoming) store.put({ url, record, findings: byUrl.get(url)?.findings ?? null } satisfies StoredRecheck);
}
