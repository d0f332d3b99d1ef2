/**
 * Tombstones (`deleted_at`, `shared/spec/survey-records.md`): a deleted
 * record kept so that a merge does not bring it back. Readers render nothing
 * for one. Pure. The field is read from the record as it is, so this works
 * whether or not the schema in use declares it.
 */

/** True when a record is a tombstone: it carries a `deleted_at` (any value but absent, null, empty or false). */
export function isTombstone(record: object): boolean {
  const deleted = (record as { deleted_at?: unknown }).deleted_at;
  return deleted !== undefined && deleted !== null && deleted !== '' && deleted !== false;
}

/** The records that are not tombstones, in their order. */
export function withoutTombstones<T extends object>(records: readonly T[]): T[] {
  return records.filter((r) => !isTombstone(r));
}
