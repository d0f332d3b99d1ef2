// The dataset README: the table between its markers is `survey render`'s, the counts line, the curators' text kept.
import { describe, expect, it } from 'vitest';
import {
  checkReadme,
  COUNT_END,
  COUNT_START,
  countLine,
  datasetCounts,
  newReadme,
  readmeTable,
  renderRecords,
  TABLE_END,
  TABLE_START,
  updateReadme,
} from '../../../lib/dataset';
import type { SurveyRecord } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';

const records: SurveyRecord[] = [
  claim({ id: 'clm_glm5_00001', model: 'GLM-5', kind: 'framework', stage: null, value: 'slime' }),
  claim({ id: 'clm_glm5_00002', model: 'GLM-5', value: 'GRPO', updated_at: '2025-01-01T00:00:00Z' }),
  claim({ id: 'clm_kimi_00001', model: 'Kimi K2', value: 'Dropped', updated_at: '2026-12-01T00:00:00Z', deleted_at: '2026-12-01T00:00:00Z' }),
  model({ model: 'GLM-5', vendor: 'Zhipu AI', judgment: 'A <b>bold</b> | judgment' }),
];

describe('the README table', () => {
  it('is survey render in Markdown, whatever the present moment', () => {
    for (const now of ['2026-01-01T00:00:00Z', '2030-06-01T12:00:00Z']) {
      expect(renderRecords([records], { format: 'md', lang: 'en', now })).toBe(readmeTable(records));
    }
  });

  it('does not depend on the order of the records, and takes the newest of several versions', () => {
    const many: SurveyRecord[] = [];
    for (let i = 0; i < 30; i++)
      many.push(
        claim({
          id: `clm_order_${String(i).padStart(4, '0')}`,
          model: `M${i % 4}`,
          value: ['GRPO', 'PPO', 'slime'][i % 3]!,
          position: i % 5 ? { start: i % 7, end: 50 } : null,
        }),
      );
    const want = readmeTable(many);
    const reversed = readmeTable([...many].reverse());
    const rotated = readmeTable([...many.slice(11), ...many.slice(0, 11)]);
    expect(reversed).toBe(want);
    expect(rotated).toBe(want);
    const older = { ...many[0]!, value: 'Older', updated_at: '2020-01-01T00:00:00Z' } as SurveyRecord;
    expect(renderRecords([many, [older]], { format: 'md', lang: 'en', now: '2026-01-01T00:00:00Z' })).toBe(want);
  });

  it('renders nothing for tombstones and escapes markup', () => {
    const table = readmeTable(records);
    expect(table).not.toContain('Kimi K2');
    expect(table).not.toContain('Dropped');
    expect(table).not.toContain('<b>');
  });

  it('counts live claims and models', () => {
    expect(datasetCounts(records)).toEqual({ claims: 2, models: 1 });
    expect(countLine({ claims: 1, models: 1 })).toBe('This dataset holds 1 claim about 1 model.');
    expect(countLine({ claims: 10000, models: 500 })).toBe('This dataset holds 10,000 claims about 500 models.');
  });
});

describe('updating and checking a README', () => {
  it('replaces only the generated parts and keeps the curators’ text', () => {
    const prose = `# Our survey\n\nWritten by us.\n\n${TABLE_START}\nold table\n${TABLE_END}\n\nMore prose.\n\n${COUNT_START}old count${COUNT_END}\n\nFooter.\n`;
    const updated = updateReadme(prose, records);
    expect(updated.startsWith('# Our survey\n\nWritten by us.\n\n')).toBe(true);
    expect(updated).toContain('More prose.');
    expect(updated.endsWith('\n\nFooter.\n')).toBe(true);
    expect(updated).toContain(`${TABLE_START}\n${readmeTable(records)}${TABLE_END}`);
    expect(updated).toContain(`${COUNT_START}This dataset holds 2 claims about 1 model.${COUNT_END}`);
    expect(checkReadme(updated, records)).toEqual([]);
    expect(updateReadme(updated, records)).toBe(updated);
  });

  it('adds the markers to a README without them', () => {
    const updated = updateReadme('# Survey\n', records);
    expect(checkReadme(updated, records)).toEqual([]);
    expect(checkReadme('# Survey\n', records).map((p) => p.message)).toEqual([
      expect.stringContaining('no survey table'),
      expect.stringContaining('no counts line'),
    ]);
  });

  it('says on which line the table first differs', () => {
    const readme = newReadme('Survey', records);
    const lines = readme.split('\n');
    const row = lines.findIndex((l) => l.startsWith('| GLM-5'));
    lines[row] = `${lines[row]} changed`;
    expect(checkReadme(lines.join('\n'), records)).toEqual([{ line: row + 1, message: expect.stringContaining('not what "survey render records" gives') }]);
  });
});
