import { describe, expect, it } from 'vitest';
import { toJsonl, toW3cAnnotations } from '../../../lib/export';
import { toBackup } from '../../../lib/backup';
import { detectFormat, MAX_IMPORT_BYTES, parseImport, parseImportParts, tooLargeMessage } from '../../../lib/import/files';
import { parseJsonSafely } from '../../../lib/import/jsonl';
import { childPath, jsonValueLines, lineAt, syntaxErrorLine } from '../../../lib/import/locate';
import type { ClaimRecord } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';

const a = claim({ id: 'clm_a0000001' });
const b = claim({ id: 'clm_b0000001', value: 'GSPO' });

describe('parsing safely', () => {
  it('drops keys that reach a prototype, written plainly or with escapes, and pollutes nothing', () => {
    const texts = [
      '{"a":1,"__proto__":{"polluted":true}}',
      '{"a":1,"\\u005f_proto__":{"polluted":true}}',
      '{"a":1,"constructor":{"prototype":{"polluted":true}}}',
    ];
    for (const text of texts) {
      const value = parseJsonSafely(text) as Record<string, unknown>;
      expect(value.a).toBe(1);
      expect(Object.keys(value)).toEqual(['a']);
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('parses text without such keys as JSON.parse does', () => {
    const text = JSON.stringify({ schema: 'x', nested: { list: [1, 'two', null] }, cjk: '未公开' });
    expect(parseJsonSafely(text)).toEqual(JSON.parse(text));
  });

  it('imports a record carrying prototype keys without them and without polluting', () => {
    const line = JSON.stringify(a).replace('{', '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},');
    const parsed = parseImport(`${line}\n`, 'jsonl');
    expect(parsed.errors).toEqual([]);
    expect(Object.hasOwn(parsed.records[0]!, '__proto__')).toBe(false);
    expect(Object.hasOwn(parsed.records[0]!, 'constructor')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('parseImport', () => {
  it('reads JSONL, names bad lines, and refuses an empty file', () => {
    const text = `${JSON.stringify(a)}\n{"schema":"rl-survey.claim/1","id":"short"}\n\n{oops\n`;
    const parsed = parseImport(text, 'jsonl');
    expect(parsed.records).toHaveLength(1);
    expect(parsed.errors.map((e) => e.line)).toEqual([2, 4]);
    expect(parsed.errors[1]!.message).toMatch(/not valid JSON/);
    expect(parseImport('\n  \n', 'jsonl').errors).toEqual([{ line: 0, message: 'the file holds no records' }]);
    expect(parseImport(`\uFEFF${JSON.stringify(a)}\n`, 'jsonl').records).toHaveLength(1);
  });

  it('reads W3C annotations back to the same claims', () => {
    const text = JSON.stringify(toW3cAnnotations([b, a]), null, 2);
    const parsed = parseImport(text, 'w3c');
    expect(parsed.errors).toEqual([]);
    expect(parsed.items).toBe(2);
    expect(toJsonl(parsed.records as ClaimRecord[])).toBe(toJsonl([a, b]));
  });

  it('names a bad annotation by the line it starts on', () => {
    const doc = toW3cAnnotations([a, b]);
    const body = JSON.parse(doc.first.items[1]!.body[0]!.value) as Record<string, unknown>;
    doc.first.items[1]!.body[0]!.value = JSON.stringify({ ...body, evidence: 'Z' });
    const text = JSON.stringify(doc, null, 2);
    const parsed = parseImport(text, 'w3c');
    expect(parsed.records).toHaveLength(1);
    expect(parsed.errors).toHaveLength(1);
    const expected = text.split('\n').findIndex((l) => l.includes(`"id": "urn:rl-survey:claim:${b.id}"`)); // the line after the `{`
    expect(parsed.errors[0]!.line).toBe(expected);
    expect(parsed.errors[0]!.message).toMatch(/^annotation 2: evidence/);
  });

  it('names the line of a JSON syntax error in a W3C file', () => {
    const parsed = parseImport('{\n  "type": "AnnotationCollection",\n  "first": [ oops ]\n}', 'w3c');
    expect(parsed.records).toEqual([]);
    expect(parsed.errors[0]!.line).toBe(3);
  });

  it('reads a backup, and names a bad record by its line', () => {
    const text = toBackup({ claims: [a, b], models: [model()], sources: [] }, '2026-11-29T10:00:00Z');
    const good = parseImport(text, 'backup');
    expect(good.errors).toEqual([]);
    expect(good.records).toHaveLength(3);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes(b.id));
    lines[at] = lines[at]!.replace('"evidence":"A"', '"evidence":"Q"');
    const bad = parseImport(lines.join('\n'), 'backup');
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0]!.line).toBe(at + 1);
    expect(bad.errors[0]!.message).toMatch(/^record \d: evidence/);
    expect(parseImport('{"format":"something else"}', 'backup').errors[0]!.message).toMatch(/not a Recipe Lens backup/);
  });
});

describe('parseImportParts', () => {
  /** `text` cut at these positions, as an async sequence of parts. */
  async function* cut(text: string, at: readonly number[]): AsyncGenerator<string> {
    let start = 0;
    for (const end of [...at, text.length]) {
      yield text.slice(start, end);
      start = end;
    }
  }

  it('gives what parseImport gives for the parts joined, wherever they are cut (bad lines named in the whole file)', async () => {
    const good = toJsonl(Array.from({ length: 3000 }, (_, i) => claim({ id: `clm_parts_${String(i).padStart(5, '0')}` })));
    const lines = good.split('\n');
    lines.splice(1200, 0, '', '{"schema":"rl-survey.claim/1","id":"bad"}', 'not json\r', '   ');
    lines.splice(2900, 0, '{"schema":"nope"}');
    const text = `\uFEFF${lines.join('\r\n').replace(/\r\r/g, '\r')}`;
    expect(text.length).toBeGreaterThan(1_500_000);
    const whole = parseImport(text, 'jsonl');
    expect(whole.errors.map((e) => e.line)).toEqual([1202, 1203, 2901]);
    for (const at of [[], [0, 1], [1, 2, 700_001], [524_288, 524_289, 1_048_577], [100, 900_000, 900_001, 1_400_000]]) {
      expect(await parseImportParts(cut(text, at), 'jsonl')).toEqual(whole);
    }
  });

  it('reads the other formats whole, and refuses an empty JSONL file as parseImport does', async () => {
    const claims = [claim()];
    const w3c = JSON.stringify(toW3cAnnotations(claims));
    expect(await parseImportParts(cut(w3c, [5, 17]), 'w3c')).toEqual(parseImport(w3c, 'w3c'));
    expect(await parseImportParts(cut('\n\n', [1]), 'jsonl')).toEqual(parseImport('\n\n', 'jsonl'));
    expect((await parseImportParts(cut('', []), 'jsonl')).errors).toEqual([{ line: 0, message: 'the file holds no records' }]);
  });
});

describe('detectFormat', () => {
  it('tells JSONL, W3C and backups apart', () => {
    expect(detectFormat(toJsonl([a]), 'x.json')).toBe('jsonl');
    expect(detectFormat('anything', 'records.jsonl')).toBe('jsonl');
    expect(detectFormat(JSON.stringify(toW3cAnnotations([a]), null, 2), 'a.jsonld')).toBe('w3c');
    expect(detectFormat(JSON.stringify(toW3cAnnotations([a])), 'a.json')).toBe('w3c');
    expect(detectFormat(toBackup({ claims: [a], models: [], sources: [] }, '2026-11-29T10:00:00Z'), 'b.json')).toBe('backup');
  });
});

describe('locating values in JSON', () => {
  it('gives the line each object and array starts on, by path', () => {
    const text = '{\n  "a": [\n    {"x": 1},\n    {"y": "a\\"b"}\n  ],\n  "b": {"c": []}\n}';
    const lines = jsonValueLines(text);
    expect(lines.get('$')).toBe(1);
    expect(lines.get(childPath('$', 'a'))).toBe(2);
    expect(lines.get(childPath(childPath('$', 'a'), 1))).toBe(4);
    expect(lines.get(childPath(childPath('$', 'b'), 'c'))).toBe(6);
  });

  it('reads lines from JSON.parse errors and offsets', () => {
    expect(lineAt('a\nb\nc', 4)).toBe(3);
    expect(syntaxErrorLine('x', new SyntaxError('Unexpected token in JSON at position 4'))).toBe(1);
    expect(syntaxErrorLine('ab\ncd', new SyntaxError('bad (line 2 column 1)'))).toBe(2);
    expect(syntaxErrorLine('{"a": 1}', new Error('no place'))).toBe(0);
    expect(syntaxErrorLine('{"a":\n tru}', new Error('no place'))).toBe(2);
  });
});

describe('the size limit', () => {
  it('is stated in the refusal', () => {
    expect(tooLargeMessage(MAX_IMPORT_BYTES + 1)).toMatch(/limit is 32 MB/);
    expect(tooLargeMessage(40 * 1024 * 1024)).toMatch(/40\.0 MB/);
  });
});
