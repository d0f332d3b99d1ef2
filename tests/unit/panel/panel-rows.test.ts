import { describe, expect, it } from 'vitest';
import { NO_FILTERS, filterRows, indexRows, sortRows, vendorsOf } from '../../../lib/panel/rows';
import { deriveRows } from '../../../lib/survey';
import { claim, model } from '../fixtures/records';

const claims = [
  claim({
    id: 'clm_r0000001',
    model: 'GLM-5',
    kind: 'framework',
    stage: null,
    value: 'slime',
    evidence: 'B',
    updated_at: '2026-11-01T00:00:00Z',
    quote: { exact: 'slime is the framework.', prefix: '', suffix: '' },
    source: { ...claim().source, kind: 'repository' },
  }),
  claim({
    id: 'clm_r0000002',
    model: 'GLM-5',
    kind: 'algorithm',
    stage: 'reasoning_rl',
    value: 'GRPO',
    evidence: 'A',
    note: 'KL removed',
    quote: { exact: 'Reasoning RL uses GRPO.', prefix: '', suffix: '' },
  }),
  claim({
    id: 'clm_r0000003',
    model: 'Qwen3.6',
    kind: 'undisclosed',
    stage: 'reasoning_rl',
    value: 'Reasoning RL',
    evidence: 'C',
    updated_at: '2026-11-29T12:00:00Z',
    quote: { exact: 'The card lists benchmarks only.', prefix: '', suffix: '' },
  }),
  claim({
    id: 'clm_r0000004',
    model: 'deepseek-x',
    kind: 'stage',
    stage: 'general_rl',
    value: 'General RL',
    evidence: 'B',
    quote: { exact: 'A general stage follows.', prefix: '', suffix: '' },
  }),
];
const rows = indexRows(
  deriveRows(claims, [model({ model: 'GLM-5', vendor: 'Zhipu AI' }), model({ model: 'Qwen3.6', vendor: 'Qwen Team' })], { now: '2026-11-30T00:00:00Z' }),
);
const names = (list: ReturnType<typeof filterRows>) => list.map((r) => r.row.model);

describe('filtering survey rows', () => {
  it.each([
    ['no filter', {}, ['GLM-5', 'Qwen3.6', 'deepseek-x']],
    ['free text in a note', { text: 'kl removed' }, ['GLM-5']],
    ['free text in a value, any case', { text: 'grpo' }, ['GLM-5']],
    ['several words, all required', { text: 'glm slime' }, ['GLM-5']],
    ['vendor', { vendor: 'Qwen Team' }, ['Qwen3.6']],
    ['proposed vendor (no model record: the publisher of its sources)', { vendor: 'Zeta Lab' }, ['deepseek-x']],
    ['evidence level of the row', { evidence: 'A' as const }, ['GLM-5']],
    ['kind', { kind: 'undisclosed' as const }, ['Qwen3.6']],
    ['stage', { stage: 'general_rl' as const }, ['deepseek-x']],
    ['no match', { text: 'nothing like this' }, []],
  ])('by %s', (_name, patch, expected) => {
    expect(names(sortRows(filterRows(rows, { ...NO_FILTERS, ...patch }), 'model'))).toEqual(expected);
  });

  it('keeps rows with a stage not disclosed under "has undisclosed"', () => {
    expect(names(filterRows(rows, { ...NO_FILTERS, undisclosedOnly: true })).sort()).toEqual(['GLM-5', 'Qwen3.6', 'deepseek-x'].sort());
  });
});

describe('sorting survey rows', () => {
  it('sorts by model in code-unit order, like the export and the database index', () => {
    expect(names(sortRows(rows, 'model'))).toEqual(['GLM-5', 'Qwen3.6', 'deepseek-x']);
  });
  it('sorts by best evidence, then newest, then most claims', () => {
    expect(names(sortRows(rows, 'evidence'))[0]).toBe('GLM-5');
    expect(names(sortRows(rows, 'updated'))[0]).toBe('Qwen3.6');
    expect(names(sortRows(rows, 'claims'))[0]).toBe('GLM-5');
  });
  it('lists vendors once, sorted, stored and proposed alike; a stored vendor hides the proposal', () => {
    // GLM-5 and Qwen3.6 have stored vendors (their sources would propose "Zeta Lab"); deepseek-x has only the proposal.
    expect(vendorsOf(rows.map((r) => r.row))).toEqual(['Qwen Team', 'Zeta Lab', 'Zhipu AI']);
    expect(names(filterRows(rows, { ...NO_FILTERS, vendor: 'Zeta Lab' }))).toEqual(['deepseek-x']);
  });
});
