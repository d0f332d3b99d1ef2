// The panel's survey cells: an undisclosed claim stands in the cell it speaks about, as in the survey table.
import { describe, expect, it } from 'vitest';
import { surveyCell } from '../../../components/panel/SurveyView';
import { deriveRows } from '../../../lib/survey';
import { claim } from '../fixtures/records';

const NOW = '2026-12-01T00:00:00Z';
const base = { model: 'Kimi K2.6' };

describe('surveyCell', () => {
  it('shows an undisclosed framework in the framework cell, an undisclosed reward in the stages cell, and nothing of them elsewhere', () => {
    const row = deriveRows(
      [
        claim({ ...base, id: 'cell_algo_01', kind: 'algorithm', value: 'GRPO', stage: null }),
        claim({ ...base, id: 'cell_und_fw1', kind: 'undisclosed', value: 'training framework', stage: null }),
        claim({ ...base, id: 'cell_und_rw1', kind: 'undisclosed', value: 'reward design', stage: 'reasoning_rl' }),
      ],
      [],
      { now: NOW },
    )[0]!;
    expect(surveyCell(row, 'framework')).toBe('Not disclosed: training framework');
    expect(surveyCell(row, 'stages')).toBe('GRPO · Not disclosed: reward design');
    expect(surveyCell(row, 'intention')).toBe('not disclosed');
  });

  it('says "not disclosed" for an empty cell with no undisclosed claim', () => {
    const row = deriveRows([claim({ ...base, id: 'cell_fw_0001', kind: 'framework', value: 'slime' })], [], { now: NOW })[0]!;
    expect(surveyCell(row, 'framework')).toBe('slime');
    expect(surveyCell(row, 'stages')).toBe('not disclosed');
  });
});
