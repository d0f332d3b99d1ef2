// Property tests over records from a seeded generator (no extra packages): the same seeds every run.
import { describe, expect, it } from 'vitest';
import { escapeMarkdown, fromW3cAnnotations, renderSurveyTable, serializeRecord, textFragmentLink, toJsonl, toW3cAnnotations } from '../../../lib/export';
import { parseSurveyJsonl } from '../../../lib/import/jsonl';
import { mergeFiles } from '../../../lib/import/merge';
import {
  CLAIM_KINDS,
  CLAIM_SCHEMA,
  ClaimRecord,
  EVIDENCE_LEVELS,
  MODEL_SCHEMA,
  ModelRecord,
  SOURCE_KINDS,
  STAGES,
  type SurveyRecord,
} from '../../../lib/schema';
import { deriveRows } from '../../../lib/survey';
import { rng } from '../../support/random';

class Gen {
  constructor(readonly next: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
  text(min: number, max: number): string {
    const pieces = [
      'a',
      'Z',
      '5',
      ' ',
      ' ',
      '-',
      '|',
      '<',
      '>',
      '&',
      '"',
      ',',
      '=',
      '+',
      '@',
      '\n',
      '\t',
      '\\',
      '`',
      '*',
      '_',
      '[',
      ']',
      '(',
      ')',
      '模',
      '型',
      'é',
      '😀',
      "'",
      ';',
      '#',
      'GRPO',
      'RL ',
    ];
    let s = '';
    const n = this.int(min, max);
    while ([...s].length < n) s += this.pick(pieces);
    return s;
  }
  nonBlank(max: number): string {
    const s = this.text(1, max).trim();
    return s === '' ? 'x' : s;
  }
  id(): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
    let s = '';
    const n = this.int(8, 16);
    while (s.length < n) s += alphabet[this.int(0, alphabet.length - 1)];
    return s;
  }
  timestamp(): string {
    return this.pick(['2026-11-29T10:00:00Z', '2026-11-29T10:00:00.500Z', '2026-11-30T00:00:00Z', '2025-01-01T00:00:00Z']);
  }
}

const MODELS = ['GLM-5', 'GLM-5.2', 'Qwen3.5', 'MiniMax M3', 'Kimi K2.6', 'A|B <x>', '=cmd()', '-minus', '模型 1', 'Zeta  2'];
const RECIPES = ['MaxProof', 'Coder', '@home'];
const URLS = ['https://a.example/', 'https://a.example/p?q=1', 'https://b.example/x y', 'http://c.example/模型'];

function maybe<T>(g: Gen, value: () => T, pNull = 0.3, pMissing = 0.2): T | null | undefined {
  const r = g.next();
  if (r < pMissing) return undefined;
  if (r < pMissing + pNull) return null;
  return value();
}

function unknownValue(g: Gen): unknown {
  return g.pick([1, 'x', true, null, { b: 1, a: [1, 'two'] }, [g.text(0, 5)]]);
}

function rawClaim(g: Gen, id = g.id()): Record<string, unknown> {
  const rec: Record<string, unknown> = {};
  if (g.chance(0.2)) rec.x_first = unknownValue(g);
  Object.assign(rec, {
    schema: CLAIM_SCHEMA,
    id,
    model: g.pick(MODELS),
    recipe: maybe(g, () => g.pick(RECIPES), 0.5),
    kind: g.pick(CLAIM_KINDS),
    stage: maybe(g, () => g.pick(STAGES)),
    value: g.nonBlank(30),
    evidence: g.pick(EVIDENCE_LEVELS),
    evidence_reason: maybe(g, () => g.text(0, 20)),
    quote: { exact: g.nonBlank(80), prefix: g.text(0, 40), suffix: g.text(0, 40), ...(g.chance(0.1) ? { z_extra: unknownValue(g) } : {}) },
    position: maybe(g, () => {
      const start = g.int(0, 5000);
      return { start, end: start + g.int(0, 300) };
    }),
    source: {
      url: g.pick(URLS),
      title: g.text(0, 30),
      kind: g.pick(SOURCE_KINDS),
      publisher: maybe(g, () => g.text(0, 10)),
      published: maybe(g, () => '2026-10-01'),
      accessed: g.pick(['2026-11-29', '2026-06-01', '2025-12-31']),
      ...(g.chance(0.1) ? { mirror: unknownValue(g) } : {}),
    },
    link: maybe(g, () => 'https://a.example/#:~:text=x'),
    created_at: g.timestamp(),
    updated_at: g.timestamp(),
  });
  if (g.chance(0.7)) rec.note = g.text(0, 20);
  if (g.chance(0.7)) rec.curator = g.text(0, 8);
  if (g.chance(0.2)) rec.x_last = unknownValue(g);
  return g.chance(0.3) ? Object.fromEntries(g.shuffle(Object.entries(rec))) : rec;
}

function rawModel(g: Gen): Record<string, unknown> {
  const rec: Record<string, unknown> = {
    schema: MODEL_SCHEMA,
    model: g.pick(MODELS),
    recipe: maybe(g, () => g.pick(RECIPES), 0.5),
    vendor: maybe(g, () => g.text(0, 10)),
    based_on: maybe(g, () => g.pick(MODELS)),
    updated_at: g.timestamp(),
  };
  if (g.chance(0.7)) rec.judgment = g.text(0, 60);
  if (g.chance(0.2)) rec.x_extra = unknownValue(g);
  return g.chance(0.3) ? Object.fromEntries(g.shuffle(Object.entries(rec))) : rec;
}

/** A store: valid records as the background keeps them (parsed by the schema), unique ids and (model, recipe). */
function store(g: Gen): { claims: ClaimRecord[]; models: ModelRecord[] } {
  const claims = new Map<string, ClaimRecord>();
  const models = new Map<string, ModelRecord>();
  for (let i = g.int(0, 12); i > 0; i--) {
    const c = ClaimRecord.parse(rawClaim(g));
    claims.set(c.id, c);
  }
  for (let i = g.int(0, 4); i > 0; i--) {
    const m = ModelRecord.parse(rawModel(g));
    models.set(`${m.model}\u0000${m.recipe ?? ''}`, m);
  }
  return { claims: [...claims.values()], models: [...models.values()] };
}

const SEEDS = Array.from({ length: 150 }, (_, i) => 1000 + i);

describe('property: JSONL export', () => {
  it('export → parse → export is byte-identical, whatever the input order', () => {
    for (const seed of SEEDS) {
      const g = new Gen(rng(seed));
      const { claims, models } = store(g);
      const first = toJsonl(claims, models);
      const parsed = parseSurveyJsonl(first);
      expect(parsed.errors, `seed ${seed}`).toEqual([]);
      expect(parsed.records, `seed ${seed}`).toHaveLength(claims.length + models.length);
      const again = toJsonl(
        parsed.records.filter((r): r is ClaimRecord => r.schema === CLAIM_SCHEMA),
        parsed.records.filter((r): r is ModelRecord => r.schema === MODEL_SCHEMA),
      );
      expect(again, `seed ${seed}`).toBe(first);
      expect(toJsonl(g.shuffle(claims), g.shuffle(models)), `seed ${seed}`).toBe(first);
      expect(first === '' || (first.endsWith('\n') && !first.includes('\r') && !/ \n/.test(first)), `seed ${seed}`).toBe(true);
    }
  });
});

describe('property: merging files', () => {
  /** Files sharing a few ids, so versions collide (same and different timestamps). */
  function files(g: Gen): SurveyRecord[][] {
    const ids = Array.from({ length: 4 }, () => g.id());
    const lists: SurveyRecord[][] = [];
    for (let f = g.int(1, 4); f > 0; f--) {
      const list: SurveyRecord[] = [];
      for (let i = g.int(0, 6); i > 0; i--) {
        if (g.chance(0.75)) list.push(ClaimRecord.parse(rawClaim(g, g.pick(ids))));
        else list.push(ModelRecord.parse(rawModel(g)));
      }
      if (lists.length > 0 && g.chance(0.5)) list.push(...g.pick(lists).slice(0, 2)); // shared copies
      lists.push(list);
    }
    return lists;
  }

  it('is independent of the order of files and of records within them', () => {
    for (const seed of SEEDS) {
      const g = new Gen(rng(seed));
      const lists = files(g);
      for (const prefer of [undefined, 'newer'] as const) {
        const one = mergeFiles(lists, { prefer });
        const two = mergeFiles(
          g.shuffle(lists).map((l) => g.shuffle(l)),
          { prefer },
        );
        expect(two, `seed ${seed}`).toEqual(one);
      }
    }
  });

  it('is idempotent: merging the result, alone or with itself, gives it back without conflicts', () => {
    for (const seed of SEEDS) {
      const g = new Gen(rng(seed));
      const lists = files(g);
      for (const prefer of [undefined, 'newer'] as const) {
        const { records } = mergeFiles(lists, { prefer });
        expect(mergeFiles([records], { prefer }), `seed ${seed}`).toEqual({ records, conflicts: [] });
        expect(mergeFiles([records, g.shuffle(records)], { prefer }), `seed ${seed}`).toEqual({ records, conflicts: [] });
      }
    }
  });
});

/** Minimal RFC 4180 reader. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      rows.push([...row, field]);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  return rows;
}

describe('property: every valid store renders', () => {
  it('renders md, csv and json in both languages without throwing, each row intact and containing its model, each footnote whole', () => {
    for (const seed of SEEDS) {
      const g = new Gen(rng(seed));
      const { claims, models } = store(g);
      const rows = deriveRows(claims, models, { now: '2026-12-01T00:00:00Z' });
      for (const lang of ['en', 'zh'] as const) {
        const md = renderSurveyTable(rows, { format: 'md', lang });
        const lines = md.split('\n');
        const tableLines = lines.slice(0, 2 + rows.length);
        for (const line of tableLines) {
          expect(line.match(/(?<!\\)\|/g), `seed ${seed}: ${line}`).toHaveLength(7);
          expect(line, `seed ${seed}`).not.toMatch(/</);
        }
        for (const row of rows) expect(md, `seed ${seed}`).toContain(escapeMarkdown(row.model));
        // Each footnote on one line: its number (1…n in order), escaped words and one http(s) link; every one cited;
        // the same table whatever the order of the records.
        const notes = md.split('\n').filter((l) => l.startsWith('[^'));
        notes.forEach((line, i) => {
          expect(line, `seed ${seed}`).toMatch(new RegExp(`^\\[\\^${i + 1}\\]: [^<>]* ?<https?://[^<>\\s]+>$`));
        });
        const body = md
          .split('\n')
          .filter((l) => l.startsWith('| '))
          .join('\n');
        const cited = new Set([...body.matchAll(/\[\^(\d+)\]/g)].map((m) => Number(m[1])));
        expect(cited.size, `seed ${seed}`).toBe(notes.length);
        expect(
          renderSurveyTable(deriveRows(g.shuffle(claims), g.shuffle(models), { now: '2026-12-01T00:00:00Z' }), { format: 'md', lang }),
          `seed ${seed}`,
        ).toBe(md);

        const csv = readCsv(renderSurveyTable(rows, { format: 'csv', lang }));
        expect(csv, `seed ${seed}`).toHaveLength(rows.length + 1);
        for (const r of csv) {
          expect(r, `seed ${seed}`).toHaveLength(7);
          for (const cell of r) expect(cell, `seed ${seed}`).not.toMatch(/^[=+\-@\t\r]/);
        }
        const firstColumn = csv.slice(1).map((r) => r[0]!.replace(/^'/, ''));
        for (const row of rows)
          expect(
            firstColumn.some((c) => c.startsWith(row.model.replace(/\s+/g, ' '))),
            `seed ${seed}`,
          ).toBe(true);

        const json = JSON.parse(renderSurveyTable(rows, { format: 'json', lang })) as { rows: Array<{ model: string }> };
        expect(json.rows.map((r) => r.model).sort(), `seed ${seed}`).toEqual(rows.map((r) => r.model).sort());
      }
    }
  });
});

describe('property: tombstones', () => {
  it('renders a store with tombstones exactly as the store without them', () => {
    for (const seed of SEEDS) {
      const g = new Gen(rng(seed));
      const { claims, models } = store(g);
      const dead = new Set(claims.filter(() => g.chance(0.4)).map((c) => c.id));
      const marked = claims.map((c) => (dead.has(c.id) ? { ...c, deleted_at: c.updated_at } : c));
      const live = claims.filter((c) => !dead.has(c.id));
      for (const format of ['md', 'csv', 'json'] as const) {
        const now = { now: '2026-12-01T00:00:00Z' };
        expect(renderSurveyTable(deriveRows(marked, models, now), { format, lang: 'zh' }), `seed ${seed}`).toBe(
          renderSurveyTable(deriveRows(live, models, now), { format, lang: 'zh' }),
        );
      }
    }
  });
});

describe('property: W3C annotations', () => {
  it('claims → annotations → claims is lossless', () => {
    for (const seed of SEEDS) {
      const g = new Gen(rng(seed));
      const { claims } = store(g);
      const doc = JSON.parse(JSON.stringify(toW3cAnnotations(g.shuffle(claims)))) as unknown;
      const back = fromW3cAnnotations(doc);
      expect(back.errors, `seed ${seed}`).toEqual([]);
      expect(back.records.map(serializeRecord), `seed ${seed}`).toEqual(
        toJsonl(claims, [])
          .split('\n')
          .filter((l) => l !== ''),
      );
    }
  });
});

describe('property: text-fragment links', () => {
  it('always gives a parseable URL whose directive parts decode to text around the passage', () => {
    for (const seed of SEEDS) {
      const g = new Gen(rng(seed));
      for (let i = 0; i < 5; i++) {
        const exact = g.nonBlank(g.chance(0.2) ? 400 : 40);
        const prefix = g.text(0, 40);
        const suffix = g.text(0, 40);
        const page = g.chance(0.5) ? `${g.text(0, 50)}${prefix}${exact}${suffix}${g.chance(0.5) ? exact : ''}` : undefined;
        const link = textFragmentLink('https://a.example/p?q=1', { exact, prefix, suffix }, page);
        expect(() => new URL(link), `seed ${seed}`).not.toThrow();
        const [, directive] = link.split('#:~:text=') as [string, string];
        const parts = directive.split(',');
        expect(parts.length, `seed ${seed}`).toBeGreaterThanOrEqual(1);
        expect(parts.length, `seed ${seed}`).toBeLessThanOrEqual(4);
        const around = `${prefix}${exact}${suffix}`.replace(/\s+/g, ' ');
        for (const part of parts) {
          const bare = part.replace(/^-/, '').replace(/-$/, '');
          expect(bare, `seed ${seed}`).not.toMatch(/[-,&\s#]/);
          expect(around, `seed ${seed}`).toContain(decodeURIComponent(bare));
        }
      }
    }
  });
});
