import { describe, expect, it } from 'vitest';
import { toJsonl } from '../../../lib/export';
import { parseSurveyJsonl } from '../../../lib/import/jsonl';
import { diffRecords, mergeFiles, planImport } from '../../../lib/import/merge';
import { modelKey, type ClaimRecord, type ModelRecord } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';

const LATER = '2026-11-30T10:00:00Z';

describe('planImport', () => {
  const stored = claim({ id: 'clm_stored_1' });
  const storedModel = model();
  const existing = { claims: [stored], models: [storedModel] };

  it('adds new records, replaces older ones, keeps newer and identical ones', () => {
    const plan = planImport(existing, [
      claim({ id: 'clm_new_0001' }),
      claim({ id: 'clm_stored_1', value: 'GSPO', updated_at: LATER }),
      model({ judgment: 'older', updated_at: '2026-01-01T00:00:00Z' }),
      model({ model: 'Other-1' }),
    ]);
    expect(plan).toMatchObject({ added: 2, updated: 1, unchanged: 1, conflicts: [] });
    expect(plan.records.map((r) => ('id' in r ? r.id : r.model))).toEqual(['clm_new_0001', 'clm_stored_1', 'Other-1']);
  });

  it('reports equal timestamps with other content as a conflict, field by field, and writes nothing for it', () => {
    const plan = planImport(existing, [
      claim({ id: 'clm_stored_1', value: 'GSPO', quote: { ...stored.quote, exact: 'Reasoning RL uses GSPO.' } }),
      model({ judgment: 'changed', vendor: null }),
    ]);
    expect(plan.added + plan.updated + plan.unchanged).toBe(0);
    expect(plan.records).toEqual([]);
    expect(plan.conflicts).toEqual([
      {
        key: 'clm_stored_1',
        label: 'claim clm_stored_1',
        diffs: [
          { field: 'value', ours: 'GRPO', theirs: 'GSPO' },
          { field: 'quote.exact', ours: stored.quote.exact, theirs: 'Reasoning RL uses GSPO.' },
        ],
      },
      {
        key: modelKey('Zeta-2', null),
        label: 'model Zeta-2',
        diffs: [
          { field: 'vendor', ours: 'Zeta Lab', theirs: null },
          { field: 'judgment', ours: storedModel.judgment, theirs: 'changed' },
        ],
      },
    ]);
  });

  it('changes nothing when the same file is imported again (missing optional fields equal their empty value)', () => {
    const text = toJsonl([stored], [storedModel]);
    const { records } = parseSurveyJsonl(text);
    expect(planImport(existing, records)).toEqual({ added: 0, updated: 0, unchanged: 2, conflicts: [], records: [] });
    const { note: _note, link: _link, evidence_reason: _reason, ...sparse } = stored;
    expect(planImport(existing, [sparse as ClaimRecord]).unchanged).toBe(1);
  });

  it('judges several versions of one record in one file in order, counting each record once', () => {
    const plan = planImport({ claims: [], models: [] }, [
      claim({ id: 'clm_twice_01' }),
      claim({ id: 'clm_twice_01', value: 'GSPO', updated_at: LATER }),
      claim({ id: 'clm_twice_01', value: 'DAPO' }),
    ]);
    expect(plan).toMatchObject({ added: 1, updated: 0, unchanged: 1, conflicts: [] });
    expect(plan.records).toEqual([claim({ id: 'clm_twice_01', value: 'GSPO', updated_at: LATER })]);
  });

  it('tells a claim and a model record apart even when an id equals a model name', () => {
    const plan = planImport({ claims: [], models: [model({ model: 'clm_shared_1' })] }, [claim({ id: 'clm_shared_1' })]);
    expect(plan.added).toBe(1);
  });
});

describe('mergeFiles', () => {
  const a = claim({ id: 'clm_a_000001' });
  const aNewer = claim({ id: 'clm_a_000001', value: 'GSPO', updated_at: LATER });
  const aTie = claim({ id: 'clm_a_000001', value: 'DAPO' });
  const b = claim({ id: 'clm_b_000002', model: 'Alpha-1' });
  const m = model();
  const mNewer = model({ judgment: 'revised', updated_at: LATER });

  it('merges, dropping identical copies, in export order', () => {
    const result = mergeFiles([[a, m], [b, a], [m]]);
    expect(result.conflicts).toEqual([]);
    expect(toJsonl(result.records as ClaimRecord[], [])).toBe(toJsonl([a, b], [m]));
  });

  it('reports any two versions as a conflict by default, keeping the newest', () => {
    const result = mergeFiles([
      [a, m],
      [aNewer, mNewer],
    ]);
    expect(result.conflicts.map((c) => [c.label, c.diffs.map((d) => d.field)])).toEqual([
      ['claim clm_a_000001', ['value', 'updated_at']],
      ['model Zeta-2', ['judgment', 'updated_at']],
    ]);
    expect(result.conflicts[0]!.diffs[0]).toEqual({ field: 'value', ours: 'GSPO', theirs: 'GRPO' });
    expect(result.records).toEqual(expect.arrayContaining([aNewer, mNewer]));
    expect(result.records).toHaveLength(2);
  });

  it('lets the newer version win with prefer newer, reporting only ties', () => {
    expect(
      mergeFiles(
        [
          [a, m],
          [aNewer, mNewer],
        ],
        { prefer: 'newer' },
      ),
    ).toEqual({ records: [aNewer, mNewer], conflicts: [] });
    const tie = mergeFiles([[a], [aTie]], { prefer: 'newer' });
    expect(tie.conflicts).toHaveLength(1);
    expect(tie.conflicts[0]!.diffs).toEqual([
      { field: 'value', ours: tie.records[0]!.schema === 'rl-survey.claim/1' ? (tie.records[0] as ClaimRecord).value : null, theirs: expect.any(String) },
    ]);
    // Order-independent choice among ties.
    expect(mergeFiles([[aTie], [a]], { prefer: 'newer' })).toEqual(tie);
  });

  it('is order-independent and idempotent', () => {
    const lists = [[a, m, b], [aTie, mNewer], [aNewer]];
    const one = mergeFiles(lists);
    const two = mergeFiles([...lists].reverse().map((l) => [...l].reverse()));
    expect(two).toEqual(one);
    expect(mergeFiles([one.records])).toEqual({ records: one.records, conflicts: [] });
    expect(mergeFiles([one.records, one.records])).toEqual({ records: one.records, conflicts: [] });
  });
});

describe('diffRecords', () => {
  it('lists nested and unknown fields, with null for a missing side', () => {
    const ours = { ...model(), extra: 1 } as ModelRecord;
    const theirs = { ...model({ recipe: 'Coder' }), other: 'x' } as ModelRecord;
    expect(diffRecords(ours, theirs)).toEqual([
      { field: 'recipe', ours: null, theirs: 'Coder' },
      { field: 'extra', ours: 1, theirs: null },
      { field: 'other', ours: null, theirs: 'x' },
    ]);
  });
});
