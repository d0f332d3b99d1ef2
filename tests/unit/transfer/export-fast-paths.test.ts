// The export's fast paths give what the plain definitions give, over seeded random inputs (no extra
// packages): JSONL lines de-duplicated by neighbour instead of by hashing, word boundaries found around
// one index instead of by segmenting the whole text, downloads cut into Blob parts, lines remembered
// per record object, and files put together from parts of whole rows made ahead.
import { describe, expect, it } from 'vitest';
import { blobParts } from '../../../components/common/files';
import { encodeTextDirectivePart } from '../../../lib/export';
import { segmentAt } from '../../../lib/export/fragment';
import { buildExport, buildJsonlParts } from '../../../lib/export/files';
import { compareRecords, jsonlRows, serializeRecord, sortRecords, toJsonl } from '../../../lib/export/jsonl';
import { ExportLineCache } from '../../../lib/export/line-cache';
import { withLinks } from '../../../lib/export/links';
import { JsonlPartCache } from '../../../lib/export/part-cache';
import { CLAIM_SCHEMA, type ClaimRecord, type ModelRecord, type SurveyRecord } from '../../../lib/schema';
import { createRandom } from '../../../scripts/bench/harness/prng.mjs';
import { sourceRecord } from '../fixtures/records';

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

describe('property: the JSONL file put together from parts of whole rows', () => {
  const NOW = new Date('2026-12-01T12:00:00Z');
  /** A part as the tests make it: an object (so that a part used again is the same object) holding its text. */
  type TextPart = { text: string };
  const joined = (parts: ReadonlyArray<TextPart | string>) => parts.map((p) => (typeof p === 'string' ? p : p.text)).join('');
  const cacheOf = (partLength: number) => new JsonlPartCache<TextPart>((text) => ({ text }), { partLength });

  /** Claims over more models than the generator above (so a file has many rows), some given twice; and model records. */
  function records(next: () => number): { claims: ClaimRecord[]; models: ModelRecord[] } {
    const claims: ClaimRecord[] = [];
    for (let i = Math.floor(next() * 40); i > 0; i--) {
      const c = claim(next, `id_${String(Math.floor(next() * 30)).padStart(6, '0')}`);
      const spread = { ...c, model: `${c.model}-${Math.floor(next() * 5)}` };
      claims.push(spread);
      if (next() < 0.1) claims.push(spread);
    }
    const models: ModelRecord[] = [];
    for (let i = Math.floor(next() * 8); i > 0; i--) {
      const m = model(next);
      models.push({ ...m, model: `${m.model}-${Math.floor(next() * 5)}` });
    }
    return { claims, models };
  }

  it('cuts the file into rows that join to it', () => {
    for (const seed of SEEDS) {
      const { claims, models } = records(rng(seed));
      const rows = jsonlRows(claims, models);
      expect(rows.map((r) => r.lines.map((l) => `${l}\n`).join('')).join(''), `seed ${seed}`).toBe(toJsonl(claims, models));
      expect(new Set(rows.map((r) => r.key)).size, `seed ${seed}: a row twice`).toBe(rows.length);
      for (const row of rows) expect(new Set(row.records.map((r) => `${r.model}|${r.recipe ?? null}`)).size, `seed ${seed}`).toBe(1);
    }
  });

  it('writes the plain file, cold, again, warmed, and for random parts of the records in between', async () => {
    for (const seed of SEEDS) {
      const next = rng(seed);
      const data = records(next);
      const plain = toJsonl(withLinks(data.claims), data.models);
      const cache = cacheOf(1 + Math.floor(next() * 3000));
      expect(joined(cache.parts(data)), `seed ${seed}, cold`).toBe(plain);
      expect(joined(cache.parts(data)), `seed ${seed}, again`).toBe(plain);
      for (let k = 0; k < 3; k++) {
        const part = { claims: data.claims.filter(() => next() < 0.7), models: data.models.filter(() => next() < 0.7) };
        expect(joined(cache.parts(part)), `seed ${seed}, a part`).toBe(toJsonl(withLinks(part.claims), part.models));
      }
      const warmed = cacheOf(1 + Math.floor(next() * 3000));
      await warmed.warm(data);
      const made = warmed.stats().made;
      expect(joined(warmed.parts(data)), `seed ${seed}, warmed`).toBe(plain);
      expect(warmed.stats().made, `seed ${seed}: a part made again after warming`).toBe(made);
    }
  });

  it('ends with the source records, as the plain export does', () => {
    const next = rng(11);
    const data = { ...records(next), sources: [sourceRecord('https://b.example/'), sourceRecord('https://a.example/')] };
    const file = buildJsonlParts(data, cacheOf(500), { now: NOW });
    const plain = buildExport('jsonl', data, { now: NOW });
    expect(joined(file.parts)).toBe(plain.text);
    expect({ ...file, parts: undefined }).toEqual({ ...plain, text: undefined });
  });

  /** Six rows of three claims and a model record each, every row a part of its own (partLength 1). */
  function sixRows() {
    const next = rng(5);
    const claims: ClaimRecord[] = [];
    const models: ModelRecord[] = [];
    for (let row = 0; row < 6; row++) {
      for (let i = 0; i < 3; i++) claims.push({ ...claim(next, `id_${row}${i}`), model: `M${row}`, recipe: null });
      models.push({ ...model(next), model: `M${row}`, recipe: null });
    }
    return { claims, models };
  }

  it('uses a kept part again for the same record objects, and makes none anew', () => {
    const data = sixRows();
    const cache = cacheOf(1);
    const first = cache.parts(data);
    expect(first).toHaveLength(6);
    expect(cache.stats().made).toBe(6);
    // The same records in other arrays, in another order: the same parts.
    const again = cache.parts({ claims: [...data.claims].reverse(), models: [...data.models] });
    expect(again).toEqual(first);
    for (const [i, part] of again.entries()) expect(part).toBe(first[i]);
    expect(cache.stats().made).toBe(6);
  });

  it('makes a part anew when one of its records is a new object, and only that part', () => {
    const data = sixRows();
    const cache = cacheOf(1);
    const first = cache.parts(data);
    const claims = data.claims.map((c, i) => (i === 7 ? { ...c, note: 'edited' } : c));
    const second = cache.parts({ claims, models: data.models });
    expect(joined(second)).toBe(toJsonl(withLinks(claims), data.models));
    expect(cache.stats().made).toBe(7);
    expect(second.filter((p, i) => p !== first[i]).map((p) => second.indexOf(p))).toEqual([2]);
    expect(second[2]!.text).toContain('"note":"edited"');
    // An equal copy is a new object too: its row is made again (the cache compares objects, not contents).
    const copied = cache.parts({ claims: claims.map((c, i) => (i === 0 ? { ...c } : c)), models: data.models });
    expect(copied[0]).not.toBe(first[0]);
    expect(joined(copied)).toBe(joined(second));
  });

  it('puts the records given last in order once, and notices a list changed in place', () => {
    const data = sixRows();
    const cache = cacheOf(1);
    const first = cache.parts(data);
    // The same lists again; then one of them changed in place after it was given.
    expect(cache.parts(data)).toEqual(first);
    data.claims[4] = { ...data.claims[4]!, value: 'PPO' };
    data.models.pop();
    const out = cache.parts(data);
    expect(joined(out)).toBe(toJsonl(withLinks(data.claims), data.models));
    expect(out).toHaveLength(6);
    expect(out.filter((p, i) => p !== first[i])).toHaveLength(2);
  });

  it('uses kept parts inside a filtered file, and makes the rest of it', () => {
    const data = sixRows();
    const cache = cacheOf(1);
    const all = cache.parts(data);
    // Whole rows 1, 2 and 4: their parts as they are.
    const rows = (keep: number[]) => ({
      claims: data.claims.filter((c) => keep.includes(Number(c.model.slice(1)))),
      models: data.models.filter((m) => keep.includes(Number(m.model.slice(1)))),
    });
    const some = cache.parts(rows([1, 2, 4]));
    expect(some).toEqual([all[1], all[2], all[4]]);
    expect(some.every((p, i) => p === [all[1], all[2], all[4]][i])).toBe(true);
    expect(cache.stats().made).toBe(6);
    // Row 3 without one of its claims: that row is made, the others kept.
    const partial = { claims: data.claims.filter((c) => c !== data.claims[10]), models: data.models };
    const out = cache.parts(partial);
    expect(joined(out)).toBe(toJsonl(withLinks(partial.claims), partial.models));
    expect(cache.stats().made).toBe(7);
    expect(out.filter((p) => !all.includes(p))).toHaveLength(1);
    // Made once, that part is kept too.
    expect(cache.parts(partial)).toEqual(out);
    expect(cache.stats().made).toBe(7);
  });

  it('joins rows into parts up to the part length, and keeps parts within three times the largest file', () => {
    const data = sixRows();
    const rowLength = jsonlRows(withLinks(data.claims), data.models).map((r) => r.lines.reduce((n, l) => n + l.length + 1, 0));
    const cache = cacheOf(rowLength[0]! + rowLength[1]!);
    expect(cache.parts(data).length).toBeLessThan(6);
    const fileLength = rowLength.reduce((a, b) => a + b, 0);
    const next = rng(9);
    for (let k = 0; k < 40; k++) {
      const claims = data.claims.map((c) => (next() < 0.3 ? { ...c } : c));
      expect(joined(cache.parts({ claims, models: data.models }))).toBe(toJsonl(withLinks(claims), data.models));
      expect(cache.stats().length).toBeLessThanOrEqual(3 * fileLength);
    }
  });

  it('gives no part for no records, and an empty file', () => {
    const cache = cacheOf(100);
    expect(cache.parts({ claims: [], models: [] })).toEqual([]);
    const file = buildJsonlParts({ claims: [], models: [] }, cache, { now: NOW });
    expect(file.parts).toEqual([]);
    expect(buildExport('jsonl', { claims: [], models: [] }, { now: NOW }).text).toBe('');
    expect(cache.stats()).toEqual({ kept: 0, made: 0, length: 0 });
  });

  it('warms a part per slice after an idle moment (more while it has time left), and stops when aborted', async () => {
    const data = sixRows();
    const cache = cacheOf(1);
    const made: number[] = [];
    await cache.warm(data, {
      idle: async () => {
        made.push(cache.stats().made);
      },
    });
    expect(made[0]).toBe(0);
    expect(cache.stats().made).toBe(6);
    for (let i = 1; i < made.length; i++) expect(made[i]! - made[i - 1]!).toBeLessThanOrEqual(1);
    const before = cache.stats().made;
    cache.parts(data);
    expect(cache.stats().made).toBe(before);

    const stopped = cacheOf(1);
    const stop = new AbortController();
    await stopped.warm(data, {
      signal: stop.signal,
      idle: async () => {
        if (stopped.stats().made === 2) stop.abort();
      },
    });
    expect(stopped.stats().made).toBe(2);
    // An idle moment with time left goes on with the next slice in it; one without waits for the next.
    let waits = 0;
    const roomy = cacheOf(1);
    await roomy.warm(data, {
      idle: async () => {
        waits += 1;
        return () => 20;
      },
    });
    expect(waits).toBe(1);
    expect(roomy.stats().made).toBe(6);
    waits = 0;
    const tight = cacheOf(1);
    await tight.warm(data, {
      idle: async () => {
        waits += 1;
        return () => 3;
      },
    });
    expect(waits).toBeGreaterThanOrEqual(6);
    expect(tight.stats().made).toBe(6);

    const idle = new AbortController();
    idle.abort();
    const untouched = cacheOf(1);
    await untouched.warm(data, { signal: idle.signal, idle: async () => undefined });
    expect(untouched.stats().made).toBe(0);
    expect(data.claims.some((c) => untouched.lines.has(c))).toBe(false);
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
