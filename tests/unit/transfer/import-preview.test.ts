import { describe, expect, it } from 'vitest';
import { defaultClaimLink, toJsonl, withLinks } from '../../../lib/export';
import { parseSurveyJsonl } from '../../../lib/import/jsonl';
import { planStoreImport, recordRef, resolvePlan } from '../../../lib/import/preview';
import { modelKey, type SurveyRecord } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';

const LATER = '2026-11-30T10:00:00Z';
const stored = claim({ id: 'clm_stored_1' });
const storedModel = model();

describe('planStoreImport', () => {
  it('adds new records, replaces older ones, keeps newer and identical ones', () => {
    const plan = planStoreImport(
      [stored, storedModel],
      [
        claim({ id: 'clm_new_0001' }),
        claim({ id: 'clm_stored_1', value: 'GSPO', updated_at: LATER }),
        model({ judgment: 'older', updated_at: '2026-01-01T00:00:00Z' }),
      ],
    );
    expect(plan).toMatchObject({ added: 1, updated: 1, unchanged: 1, conflicts: [] });
    expect(plan.writes.map((r) => recordRef(r)).sort()).toEqual(['claim:clm_new_0001', 'claim:clm_stored_1']);
  });

  it('changes nothing when the store’s own export comes back, links filled in or not', () => {
    const exported = parseSurveyJsonl(toJsonl(withLinks([stored]), [storedModel])).records;
    expect(exported[0]).toMatchObject({ link: defaultClaimLink(stored) });
    expect(planStoreImport([stored, storedModel], exported)).toMatchObject({ added: 0, updated: 0, unchanged: 2, conflicts: [], writes: [] });
    // And the other way round: a stored link equal to the default, a file without one.
    const linked = { ...stored, link: defaultClaimLink(stored) };
    expect(planStoreImport([linked], [stored])).toMatchObject({ unchanged: 1, conflicts: [] });
  });

  it('reports a different link at the same time stamp as a conflict', () => {
    const plan = planStoreImport([stored], [{ ...stored, link: 'https://example.org/elsewhere' }]);
    expect(plan.conflicts).toHaveLength(1);
    expect(plan.conflicts[0]!.diffs).toEqual([{ field: 'link', ours: defaultClaimLink(stored), theirs: 'https://example.org/elsewhere' }]);
  });

  it('describes conflicts side by side with their refs and the incoming version, and writes nothing for them', () => {
    const theirs = claim({ id: 'clm_stored_1', value: 'GSPO' });
    const theirModel = model({ judgment: 'changed' });
    const plan = planStoreImport([stored, storedModel], [theirs, theirModel]);
    expect(plan.writes).toEqual([]);
    expect(plan.conflicts.map((c) => [c.ref, c.label, c.diffs.map((d) => d.field)])).toEqual([
      ['claim:clm_stored_1', 'claim clm_stored_1', ['value']],
      [`model:${modelKey('Zeta-2', null)}`, 'model Zeta-2', ['judgment']],
    ]);
    expect(plan.conflicts[0]!.diffs[0]).toEqual({ field: 'value', ours: 'GRPO', theirs: 'GSPO' });
    expect(plan.conflicts[0]!.theirs).toBe(theirs);
    expect(plan.conflicts[1]!.theirs).toBe(theirModel);
  });

  it('applies the curator’s choice per conflict, and a default for the rest', () => {
    const theirs = claim({ id: 'clm_stored_1', value: 'GSPO' });
    const theirModel = model({ judgment: 'changed' });
    const plan = planStoreImport([stored, storedModel], [theirs, theirModel, claim({ id: 'clm_new_0001' })]);
    const one = resolvePlan(plan, [{ ref: 'claim:clm_stored_1', take: 'theirs' }]);
    expect(one).toMatchObject({ kept: 1, taken: 1 });
    expect(one.writes.map(recordRef)).toEqual(['claim:clm_new_0001', 'claim:clm_stored_1']);
    expect(resolvePlan(plan, [], 'theirs')).toMatchObject({ kept: 0, taken: 2 });
    expect(resolvePlan(plan, [{ ref: 'claim:clm_stored_1', take: 'mine' }], 'theirs').writes.map(recordRef)).toEqual([
      'claim:clm_new_0001',
      `model:${modelKey('Zeta-2', null)}`,
    ]);
  });

  it('judges several versions of one record in a file in order', () => {
    const plan = planStoreImport(
      [],
      [claim({ id: 'clm_twice_01' }), claim({ id: 'clm_twice_01', value: 'GSPO', updated_at: LATER }), claim({ id: 'clm_twice_01', value: 'DAPO' })],
    );
    expect(plan).toMatchObject({ added: 1, updated: 0, unchanged: 1, conflicts: [] });
    expect(plan.writes).toEqual([claim({ id: 'clm_twice_01', value: 'GSPO', updated_at: LATER })]);
  });

  it('keeps a claim and a model record apart when an id equals a model name', () => {
    const records: SurveyRecord[] = [claim({ id: 'clm_shared_1' })];
    expect(planStoreImport([model({ model: 'clm_shared_1' })], records).added).toBe(1);
  });

  it('plans 10,000 new records quickly', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => claim({ id: `clm_many_${String(i).padStart(6, '0')}` }));
    const t0 = performance.now();
    const plan = planStoreImport([], many);
    expect(plan.added).toBe(10_000);
    expect(performance.now() - t0).toBeLessThan(1000);
  });
});
