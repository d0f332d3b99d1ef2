/**
 * Parsing survey-record JSONL (`shared/spec/survey-records.md`): every line
 * validated against the one schema, problems reported by line number.
 * Pure, so the extension and the CLI share it.
 */
import { CLAIM_SCHEMA, MODEL_SCHEMA, SOURCE_SCHEMA, SourceRecord, SurveyRecord, describeZodError } from '../schema';
import { quickSurveyRecord } from '../schema/quick';

/** One problem on one line of an input file. */
export interface LineError {
  line: number;
  message: string;
}

/** The records of a file, or why lines were refused. */
export interface ParsedJsonl {
  records: SurveyRecord[];
  /** The `source` records (what the last recheck of each source found), when asked for (`{ sources: true }`); else none. */
  sources: SourceRecord[];
  errors: LineError[];
  /** Non-empty lines read. */
  lines: number;
}

/** What a file may hold besides claims and models. */
export interface JsonlOptions {
  /** Read `rl-survey.source/1` lines too (an import file); without it they are refused (a dataset's claims and models files). */
  sources?: boolean;
  /** Lines of the file before `text` (a part of it read so far): errors name lines of the whole file. */
  linesBefore?: number;
}

const KNOWN_SCHEMAS = new Set([CLAIM_SCHEMA, MODEL_SCHEMA]);
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** What a forbidden key needs in the text: one of their names, or a `\u` escape that could spell one. */
const MAY_HOLD_FORBIDDEN = /__proto__|constructor|prototype|\\u/;

/** Deepest nesting of arrays and objects an imported value may have: records need a few levels, and thousands overflow the stack when a record is stored or exported. */
export const MAX_JSON_DEPTH = 64;

/** Throws a SyntaxError naming the position where `text` nests arrays and objects deeper than MAX_JSON_DEPTH. */
function checkDepth(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > MAX_JSON_DEPTH) throw new SyntaxError(`values nested more than ${MAX_JSON_DEPTH} levels deep at position ${i}`);
    } else if (c === 125 || c === 93) depth--;
  }
}

/** Throws a SyntaxError when a parsed value nests arrays and objects deeper than MAX_JSON_DEPTH (a walk with its own stack: no recursion). */
function checkValueDepth(root: unknown): void {
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth + 1 > MAX_JSON_DEPTH) throw new SyntaxError(`values nested more than ${MAX_JSON_DEPTH} levels deep`);
    const children = Array.isArray(value) ? value : Object.values(value);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
}

/** JSON.parse that drops keys able to reach an object's prototype and refuses values nested deeper than MAX_JSON_DEPTH. */
export function parseJsonSafely(text: string): unknown {
  // A reviver makes parsing several times slower; text that cannot spell a forbidden key needs none. Without one,
  // JSON.parse itself does not recurse, so the depth is checked on the value: a walk over a record's few dozen
  // values, where a scan of the text looks at every character (it cost about as much as the parse itself).
  if (!MAY_HOLD_FORBIDDEN.test(text)) {
    const value: unknown = JSON.parse(text);
    checkValueDepth(value);
    return value;
  }
  // The reviver recurses: refuse deep text before it runs.
  checkDepth(text);
  return JSON.parse(text, (key, value: unknown) => (FORBIDDEN_KEYS.has(key) ? undefined : value));
}

/** Parses and validates JSONL text; blank lines are ignored. */
export function parseSurveyJsonl(text: string, options: JsonlOptions = {}): ParsedJsonl {
  const records: SurveyRecord[] = [];
  const sources: SourceRecord[] = [];
  const errors: LineError[] = [];
  const expected = options.sources ? `"${CLAIM_SCHEMA}", "${MODEL_SCHEMA}" or "${SOURCE_SCHEMA}"` : `"${CLAIM_SCHEMA}" or "${MODEL_SCHEMA}"`;
  let lines = 0;
  const before = options.linesBefore ?? 0;
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const raw = rows[i]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    lines += 1;
    const line = before + i + 1;
    let value: unknown;
    try {
      value = parseJsonSafely(raw);
    } catch (error) {
      errors.push({ line, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      errors.push({ line, message: 'expected a JSON object' });
      continue;
    }
    const schema = (value as { schema?: unknown }).schema;
    if (options.sources && schema === SOURCE_SCHEMA) {
      const source = SourceRecord.safeParse(value);
      if (source.success) sources.push(source.data);
      else errors.push({ line, message: describeZodError(source.error) });
      continue;
    }
    if (typeof schema !== 'string' || !KNOWN_SCHEMAS.has(schema)) {
      errors.push({
        line,
        message: schema === undefined ? `missing "schema" (expected ${expected})` : `unknown schema ${JSON.stringify(schema)} (expected ${expected})`,
      });
      continue;
    }
    // The common record needs no schema library: the quick check returns what the schema would; anything else it leaves to zod.
    const quick = quickSurveyRecord(value);
    if (quick) {
      records.push(quick);
      continue;
    }
    const parsed = SurveyRecord.safeParse(value);
    if (!parsed.success) {
      errors.push({ line, message: describeZodError(parsed.error) });
      continue;
    }
    records.push(parsed.data);
  }
  return { records, sources, errors, lines };
}
