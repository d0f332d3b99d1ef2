import { describe, expect, it } from 'vitest';
import {
  buildExport,
  canonicalRecord,
  claimLink,
  compareRecords,
  sortRecords,
  defaultClaimLink,
  exportFileName,
  filterExport,
  localDate,
  NO_EXPORT_FILTER,
  serializeRecord,
  textFragmentLink,
  withLinks,
  type ExportData,
} from '../../../lib/export';
import { parseSurveyJsonl } from '../../../lib/import/jsonl';
import { parseImport } from '../../../lib/import/files';
import type { SurveyRecord } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';

const zeta = claim({ id: 'clm_zeta0001', updated_at: '2026-11-01T10:00:00Z' });
const zetaB = claim({ id: 'clm_zeta0002', evidence: 'B', kind: 'framework', stage: null, value: 'slime', updated_at: '2026-11-20T10:00:00Z' });
const omega = claim({
  id: 'clm_omega001',
  model: 'Omega-1',
  evidence: 'C',
  updated_at: '2026-11-25T10:00:00Z',
  source: { ...zeta.source, url: 'https://example.org/omega' },
});
const data: ExportData = {
  claims: [zeta, zetaB, omega],
  models: [
    model(),
    model({ model: 'Omega-1', vendor: 'Omega AI', updated_at: '2026-10-01T00:00:00Z' }),
    model({ model: 'Lonely-3', vendor: 'Zeta Lab', updated_at: '2026-11-26T00:00:00Z' }),
  ],
};
const ids = (d: ExportData) => [...d.claims.map((c) => c.id), ...d.models.map((m) => m.model)];

describe('filterExport', () => {
  it('keeps everything without filters', () => {
    expect(ids(filterExport(data, NO_EXPORT_FILTER))).toEqual(ids(data));
  });

  it('filters by model, vendor, evidence and date range', () => {
    expect(ids(filterExport(data, { ...NO_EXPORT_FILTER, models: ['Omega-1'] }))).toEqual(['clm_omega001', 'Omega-1']);
    expect(ids(filterExport(data, { ...NO_EXPORT_FILTER, vendor: 'Zeta Lab' }))).toEqual(['clm_zeta0001', 'clm_zeta0002', 'Zeta-2', 'Lonely-3']);
    expect(ids(filterExport(data, { ...NO_EXPORT_FILTER, evidence: ['A', 'C'] }))).toEqual(['clm_zeta0001', 'clm_omega001', 'Zeta-2', 'Omega-1']);
    expect(ids(filterExport(data, { ...NO_EXPORT_FILTER, from: '2026-11-20', to: '2026-11-25' }))).toEqual([
      'clm_zeta0002',
      'clm_omega001',
      'Zeta-2',
      'Omega-1',
    ]);
    expect(ids(filterExport(data, { ...NO_EXPORT_FILTER, from: '2026-11-26' }))).toEqual(['Zeta-2', 'Lonely-3']);
  });
});

describe('file names', () => {
  it('are dated', () => {
    expect(exportFileName('jsonl', '2026-11-29')).toBe('recipe-lens-2026-11-29.jsonl');
    expect(exportFileName('md', '2026-11-29', 'zh')).toBe('recipe-lens-table-zh-2026-11-29.md');
    expect(exportFileName('csv', '2026-11-29')).toBe('recipe-lens-table-2026-11-29.csv');
    expect(exportFileName('w3c', '2026-11-29')).toBe('recipe-lens-annotations-2026-11-29.jsonld');
    expect(exportFileName('backup', '2026-11-29')).toBe('recipe-lens-backup-2026-11-29.json');
    expect(localDate(new Date(2026, 10, 29, 23, 59))).toBe('2026-11-29');
  });
});

describe('buildExport', () => {
  const now = new Date(2026, 10, 29, 12, 0);

  it('writes the same JSONL bytes whatever the record order, every claim with its link, and valid', () => {
    const one = buildExport('jsonl', data, { now });
    const two = buildExport('jsonl', { claims: [...data.claims].reverse(), models: [...data.models].reverse() }, { now });
    expect(one.text).toBe(two.text);
    expect(one.fileName).toBe('recipe-lens-2026-11-29.jsonl');
    const parsed = parseSurveyJsonl(one.text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.records).toHaveLength(6);
    for (const r of parsed.records) if ('id' in r) expect(r.link).toMatch(/#:~:text=/);
  });

  it('renders the survey table with the seed’s headers in English or Chinese, footnoted', () => {
    const en = buildExport('md', data, { now, lang: 'en' });
    expect(en.text.split('\n')[0]).toBe('| Model | Evidence | RL framework / system | Public RL stages and algorithms | Design intention | Current judgment |');
    expect(en.text).toMatch(/GRPO\[\^1\]/);
    expect(en.text).toMatch(/not disclosed/);
    const zh = buildExport('md', data, { now, lang: 'zh' });
    expect(zh.fileName).toBe('recipe-lens-table-zh-2026-11-29.md');
    expect(zh.text.split('\n')[0]).toContain('模型');
    expect(zh.text).toContain('未公开');
    const csv = buildExport('csv', data, { now });
    expect(csv.text.split('\r\n')[0]).toBe('Model,Evidence,RL framework / system,Public RL stages and algorithms,Design intention,Current judgment,Sources');
  });

  it('writes W3C annotations other tools can read, and that come back as the same claims', () => {
    const file = buildExport('w3c', data, { now });
    const doc = JSON.parse(file.text) as { type: string; total: number };
    expect(doc).toMatchObject({ type: 'AnnotationCollection', total: 3 });
    const back = parseImport(file.text, 'w3c');
    expect(back.errors).toEqual([]);
    expect(back.records.map((r) => ('id' in r ? r.id : '')).sort()).toEqual(['clm_omega001', 'clm_zeta0001', 'clm_zeta0002']);
  });
});

describe('claim links', () => {
  it('keeps a stored link and fills a missing one with the text-fragment link', () => {
    expect(claimLink({ ...zeta, link: 'https://example.org/x#:~:text=a' })).toBe('https://example.org/x#:~:text=a');
    expect(claimLink(zeta)).toBe(textFragmentLink(zeta.source.url, zeta.quote));
    expect(defaultClaimLink(zeta)).toMatch(/^https:\/\/example\.org\/zeta-2-report#:~:text=Reasoning%20RL%20uses%20GRPO/);
    const [filled] = withLinks([zeta]);
    expect(filled).not.toBe(zeta);
    expect(withLinks([filled!])[0]).toBe(filled);
  });

  it('points a claim on a PDF at its page', () => {
    const onPdf = { ...zeta, source: { ...zeta.source, url: 'https://arxiv.org/pdf/2501.12948' }, pdf: { fingerprint: 'abc', page: 7 } };
    expect(defaultClaimLink(onPdf)).toBe('https://arxiv.org/pdf/2501.12948#page=7');
  });
});

describe('serializing records', () => {
  it('gives the canonical line whether a record is canonical already or not', () => {
    const base = claim({ extra: { nested: true } });
    const shuffled = Object.fromEntries(Object.entries(base).reverse()) as typeof base;
    const { note: _note, link: _link, ...sparse } = base;
    const nestedOut = { ...base, quote: { suffix: base.quote.suffix, exact: base.quote.exact, prefix: base.quote.prefix } };
    const withUndefined = { ...base, later: undefined };
    const lines = [base, shuffled, sparse as typeof base, nestedOut, withUndefined].map((r) => serializeRecord(r));
    for (const line of lines) expect(line).toBe(JSON.stringify(canonicalRecord(base)));
    expect(serializeRecord(model())).toBe(JSON.stringify(canonicalRecord(model())));
    const { judgment: _j, ...bare } = model();
    expect(JSON.parse(serializeRecord(bare as ReturnType<typeof model>)).judgment).toBe('');
  });
});

describe('the export order', () => {
  it('is the spec’s order (compareRecords, then the line), whatever the input order', () => {
    const urls = ['https://a.org/1', 'https://b.org/2'];
    const records: SurveyRecord[] = [];
    let n = 0;
    for (const m of ['Beta', 'Alpha']) {
      for (const recipe of [null, 'R1', undefined]) {
        records.push(model({ model: m, recipe: recipe ?? null, judgment: String(n++) }));
        for (const url of urls) {
          for (const start of [null, 5, 1]) {
            records.push(
              claim({
                id: `clm_order_${String(n++).padStart(4, '0')}`,
                model: m,
                recipe,
                position: start === null ? null : { start, end: start + 1 },
                source: { ...claim().source, url },
              }),
            );
          }
        }
      }
    }
    const expected = [...records].sort(
      (a, b) => compareRecords(a, b) || (serializeRecord(a) < serializeRecord(b) ? -1 : serializeRecord(a) > serializeRecord(b) ? 1 : 0),
    );
    expect(sortRecords([...records].reverse())).toEqual(expected);
    expect(sortRecords(records)).toEqual(expected);
  });
});
