// The export's fast paths give what the plain definitions give, over seeded random inputs (no extra
// packages): JSONL lines de-duplicated by neighbour instead of by hashing, word boundaries found around
// one index instead of by segmenting the whole text, downloads cut into Blob parts, and lines remembered
// per record object.
import { describe, expect, it } from 'vitest';
import { blobParts } from '../../../components/common/files';
import { encodeTextDirectivePart } from '../../../lib/export';
import { segmentAt } from '../../../lib/export/fragment';
import { buildExport } from '../../../lib/export/files';
import { compareRecords, serializeRecord, sortRecords, toJsonl } from '../../../lib/export/jsonl';
import { ExportLineCache } from '../../../lib/export/line-cache';
import { CLAIM_SCHEMA, type ClaimRecord, type ModelRecord, type SurveyRecord } from '../../../lib/schema';
import { createRandom } from '../../../scripts/bench/harness/prng.mjs';

/** The bench's seeded generator (mulberry32), as a function giving the next float in [0, 1). */
const rng = (seed: number) => createRandom(seed).next;

const SEEDS = Array.from({ length: 120 }, (_, i) => 7000 + i);

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

/** Text from pieces that stress word segmentation: CJK, emoji (surrogate pairs), apostrophes, hyphens, digits with points, white space. */
function text(next: () => number, max: number): string {
  const pieces = [
    'GRPO',
    'RL',
    'a',
    'Z',
    '5',
    '3.5',
    ' ',
    ' ',
    '  ',
    '\n',
    '-',
    "'",
    '’',
    ',',
    '.',
    '模型',
    '训练',
    '強化学習',
    'é',
    '😀',
    '👍🏽',
    'don’t',
    'K2.6',
    '_',
    '#',
    'x',
  ];
  let s = '';
  const n = Math.floor(next() * max);
  for (let i = 0; i < n; i++) s += pick(next, pieces);
  return s;
}

function claim(next: () => number, id: string): ClaimRecord {
  const start = Math.floor(next() * 50);
  return {
    schema: CLAIM_SCHEMA,
    id,
    model: pick(next, ['GLM-5', 'Qwen3.5', 'A']),
    recipe: pick(next, [null, 'MaxProof']),
    kind: 'algorithm',
    stage: null,
    value: 'GRPO',
    evidence: 'B',
    evidence_reason: null,
    quote: { exact: text(next, 8) || 'x', prefix: '', suffix: '' },
    position: next() < 0.3 ? null : { start, end: start + 5 },
    source: {
      url: pick(next, ['https://a.example/', 'https://b.example/']),
      title: 't',
      kind: 'official_blog',
      publisher: null,
      published: null,
      accessed: '2026-11-29',
    },
    link: null,
    note: pick(next, ['', 'n']),
    curator: '',
    created_at: '2026-11-29T10:00:00Z',
    updated_at: pick(next, ['2026-11-29T10:00:00Z', '2026-11-30T10:00:00Z']),
  } as ClaimRecord;
}

function model(next: () => number): ModelRecord {
  return {
    schema: 'rl-survey.model/1',
    model: pick(next, ['GLM-5', 'Qwen3.5', 'A']),
    recipe: pick(next, [null, 'MaxProof']),
    vendor: null,
    based_on: null,
    judgment: pick(next, ['', 'j']),
    updated_at: '2026-11-29T10:00:00Z',
  } as ModelRecord;
}

/** The definition the export follows: every distinct line once, ordered by the spec's record order, then by the line. */
function referenceLines(records: readonly SurveyRecord[]): string[] {
  const first = new Map<string, SurveyRecord>();
  for (const r of records) {
    const line = serializeRecord(r);
    if (!first.has(line)) first.set(line, r);
  }
  return [...first].sort(([la, a], [lb, b]) => compareRecords(a, b) || (la < lb ? -1 : la > lb ? 1 : 0)).map(([line]) => line);
}

describe('property: JSONL lines de-duplicated after sorting', () => {
  it('gives every distinct line once, in the spec order, whatever the duplicates and their order', () => {
    for (const seed of SEEDS) {
      const next = rng(seed);
      const claims: ClaimRecord[] = [];
      for (let i = Math.floor(next() * 25); i > 0; i--) {
        // Few ids, so the same id comes with the same or another content; some objects given twice, some copied.
        const c = claim(next, `id_${String(Math.floor(next() * 6)).padStart(6, '0')}`);
        claims.push(c);
        if (next() < 0.3) claims.push(next() < 0.5 ? c : { ...c, quote: { ...c.quote } });
      }
      const models: ModelRecord[] = [];
      for (let i = Math.floor(next() * 6); i > 0; i--) models.push(model(next));
      const expected = referenceLines([...claims, ...models]);
      const out = toJsonl(claims, models);
      expect(out, `seed ${seed}`).toBe(expected.length ? `${expected.join('\n')}\n` : '');
      expect(sortRecords([...claims, ...models]).map(serializeRecord), `seed ${seed}`).toEqual(expected);
    }
  });

  it('keeps the first given of two equal records', () => {
    const next = rng(1);
    const a = claim(next, 'id_000001');
    const b = { ...a, quote: { ...a.quote } };
    const [kept] = sortRecords([a, b]);
    expect(kept).toBe(a);
    expect(sortRecords([b, a])[0]).toBe(b);
  });
});

describe('property: the export with lines remembered per record', () => {
  const NOW = new Date('2026-12-01T12:00:00Z');
  /** Claims, some with their own link and some without, some given twice; and model records. */
  function records(next: () => number): { claims: ClaimRecord[]; models: ModelRecord[] } {
    const claims: ClaimRecord[] = [];
    for (let i = Math.floor(next() * 25); i > 0; i--) {
      const c = claim(next, `id_${String(Math.floor(next() * 8)).padStart(6, '0')}`);
      const linked = next() < 0.3 ? { ...c, link: `${c.source.url}#own` } : c;
      claims.push(linked);
      if (next() < 0.2) claims.push(linked);
    }
    const models: ModelRecord[] = [];
    for (let i = Math.floor(next() * 6); i > 0; i--) models.push(model(next));
    return { claims, models };
  }

  it('writes the same file as the plain export, cold, warmed, and for a part of the records after the whole', async () => {
    for (const seed of SEEDS) {
      const next = rng(seed);
      const data = records(next);
      const plain = buildExport('jsonl', data, { now: NOW }).text;
      const cache = new ExportLineCache();
      expect(buildExport('jsonl', data, { now: NOW, lines: cache }).text, `seed ${seed}, cold`).toBe(plain);
      await cache.warm([...data.claims, ...data.models]);
      expect(buildExport('jsonl', data, { now: NOW, lines: cache }).text, `seed ${seed}, warmed`).toBe(plain);
      const part = { claims: data.claims.filter((_, i) => i % 2 === 0), models: data.models.slice(1) };
      expect(buildExport('jsonl', part, { now: NOW, lines: cache }).text, `seed ${seed}, a part`).toBe(buildExport('jsonl', part, { now: NOW }).text);
    }
  });

  it('gives a changed record (a new object) its own line, and stops warming when aborted', async () => {
    const next = rng(3);
    const a = claim(next, 'id_000001');
    const cache = new ExportLineCache();
    const before = cache.line(a);
    const edited = { ...a, note: 'edited note' };
    expect(cache.line(edited)).not.toBe(before);
    expect(cache.line(edited)).toBe(serializeRecord({ ...edited, link: JSON.parse(before).link }));
    const many = Array.from({ length: 1000 }, (_, i) => claim(next, `id_${String(i).padStart(6, '0')}`));
    const stop = new AbortController();
    let slices = 0;
    await cache.warm(many, {
      signal: stop.signal,
      idle: async () => {
        slices += 1;
        stop.abort();
      },
    });
    expect(slices).toBe(1);
    expect(many.filter((r) => cache.has(r)).length).toBeLessThan(many.length);
    expect(cache.has(many[0]!)).toBe(true);
  });
});

describe('property: the word segment around one index', () => {
  it('is the segment a walk over the whole text meets there', () => {
    const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
    for (const seed of SEEDS) {
      const next = rng(seed);
      const s = text(next, 30);
      const walk = [...segmenter.segment(s)].map((seg) => ({ start: seg.index, end: seg.index + seg.segment.length }));
      for (let i = 0; i < s.length; i++) {
        const expected = walk.find((seg) => seg.start <= i && i < seg.end);
        expect(segmentAt(s, i), `seed ${seed}, index ${i} of ${JSON.stringify(s)}`).toEqual(expected);
      }
    }
  });
});

describe('text-directive encoding', () => {
  it('replaces lone surrogates and leaves pairs and plain text as encodeURIComponent does', () => {
    expect(encodeTextDirectivePart('a\uD800b')).toBe(`a${encodeURIComponent('\uFFFD')}b`);
    expect(encodeTextDirectivePart('\uDC00')).toBe(encodeURIComponent('\uFFFD'));
    expect(encodeTextDirectivePart('模型 😀-x')).toBe(encodeURIComponent('模型 😀-x').replace(/-/g, '%2D'));
  });
});

describe('property: Blob parts of a download', () => {
  it('join to the text, stay within the size and never split a surrogate pair', () => {
    for (const seed of SEEDS) {
      const next = rng(seed);
      const s = text(next, 400);
      const size = 2 + Math.floor(next() * 8);
      const parts = blobParts(s, size);
      expect(parts.join(''), `seed ${seed}`).toBe(s);
      for (const [i, part] of parts.entries()) {
        expect(part.length, `seed ${seed}`).toBeGreaterThan(0);
        expect(part.length, `seed ${seed}`).toBeLessThanOrEqual(size);
        if (i > 0) expect(part.charCodeAt(0) & 0xfc00, `seed ${seed}: a part starts with the second half of a pair`).not.toBe(0xdc00);
      }
    }
  });

  it('keeps the whole text in one part when it is short, and gives none for empty text', () => {
    expect(blobParts('abc')).toEqual(['abc']);
    expect(blobParts('')).toEqual([]);
  });
});
