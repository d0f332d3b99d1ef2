// Merging record sets by identity: newer wins, ties are conflicts, order-free, idempotent, tombstones respected.
import { describe, expect, it } from 'vitest';
import { fileText, mergeRecordSets, mergeRecordsText, mergeThreeWay, recordHash, UnreadableRecordsError } from '../../../lib/dataset';
import { serializeRecord } from '../../../lib/export';
import type { ClaimRecord, SurveyRecord } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';

const at = (minute: number) => `2026-12-01T10:${String(minute).padStart(2, '0')}:00Z`;
const v = (id: string, minute: number, value = `v${minute}`, extra: Partial<ClaimRecord> = {}) =>
  claim({ id, value, updated_at: at(minute), ...extra }) as SurveyRecord;
const tomb = (id: string, minute: number) => claim({ id, updated_at: at(minute), deleted_at: at(minute) }) as SurveyRecord;
const lines = (records: readonly SurveyRecord[]) => records.map(serializeRecord);

/** A seeded pseudo-random generator (LCG) for the property tests. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function shuffle<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Random versions of a few records: edits at random minutes, some tombstones, some ties, and model records. */
function randomSets(seed: number): SurveyRecord[][] {
  const next = rng(seed);
  const ids = ['clm_prop000001', 'clm_prop000002', 'clm_prop000003', 'clm_prop000004'];
  const sets: SurveyRecord[][] = [[], [], []];
  for (const set of sets) {
    for (const id of ids) {
      if (next() < 0.3) continue;
      const minute = Math.floor(next() * 5);
      set.push(next() < 0.25 ? tomb(id, minute) : v(id, minute, `value ${Math.floor(next() * 3)}`));
    }
    if (next() < 0.5) set.push(model({ vendor: `vendor ${Math.floor(next() * 2)}`, updated_at: at(Math.floor(next() * 3)) }));
  }
  return sets;
}

describe('merging two versions of a record', () => {
  it('keeps the later updated_at, a tombstone like any other version', () => {
    const merged = mergeRecordSets([v('clm_a0000001', 1), tomb('clm_b0000001', 5)], [v('clm_a0000001', 2), v('clm_b0000001', 3)]);
    expect(lines(merged.records)).toEqual(lines([v('clm_a0000001', 2), tomb('clm_b0000001', 5)]));
    expect(merged.conflicts).toEqual([]);
  });

  it('reports two different versions with the same updated_at as a conflict, keeping the same one whatever the order', () => {
    const a = v('clm_a0000001', 1, 'GRPO');
    const b = v('clm_a0000001', 1, 'PPO');
    const one = mergeRecordSets([a], [b]);
    const two = mergeRecordSets([b], [a]);
    expect(one.conflicts).toHaveLength(1);
    expect(one.conflicts[0]!.diffs.map((d) => d.field)).toEqual(['value']);
    expect(lines(one.records)).toEqual(lines(two.records));
  });

  it('is order-free and idempotent (property, 300 seeds)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const sets = randomSets(seed);
      const want = mergeRecordSets(...sets);
      const next = rng(seed * 7);
      const reordered = mergeRecordSets(...shuffle(sets, next).map((s) => shuffle(s, next)));
      expect(lines(reordered.records), `seed ${seed}`).toEqual(lines(want.records));
      expect(reordered.conflicts.length, `seed ${seed}`).toBe(want.conflicts.length);
      expect(lines(mergeRecordSets(want.records, ...sets).records), `seed ${seed}`).toEqual(lines(want.records));
      expect(lines(mergeRecordSets(want.records, want.records).records)).toEqual(lines(want.records));
    }
  });
});

describe('merging two sides from a common base', () => {
  const base = [v('clm_a0000001', 1), v('clm_b0000001', 1), v('clm_c0000001', 1)];

  it('takes the side that changed a record, even when its version is older (an undo)', () => {
    const ours = [v('clm_a0000001', 0, 'restored'), v('clm_b0000001', 1), v('clm_c0000001', 1)];
    const theirs = [v('clm_a0000001', 1), v('clm_b0000001', 4, 'theirs'), v('clm_c0000001', 1), v('clm_d0000001', 2)];
    const merged = mergeThreeWay(base, ours, theirs);
    expect(lines(merged.records)).toEqual(
      lines([v('clm_a0000001', 0, 'restored'), v('clm_b0000001', 4, 'theirs'), v('clm_c0000001', 1), v('clm_d0000001', 2)]),
    );
    expect(merged.conflicts).toEqual([]);
  });

  it('lets the newer win where both changed a record, and reports a tie', () => {
    const ours = [v('clm_a0000001', 3, 'ours'), v('clm_b0000001', 2, 'ours'), tomb('clm_c0000001', 5)];
    const theirs = [v('clm_a0000001', 2, 'theirs'), v('clm_b0000001', 2, 'theirs'), v('clm_c0000001', 4, 'theirs')];
    const merged = mergeThreeWay(base, ours, theirs);
    const values = new Map(merged.records.map((r) => [(r as ClaimRecord).id, r as ClaimRecord]));
    expect(values.get('clm_a0000001')!.value).toBe('ours');
    expect(values.get('clm_c0000001')!.deleted_at).toBe(at(5));
    expect(merged.conflicts.map((c) => c.key)).toEqual(['clm_b0000001']);
  });

  it('is symmetric in the two sides (property, 200 seeds)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const [b, o, t] = randomSets(seed) as [SurveyRecord[], SurveyRecord[], SurveyRecord[]];
      const one = mergeThreeWay(b, o, t);
      const two = mergeThreeWay(b, t, o);
      expect(lines(one.records), `seed ${seed}`).toEqual(lines(two.records));
      expect(one.conflicts.length).toBe(two.conflicts.length);
      // Merging a side with itself gives that side.
      expect(lines(mergeThreeWay(b, o, o).records)).toEqual(lines(mergeRecordSets(o).records));
    }
  });

  it('drops a record the other side left as it was when this side moved it away (its model changed)', () => {
    const ours = [v('clm_b0000001', 1), v('clm_c0000001', 1)];
    expect(mergeThreeWay(base, ours, base).records.map((r) => (r as ClaimRecord).id)).toEqual(['clm_b0000001', 'clm_c0000001']);
    // …and keeps it when the other side changed it meanwhile (nothing is lost).
    const theirs = [v('clm_a0000001', 6, 'edited'), v('clm_b0000001', 1), v('clm_c0000001', 1)];
    expect(mergeThreeWay(base, ours, theirs).records.map((r) => (r as ClaimRecord).value)).toContain('edited');
  });
});

describe('merging the text of a records file (git merge driver)', () => {
  it('merges neighbouring lines by identity and writes the file in export order', () => {
    const base = fileText([v('clm_a0000001', 1), v('clm_b0000001', 1)]);
    const ours = fileText([v('clm_a0000001', 2, 'ours'), v('clm_b0000001', 1)]);
    const theirs = fileText([v('clm_a0000001', 1), v('clm_b0000001', 3, 'theirs'), v('clm_c0000001', 3)]);
    const merged = mergeRecordsText(base, ours, theirs);
    expect(merged.conflicts).toEqual([]);
    expect(merged.text).toBe(fileText([v('clm_a0000001', 2, 'ours'), v('clm_b0000001', 3, 'theirs'), v('clm_c0000001', 3)]));
  });

  it('refuses a file it cannot read rather than guessing', () => {
    expect(() => mergeRecordsText('', '{"broken', fileText([v('clm_a0000001', 1)]))).toThrow(UnreadableRecordsError);
  });

  it('hashes versions so that a missing link equals the default link', () => {
    const linked = claim({ link: null });
    expect(recordHash(linked)).toBe(recordHash({ ...linked, link: undefined } as ClaimRecord));
    expect(recordHash(linked)).not.toBe(recordHash({ ...linked, note: 'x' }));
  });
});
