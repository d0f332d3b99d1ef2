/**
 * What importing the spec's `source` records would do to the store's: each URL keeps the later `updated_at` of its
 * stored and incoming record, the incoming one on a tie (as `putSourceRecords` stores them). Pure: the preview's
 * counts; the background stores them.
 */
import type { SourceRecord } from '../schema';

/** How many incoming source records are new to the store, replace an older (or tying) one, or change nothing. */
export interface SourceRecordPlan {
  added: number;
  updated: number;
  unchanged: number;
}

/** Plans storing `incoming` (in file order) into a store holding `stored`. */
export function planSourceRecords(stored: readonly SourceRecord[], incoming: readonly SourceRecord[]): SourceRecordPlan {
  const held = new Map(stored.map((r) => [r.url, r]));
  const plan: SourceRecordPlan = { added: 0, updated: 0, unchanged: 0 };
  for (const record of incoming) {
    const before = held.get(record.url);
    if (before && (before.updated_at > record.updated_at || JSON.stringify(before) === JSON.stringify(record))) {
      plan.unchanged += 1;
      continue;
    }
    if (before) plan.updated += 1;
    else plan.added += 1;
    held.set(record.url, record);
  }
  return plan;
}
