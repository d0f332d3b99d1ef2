/**
 * Parsing survey-record JSONL (`shared/spec/survey-records.md`): every line
 * validated against the one schema, problems reported by line number.
 * Pure, so the extension and the CLI share it.
 */
import { CLAIM_SCHEMA, MODEL_SCHEMA, SurveyRecord, describeZodError } from '../schema';

/** One problem on one line of an input file. */
export interface LineError {
  line: number;
  message: string;
}

/** The records of a file, or why lines were refused. */
export interface ParsedJsonl {
  records: SurveyRecord[];
  errors: LineError[];
  /** Non-empty lines read. */
  lines: number;
}

const KNOWN_SCHEMAS = new Set([CLAIM_SCHEMA, MODEL_SCHEMA]);
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** JSON.parse that drops keys able to reach an object's prototype. */
export function parseJsonSafely(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (FORBIDDEN_KEYS.has(key) ? undefined : value));
}

/** Parses and validates JSONL text; blank lines are ignored. */
export function parseSurveyJsonl(text: string): ParsedJsonl {
  const records: SurveyRecord[] = [];
  const errors: LineError[] = [];
  let lines = 0;
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const raw = rows[i]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    lines += 1;
    const line = i + 1;
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
    if (typeof schema !== 'string' || !KNOWN_SCHEMAS.has(schema)) {
      errors.push({
        line,
        message:
          schema === undefined
            ? `missing "schema" (expected "${CLAIM_SCHEMA}" or "${MODEL_SCHEMA}")`
            : `unknown schema ${JSON.stringify(schema)} (expected "${CLAIM_SCHEMA}" or "${MODEL_SCHEMA}")`,
      });
      continue;
    }
    const parsed = SurveyRecord.safeParse(value);
    if (!parsed.success) {
      errors.push({ line, message: describeZodError(parsed.error) });
      continue;
    }
    records.push(parsed.data);
  }
  return { records, errors, lines };
}
