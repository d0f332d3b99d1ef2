/**
 * A quick check of survey records for the common case, without running the schema
 * library: a record it vouches for is the one `SurveyRecord.parse` returns
 * (the same fields, in the same order: the schema's fields first, then the
 * others as they came). Whatever it cannot vouch for (a bad field, text that
 * the schema would trim, anything unusual) it leaves to zod, which decides and
 * says why; so it may only ever say "not sure", never let a bad record in
 * (`tests/unit/schema/schema-quick.test.ts` compares the two on generated records).
 */
import { CLAIM_KINDS, CLAIM_SCHEMA, EVIDENCE_LEVELS, isHttpUrl, MODEL_SCHEMA, SOURCE_KINDS, STAGES } from './constants';
import { ClaimRecord, ModelRecord, PdfRef, Position, Quote, Source, type SurveyRecord } from './index';

type Plain = Record<string, unknown>;

const KINDS = new Set<unknown>(CLAIM_KINDS);
const STAGE_SET = new Set<unknown>(STAGES);
const LEVELS = new Set<unknown>(EVIDENCE_LEVELS);
const SOURCE_KIND_SET = new Set<unknown>(SOURCE_KINDS);
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);
const CLAIM_ID = /^[A-Za-z0-9_-]{8,64}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?Z$/;

/** The fields of each record kind in the schema's order, read from the schema itself so the two cannot drift apart. */
const CLAIM_FIELDS = Object.keys(ClaimRecord.shape);
const MODEL_FIELDS = Object.keys(ModelRecord.shape);
const QUOTE_FIELDS = Object.keys(Quote.shape);
const POSITION_FIELDS = Object.keys(Position.shape);
const SOURCE_FIELDS = Object.keys(Source.shape);
const PDF_FIELDS = Object.keys(PdfRef.shape);
const FIELD_SETS = new Map<readonly string[], ReadonlySet<string>>(
  [CLAIM_FIELDS, MODEL_FIELDS, QUOTE_FIELDS, POSITION_FIELDS, SOURCE_FIELDS, PDF_FIELDS].map((fields) => [fields, new Set(fields)]),
);

function isPlain(v: unknown): v is Plain {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function isCalendarDate(year: string, month: string, day: string): boolean {
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1) return false;
  const days = m === 2 ? (isLeap(Number(year)) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
  return d <= days;
}

function isDate(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const m = DATE.exec(v);
  return m !== null && isCalendarDate(m[1]!, m[2]!, m[3]!);
}

function isTimestamp(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const m = TIMESTAMP.exec(v);
  return m !== null && isCalendarDate(m[1]!, m[2]!, m[3]!);
}

function isText(v: unknown, max: number, min = 0): boolean {
  return typeof v === 'string' && v.length >= min && v.length <= max;
}

/** A name the schema keeps as it is: non-empty, at most `max` long, nothing to trim. */
function isName(v: unknown, max: number): boolean {
  return typeof v === 'string' && v.length >= 1 && v.length <= max && v.trim() === v;
}

/** A key present with a value (an `undefined` one is left to the schema). */
function has(o: Plain, key: string): boolean {
  return Object.hasOwn(o, key) && o[key] !== undefined;
}

/** An optional field absent, or present and passing `ok`; `nullable` lets null through too. */
function optional(o: Plain, key: string, ok: (v: unknown) => boolean, nullable: boolean): boolean {
  if (!Object.hasOwn(o, key)) return true;
  const v = o[key];
  if (v === undefined) return false;
  return (nullable && v === null) || ok(v);
}

/** A copy with the schema's fields first (in its order), then the others as they came; null when a key could reach a prototype. */
function ordered(o: Plain, fields: readonly string[], nested?: Record<string, Plain | null>): Plain | null {
  const out: Plain = {};
  const known = FIELD_SETS.get(fields)!;
  for (const key of fields) if (Object.hasOwn(o, key)) out[key] = nested && Object.hasOwn(nested, key) ? nested[key] : o[key];
  for (const key of Object.keys(o)) {
    if (FORBIDDEN.has(key)) return null;
    if (!known.has(key)) out[key] = o[key];
  }
  return out;
}

/** Addresses judged lately (a file's claims share a few pages' addresses): parsing a URL costs more than the rest of a record. */
const urlsSeen = new Map<string, boolean>();
const URLS_KEPT = 1024;

function isHttpUrlSeen(url: string): boolean {
  let ok = urlsSeen.get(url);
  if (ok === undefined) {
    ok = isHttpUrl(url);
    if (urlsSeen.size >= URLS_KEPT) urlsSeen.clear();
    urlsSeen.set(url, ok);
  }
  return ok;
}

function quote(v: unknown): Plain | null {
  if (!isPlain(v) || !isText(v.exact, 4000, 1) || !isText(v.prefix, 64) || !isText(v.suffix, 64)) return null;
  return ordered(v, QUOTE_FIELDS);
}

function position(v: unknown): Plain | null {
  if (!isPlain(v)) return null;
  const { start, end } = v;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return null;
  if ((start as number) < 0 || (end as number) < (start as number)) return null;
  return ordered(v, POSITION_FIELDS);
}

function source(v: unknown): Plain | null {
  if (!isPlain(v) || typeof v.url !== 'string' || !isText(v.title, 1000) || !SOURCE_KIND_SET.has(v.kind) || !isDate(v.accessed)) return null;
  if (!optional(v, 'publisher', (p) => isText(p, 200), true) || !optional(v, 'published', isDate, true) || !isHttpUrlSeen(v.url)) return null;
  return ordered(v, SOURCE_FIELDS);
}

function pdf(v: unknown): Plain | null {
  if (!isPlain(v) || !isText(v.fingerprint, 200, 1) || !Number.isSafeInteger(v.page) || (v.page as number) <= 0) return null;
  if (!optional(v, 'arxiv', (a) => isText(a, 40), true)) return null;
  return ordered(v, PDF_FIELDS);
}

function isLink(v: unknown): boolean {
  return typeof v === 'string' && v.length <= 8000 && (v === '' || isHttpUrl(v));
}

function claim(o: Plain): Plain | null {
  if (typeof o.id !== 'string' || !CLAIM_ID.test(o.id) || !isName(o.model, 200) || !KINDS.has(o.kind) || !isName(o.value, 200) || !LEVELS.has(o.evidence))
    return null;
  if (!isTimestamp(o.created_at) || !isTimestamp(o.updated_at) || !optional(o, 'deleted_at', isTimestamp, false)) return null;
  if (!optional(o, 'recipe', (r) => isName(r, 200), true) || !optional(o, 'stage', (s) => STAGE_SET.has(s), true)) return null;
  if (!optional(o, 'evidence_reason', (r) => isText(r, 2000), true) || !optional(o, 'link', isLink, true)) return null;
  if (!optional(o, 'note', (n) => isText(n, 20000), false) || !optional(o, 'curator', (c) => isText(c, 200), false)) return null;
  const nested: Record<string, Plain | null> = {};
  nested.quote = quote(o.quote);
  nested.source = source(o.source);
  if (!nested.quote || !nested.source) return null;
  if (has(o, 'position') && o.position !== null) {
    nested.position = position(o.position);
    if (!nested.position) return null;
  } else if (Object.hasOwn(o, 'position') && o.position === undefined) return null;
  if (has(o, 'pdf') && o.pdf !== null) {
    nested.pdf = pdf(o.pdf);
    if (!nested.pdf) return null;
  } else if (Object.hasOwn(o, 'pdf') && o.pdf === undefined) return null;
  return ordered(o, CLAIM_FIELDS, nested);
}

function model(o: Plain): Plain | null {
  if (!isName(o.model, 200) || !isTimestamp(o.updated_at) || !optional(o, 'recipe', (r) => isName(r, 200), true)) return null;
  if (!optional(o, 'vendor', (v) => isText(v, 200), true) || !optional(o, 'based_on', (v) => isText(v, 200), true)) return null;
  if (!optional(o, 'judgment', (j) => isText(j, 20000), false)) return null;
  return ordered(o, MODEL_FIELDS);
}

/**
 * The claim or model record `SurveyRecord.parse(value)` would return, when this quick check can vouch for it;
 * null when it cannot (then ask the schema, which also says what is wrong).
 */
export function quickSurveyRecord(value: unknown): SurveyRecord | null {
  if (!isPlain(value)) return null;
  if (value.schema === CLAIM_SCHEMA) return claim(value) as SurveyRecord | null;
  if (value.schema === MODEL_SCHEMA) return model(value) as SurveyRecord | null;
  return null;
}
