/** How far the store is from the dataset: its local changes not yet published. Pure. */
import { isTombstone } from '../survey/tombstones';
import { CLAIM_SCHEMA, type ClaimRecord, type SurveyRecord } from '../schema';
import { recordHash, recordRef } from './hash';
import type { Bases } from './publish';

/** The local records changed since they were last synced (a claim deleted before it was ever published does not count). */
export function localChanges(local: readonly SurveyRecord[], bases: Bases): SurveyRecord[] {
  return local.filter((r) => {
    const base = bases.get(recordRef(r));
    if (base === undefined) return !(r.schema === CLAIM_SCHEMA && isTombstone(r as ClaimRecord));
    return base !== recordHash(r);
  });
}
