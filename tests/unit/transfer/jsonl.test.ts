import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonSafely, parseSurveyJsonl } from '../../../lib/import/jsonl';
import { claim, model } from '../fixtures/records';

const line = (value: unknown) => JSON.stringify(value);

describe('parseSurveyJsonl', () => {
  it('reads claims and model records, ignoring blank lines and CRLF', () => {
    const text = `${line(claim())}\r\n\n${line(model())}\n`;
    const parsed = parseSurveyJsonl(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.records).toHaveLength(2);
    expect(parsed.lines).toBe(2);
  });

  it('names the line of every problem', () => {
    const text = [
      line(claim()),
      '{broken',
      line({ ...claim(), schema: 'rl-survey.claim/9' }),
      line({ ...claim(), kind: 'vibes' }),
      '[1,2]',
      line({ id: 'x' }),
    ].join('\n');
    const { errors, records } = parseSurveyJsonl(text);
    expect(records).toHaveLength(1);
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4, 5, 6]);
    expect(errors[0]!.message).toMatch(/not valid JSON/);
    expect(errors[1]!.message).toMatch(/unknown schema "rl-survey.claim\/9"/);
    expect(errors[2]!.message).toMatch(/^kind:/);
    expect(errors[3]!.message).toBe('expected a JSON object');
    expect(errors[4]!.message).toMatch(/missing "schema"/);
  });

  it('drops keys that could reach a prototype', () => {
    const hostile =
      '{"schema":"rl-survey.model/1","model":"X","updated_at":"2026-11-29T10:00:00Z","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
    const { records, errors } = parseSurveyJsonl(hostile);
    expect(errors).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(records[0], '__proto__')).toBe(false);
    expect(parseJsonSafely('{"a":{"__proto__":{"x":1}}}')).toEqual({ a: {} });
  });
});

describe('parseJsonSafely: the depth limit', () => {
  const nested = (depth: number, inner = '1') => `${'{"a":['.repeat(depth / 2)}${inner}${']}'.repeat(depth / 2)}`;

  it('accepts values exactly MAX_JSON_DEPTH deep and refuses one level more, with or without text that needs the reviver', () => {
    for (const inner of ['1', '"\\u0041"', '{"constructor":1}']) {
      const extra = inner.startsWith('{') ? 1 : 0;
      expect(() => parseJsonSafely(nested(MAX_JSON_DEPTH - extra, inner))).not.toThrow();
      expect(() => parseJsonSafely(nested(MAX_JSON_DEPTH + 2 - extra, inner))).toThrow(new RegExp(`nested more than ${MAX_JSON_DEPTH} levels deep`));
    }
  });

  it('refuses a value thousands of levels deep without overflowing the stack, and counts brackets inside strings as text', () => {
    expect(() => parseJsonSafely(nested(20_000))).toThrow(/nested more than/);
    const value = parseJsonSafely(`{"quote":"${'['.repeat(500)}"}`) as { quote: string };
    expect(value.quote).toHaveLength(500);
  });
});
