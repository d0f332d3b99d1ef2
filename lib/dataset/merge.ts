/**
 * Merging versions of records by identity (`shared/spec/survey-records.md`,
 * "Merging two versions of a record"). Pure.
 *
 * - Two versions (`mergeRecordSets`): the later `updated_at` wins; a tombstone
 *   is an ordinary version; two different versions with the same `updated_at`
 *   are a conflict. Order-free and idempotent (it is `mergeFiles` with
 *   `prefer: 'newer'`).
 * - Three versions (`mergeThreeWay`), when the version both sides started
 *   from is known (git's merge base): a side that did not change a record
 *   takes the other side's version whatever its time (an undo that put back
 *   an older version is a change like any other); when both changed it, the
 *   two-version rule decides. Symmetric in the two sides.
 * - `mergeRecordsText` does the same for the text of one records file, for
 *   git's merge (`mergeDriver`): never line by line.
 */
import { mergeFiles, type RecordConflict } from '../import/merge';
import type { SurveyRecord } from '../schema';
import { recordHash, recordRef } from './hash';
import { fileText } from './layout';
import { parseSurveyJsonl } from '../import/jsonl';

/** The result of a merge: one version per record (export order), and the ties a person must settle. */
export interface RecordsMerge {
  records: SurveyRecord[];
  conflicts: RecordConflict[];
}

/** Merges record sets by identity: newer wins, ties are conflicts (the kept version is the same whatever the order). */
export function mergeRecordSets(...sets: ReadonlyArray<readonly SurveyRecord[]>): RecordsMerge {
  return mergeFiles(sets, { prefer: 'newer' });
}

function byRef(records: readonly SurveyRecord[]): Map<string, SurveyRecord> {
  // Should a set hold a record twice, its newest version stands for it.
  const out = new Map<string, SurveyRecord>();
  for (const r of mergeRecordSets(records).records) out.set(recordRef(r), r);
  return out;
}

/** Merges two sides that both started from `base`, by identity. */
export function mergeThreeWay(base: readonly SurveyRecord[], ours: readonly SurveyRecord[], theirs: readonly SurveyRecord[]): RecordsMerge {
  const b = byRef(base);
  const o = byRef(ours);
  const t = byRef(theirs);
  const kept: SurveyRecord[] = [];
  const conflicts: RecordConflict[] = [];
  const refs = new Set([...o.keys(), ...t.keys()]);
  for (const ref of refs) {
    const was = b.get(ref);
    const mine = o.get(ref);
    const their = t.get(ref);
    const wasHash = was ? recordHash(was) : null;
    const mineChanged = !mine || !was || recordHash(mine) !== wasHash;
    const theirChanged = !their || !was || recordHash(their) !== wasHash;
    if (!mine) {
      // Gone from our side: it moved to another file (its model changed) or was never here. Keep theirs unless they left it as it was.
      if (their && theirChanged) kept.push(their);
      continue;
    }
    if (!their) {
      if (mineChanged) kept.push(mine);
      continue;
    }
    if (!theirChanged) kept.push(mine);
    else if (!mineChanged) kept.push(their);
    else {
      const merged = mergeRecordSets([mine], [their]);
      kept.push(...merged.records);
      conflicts.push(...merged.conflicts);
    }
  }
  const result = mergeRecordSets(kept);
  return { records: result.records, conflicts };
}

/** A records file that cannot be read while merging. */
export class UnreadableRecordsError extends Error {}

function parseAll(text: string, side: string): SurveyRecord[] {
  const parsed = parseSurveyJsonl(text);
  if (parsed.errors.length) {
    const e = parsed.errors[0]!;
    throw new UnreadableRecordsError(`${side} version, line ${e.line}: ${e.message}`);
  }
  return parsed.records;
}

/**
 * Merges three versions of one records file's text by identity and writes the
 * result in export order. A file any side cannot read is an error (nothing is
 * guessed); ties come back as conflicts.
 */
export function mergeRecordsText(base: string, ours: string, theirs: string): { text: string; conflicts: RecordConflict[] } {
  const merged = mergeThreeWay(parseAll(base, 'base'), parseAll(ours, 'our'), parseAll(theirs, 'their'));
  return { text: fileText(merged.records), conflicts: merged.conflicts };
}
