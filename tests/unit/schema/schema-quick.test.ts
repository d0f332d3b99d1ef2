// The quick check against the schema it stands in for: whatever it vouches for, zod accepts and returns the same
// record (fields and their order); what it does not vouch for is left to zod. Records come from a seeded generator
// (the same every run): valid ones, then each field replaced by values on both sides of every rule.
import { describe, expect, it } from 'vitest';
import { parseSurveyJsonl } from '../../../lib/import/jsonl';
import { SurveyRecord } from '../../../lib/schema';
import { quickSurveyRecord } from '../../../lib/schema/quick';
import { claim, model } from '../fixtures/records';
import { rng } from '../../support/random';

const TEXTS = ['', ' ', 'x', ' x', 'x ', '\tx', 'x\n', '模型', '😀', 'a'.repeat(40), 'a'.repeat(64), 'a'.repeat(65), 'a'.repeat(200), 'a'.repeat(201)];
const LONG = ['a'.repeat(1000), 'a'.repeat(1001), 'a'.repeat(2000), 'a'.repeat(2001), 'a'.repeat(4000), 'a'.repeat(4001), 'a'.repeat(8001)];
const DATES = [
  '2026-11-29',
  '2024-02-29',
  '2023-02-29',
  '2000-02-29',
  '1900-02-29',
  '0000-02-29',
  '2026-04-31',
  '2026-13-01',
  '2026-00-10',
  '2026-1-01',
  '20261129',
];
const TIMES = [
  '2026-11-29T10:00:00Z',
  '2026-11-29T10:00:00.5Z',
  '2026-11-29T23:59:59Z',
  '2026-11-29T24:00:00Z',
  '2026-11-29T10:60:00Z',
  '2026-11-29T10:00:60Z',
  '2026-11-29T10:00Z',
  '2026-11-29T10:00:00+01:00',
  '2026-11-29 10:00:00Z',
  '2026-02-30T10:00:00Z',
  '2024-02-29T00:00:00Z',
  '2026-11-29T10:00:00z',
];
const URLS = ['https://a.example/', 'http://b.example/x y', 'http://c.example/模型', 'javascript:alert(1)', 'ftp://a.example/', '/relative', 'https://', ''];
const NUMBERS = [0, 1, -1, 1.5, 2 ** 53, Number.NaN, 120, 168, 500];
const OTHERS = [null, true, 7, [], {}, ['x'], { a: 1 }];
const ENUMS = ['algorithm', 'stage', 'undisclosed', 'reasoning_rl', 'opd_merge', 'A', 'C', 'D', 'technical_report', 'blog', 'Algorithm'];
const IDS = ['clm_test000001', 'abc', 'a'.repeat(64), 'a'.repeat(65), 'clm test 0001', 'clm-test_0001', 'clm.test.0001'];

const POOL: unknown[] = [...TEXTS, ...LONG, ...DATES, ...TIMES, ...URLS, ...NUMBERS, ...OTHERS, ...ENUMS, ...IDS, undefined];

const CLAIM_PATHS = [
  'schema',
  'id',
  'model',
  'recipe',
  'kind',
  'stage',
  'value',
  'evidence',
  'evidence_reason',
  'quote',
  'quote.exact',
  'quote.prefix',
  'quote.suffix',
  'position',
  'position.start',
  'position.end',
  'source',
  'source.url',
  'source.title',
  'source.kind',
  'source.publisher',
  'source.published',
  'source.accessed',
  'link',
  'pdf',
  'pdf.fingerprint',
  'pdf.page',
  'pdf.arxiv',
  'note',
  'curator',
  'created_at',
  'updated_at',
  'deleted_at',
  'extra',
  'source.extra',
];
const MODEL_PATHS = ['schema', 'model', 'recipe', 'vendor', 'based_on', 'judgment', 'updated_at', 'extra'];

/** Sets (or, with `delete`, removes) a dotted path in a deep copy. */
function changed(record: object, path: string, value: unknown, remove: boolean): Record<string, unknown> {
  const copy = structuredClone(record) as Record<string, unknown>;
  const keys = path.split('.');
  let at = copy;
  for (const key of keys.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  const last = keys.at(-1)!;
  if (remove) delete at[last];
  else at[last] = value;
  return copy;
}

/** What the schema returns as JSON text (the order of fields included), or null when it refuses. */
function bySchema(value: unknown): string | null {
  const parsed = SurveyRecord.safeParse(value);
  return parsed.success ? JSON.stringify(parsed.data) : null;
}

function agreeOn(values: unknown[]): { vouched: number; left: number } {
  let vouched = 0;
  let left = 0;
  for (const value of values) {
    const quick = quickSurveyRecord(value);
    if (quick === null) {
      left += 1;
      continue;
    }
    vouched += 1;
    expect({ value, quick: JSON.stringify(quick) }).toEqual({ value, quick: bySchema(value) });
  }
  return { vouched, left };
}

const BASES = [
  claim(),
  claim({ pdf: { fingerprint: 'fp1', page: 3, arxiv: '2501.00001' }, link: 'https://example.org/#:~:text=GRPO', deleted_at: '2026-11-30T00:00:00Z' }),
  { x_first: 1, ...claim({ recipe: 'MaxProof', stage: null, position: null, note: undefined }) },
  model(),
  { ...model({ recipe: 'Coder', vendor: null }), extra: [1, 2] },
];

describe('quickSurveyRecord', () => {
  it('vouches for the common records, and returns what the schema does, fields in the same order', () => {
    const values = BASES.map((b) => JSON.parse(JSON.stringify(b)) as unknown);
    expect(agreeOn(values)).toEqual({ vouched: values.length, left: 0 });
  });

  it('never vouches for a record the schema refuses or would change, over every field and value of the pool', () => {
    const values: unknown[] = [];
    for (const base of BASES) {
      const paths = 'id' in base ? CLAIM_PATHS : MODEL_PATHS;
      for (const path of paths) {
        values.push(changed(base, path, undefined, true));
        for (const v of POOL) values.push(changed(base, path, v, false));
      }
    }
    const { vouched, left } = agreeOn(values);
    // Both sides are exercised: many changed records still pass, many are refused.
    expect(vouched).toBeGreaterThan(200);
    expect(left).toBeGreaterThan(200);
  });

  it('agrees with the schema on records changed in several fields at once (seeded)', () => {
    const next = rng(27);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const values: unknown[] = [];
    for (let i = 0; i < 3000; i++) {
      const base = pick(BASES);
      const paths = 'id' in base ? CLAIM_PATHS : MODEL_PATHS;
      let record: object = base;
      const n = 1 + Math.floor(next() * 3);
      for (let k = 0; k < n; k++) record = changed(record, pick(paths), pick(POOL), next() < 0.15);
      values.push(record);
    }
    const { vouched, left } = agreeOn(values);
    expect(vouched).toBeGreaterThan(0);
    expect(left).toBeGreaterThan(0);
  });

  it('leaves what it cannot judge to the schema: not an object, an unknown schema, a key that reaches a prototype', () => {
    expect(quickSurveyRecord(null)).toBeNull();
    expect(quickSurveyRecord([claim()])).toBeNull();
    expect(quickSurveyRecord({ ...claim(), schema: 'rl-survey.source/1' })).toBeNull();
    const poisoned = JSON.parse(`{"__proto__":{"x":1},${JSON.stringify(claim()).slice(1)}`) as unknown;
    expect(quickSurveyRecord(poisoned)).toBeNull();
  });

  it('gives an import the same records and errors as the schema alone', () => {
    const lines = [
      JSON.stringify(claim()),
      JSON.stringify(claim({ id: 'clm_test000002', model: '  Padded  ' })),
      JSON.stringify(claim({ id: 'bad id' })),
      JSON.stringify(model()),
    ];
    const parsed = parseSurveyJsonl(lines.join('\n'));
    expect(parsed.records.map((r) => JSON.stringify(r))).toEqual([lines[0], bySchema(JSON.parse(lines[1]!)), lines[3]]);
    expect(parsed.records[1]!.model).toBe('Padded');
    expect(parsed.errors).toEqual([{ line: 3, message: expect.stringContaining('id:') }]);
  });
});
