// Issue 6, case 6 (unit part): hostile import files are refused with line-numbered errors or read whole,
// and nothing in them reaches an object's prototype. The options-page path is in tests/e2e/security.e2e.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { deleteDB } from 'idb';
import { parseImport } from '../../../lib/import/files';
import { MAX_JSON_DEPTH, parseJsonSafely, parseSurveyJsonl } from '../../../lib/import/jsonl';
import { MAX_IMPORT_BYTES } from '../../../lib/import/formats';
import { protocol } from '../../../lib/messages';
import { DB_NAME, allClaims, openRecipeDb, putClaims } from '../../../lib/db';
import { commitImport, previewImport } from '../../../entrypoints/background/transfer';
import { previewFile, type ImportApi } from '../../../components/options/importer';
import { claim, model } from '../fixtures/records';

const line = (value: unknown) => JSON.stringify(value);
const GOOD_MODEL = line(model({ model: 'Good-1' }));

afterEach(async () => {
  await deleteDB(DB_NAME);
  delete (Object.prototype as Record<string, unknown>).polluted;
});

describe('broken JSON, wrong types, unknown schema', () => {
  it('names every bad line and keeps none of the file', () => {
    const text = [
      GOOD_MODEL,
      '{not json',
      line({ ...claim(), evidence: 5, model: 42 }),
      line({ schema: 'rl-survey.claim/9', id: 'clm_future0001' }),
      '[1, 2, 3]',
      '"just a string"',
      line({ ...claim({ id: 'clm_nulls00001' }), quote: null }),
      '',
      line({ model: 'no schema' }),
    ].join('\n');
    const parsed = parseImport(text, 'jsonl');
    expect(parsed.errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6, 7, 9]);
    const byLine = new Map(parsed.errors.map((e) => [e.line, e.message]));
    expect(byLine.get(2)).toMatch(/^not valid JSON/);
    expect(byLine.get(3)).toMatch(/model: .*string.*; .*evidence/s);
    expect(byLine.get(4)).toMatch(/unknown schema "rl-survey.claim\/9"/);
    expect(byLine.get(5)).toBe('expected a JSON object');
    expect(byLine.get(6)).toBe('expected a JSON object');
    expect(byLine.get(7)).toMatch(/^quote:/);
    expect(byLine.get(9)).toMatch(/missing "schema"/);
  });

  it('refuses a javascript: URL as a source and as a link', () => {
    const parsed = parseSurveyJsonl(
      [
        line({ ...claim({ id: 'clm_jsurl00001' }), source: { ...claim().source, url: 'javascript:alert(1)' } }),
        line(claim({ id: 'clm_jslink0001', link: 'javascript:alert(document.domain)' })),
        line(claim({ id: 'clm_datalink01', link: 'data:text/html,<script>alert(1)</script>' })),
        line(claim({ id: 'clm_oklink0001', link: 'https://example.org/zeta-2-report#:~:text=GRPO' })),
      ].join('\n'),
    );
    expect(parsed.errors).toEqual([
      { line: 1, message: 'source.url: must be an absolute http(s) URL' },
      { line: 2, message: 'link: must be an absolute http(s) URL' },
      { line: 3, message: 'link: must be an absolute http(s) URL' },
    ]);
    expect(parsed.records.map((r) => (r as { id: string }).id)).toEqual(['clm_oklink0001']);
  });
});

describe('__proto__, constructor and prototype keys', () => {
  it('are dropped wherever they appear, written plainly or escaped, and reach no prototype', () => {
    const text = [
      `{"__proto__":{"polluted":"yes"},${GOOD_MODEL.slice(1)}`,
      `{"constructor":{"prototype":{"polluted":"yes"}},${line(model({ model: 'Good-2' })).slice(1)}`,
      `{"\\u005f\\u005fproto\\u005f\\u005f":{"polluted":"yes"},${line(model({ model: 'Good-3' })).slice(1)}`,
      line({ ...claim(), quote: { ...claim().quote, __proto__: { polluted: 'yes' } }, source: JSON.parse('{"__proto__":{"polluted":"yes"}}') }),
    ].join('\n');
    const parsed = parseSurveyJsonl(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parsed.records).toHaveLength(3);
    expect(parsed.errors.map((e) => e.line)).toEqual([4]); // the claim's source lost its only (forbidden) key
    for (const record of parsed.records) {
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
      expect(Object.keys(record)).not.toContain('__proto__');
      expect(Object.keys(record)).not.toContain('constructor');
      expect((record as Record<string, unknown>).polluted).toBeUndefined();
    }
    expect(parseJsonSafely('{"a":{"constructor":{"prototype":{"x":1}}}}')).toEqual({ a: {} });
  });
});

describe('size: 50 MB, 100,000 lines', () => {
  it('refuses a 50 MB file before reading it, and the background refuses text over the limit', async () => {
    let read = false;
    const big = new File([new Uint8Array(50 * 1024 * 1024)], 'huge.jsonl');
    Object.defineProperty(big, 'text', { value: () => ((read = true), Promise.resolve('')) });
    const api: ImportApi = {
      call: () => Promise.reject(new Error('must not be asked')),
    };
    const job = await previewFile(api, big, { format: 'auto', mode: 'merge' });
    expect(read).toBe(false);
    expect(job.preview).toBeNull();
    expect(job.failure).toBe('the file is 50.0 MB; the limit is 32 MB — split it into smaller files and import them one by one');
    const overLimit = protocol['import.preview'].request.safeParse({
      text: 'x'.repeat(MAX_IMPORT_BYTES + 1),
      fileName: 'huge.jsonl',
      format: 'jsonl',
      mode: 'merge',
    });
    expect(overLimit.success).toBe(false);
  });

  it('reads 100,000 lines whole, and names the one bad line among them', () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => line(model({ model: `Model-${i}` })));
    const whole = parseImport(lines.join('\n'), 'jsonl');
    expect(whole.errors).toEqual([]);
    expect(whole.records).toHaveLength(100_000);
    expect(whole.items).toBe(100_000);
    lines[99_996] = lines[99_996]!.replace('"updated_at":"2026-11-29T10:05:00Z"', '"updated_at":"yesterday"');
    const broken = parseImport(lines.join('\n'), 'jsonl');
    expect(broken.errors).toEqual([{ line: 99_997, message: expect.stringMatching(/^updated_at: must be an RFC 3339/) }]);
  }, 60_000);
});

describe('deeply nested values', () => {
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it(`are refused past ${MAX_JSON_DEPTH} levels, by line, in every format — before they can overflow a later store or export`, () => {
    const deep = `{"schema":"rl-survey.model/1","model":"Deep","updated_at":"2026-11-29T10:05:00Z","extra":${nested(100_000)}}`;
    const jsonl = parseImport([GOOD_MODEL, deep].join('\n'), 'jsonl');
    expect(jsonl.errors).toEqual([{ line: 2, message: expect.stringMatching(new RegExp(`nested more than ${MAX_JSON_DEPTH} levels deep`)) }]);
    const backup = parseImport(`{"format":"recipe-lens-backup/1",\n"records":[\n${deep}],"sources":[]}`, 'backup');
    expect(backup.records).toEqual([]);
    expect(backup.errors).toEqual([{ line: 3, message: expect.stringMatching(/nested more than/) }]);
    const w3c = parseImport(`[\n{"type":"Annotation","body":${nested(5000)}}]`, 'w3c');
    expect(w3c.records).toEqual([]);
    expect(w3c.errors).toEqual([{ line: 2, message: expect.stringMatching(/nested more than/) }]);
  });

  it('are read when shallow enough, and brackets inside strings do not count', () => {
    const fine = `{"schema":"rl-survey.model/1","model":"Nested","updated_at":"2026-11-29T10:05:00Z","extra":${nested(MAX_JSON_DEPTH - 1)},"judgment":"${'['.repeat(500)}\\"{{{"}`;
    const parsed = parseSurveyJsonl(fine);
    expect(parsed.errors).toEqual([]);
    expect(() => JSON.stringify(parsed.records[0])).not.toThrow();
    expect(() => structuredClone(parsed.records[0])).not.toThrow();
  });
});

describe('the background keeps the store untouched by a refused file', () => {
  it('previews a hostile file without a token and stores nothing; a good file is stored whole', async () => {
    const db = await openRecipeDb();
    const existing = [claim({ id: 'clm_existing01' }), claim({ id: 'clm_existing02', value: 'PPO' })];
    await putClaims(db, existing);
    const hostile = [line(claim({ id: 'clm_incoming1' })), '{"schema":"rl-survey.claim/1",', line(model({ model: 'Good-9' }))].join('\n');
    const preview = await previewImport(db, { text: hostile, fileName: 'hostile.jsonl', format: 'jsonl', mode: 'merge' });
    expect(preview.token).toBeNull();
    expect(preview.errors).toEqual([{ line: 2, message: expect.stringMatching(/^not valid JSON/) }]);
    // A commit sent anyway (forged token, the text along) is refused and stores nothing.
    await expect(
      commitImport(db, { token: 'forged', text: hostile, fileName: 'hostile.jsonl', format: 'jsonl', mode: 'merge', resolutions: [], rest: 'mine' }),
    ).rejects.toThrow(/1 bad line.*nothing was stored/);
    expect(await allClaims(db)).toEqual(existing);
    expect(await db.count('models')).toBe(0);

    const good = [line(claim({ id: 'clm_incoming1' })), line(model({ model: 'Good-9' }))].join('\n');
    const ok = await previewImport(db, { text: good, fileName: 'good.jsonl', format: 'jsonl', mode: 'merge' });
    const outcome = await commitImport(db, { token: ok.token!, fileName: 'good.jsonl', format: 'jsonl', mode: 'merge', resolutions: [], rest: 'mine' });
    expect(outcome).toMatchObject({ status: 'stored', added: 2 });
    expect((await allClaims(db)).map((c) => c.id).sort()).toEqual(['clm_existing01', 'clm_existing02', 'clm_incoming1']);
    db.close();
  });
});
