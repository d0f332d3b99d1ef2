/**
 * Deterministic JSONL export (`shared/spec/survey-records.md`): records in the
 * spec's sort order, keys in the spec's table order, unknown fields kept after
 * the known ones, optional fields written out with their empty value, `\n`
 * line ends and a trailing newline. Pure: no DOM, no browser APIs.
 *
 * Model records sit next to their claims: the claims of a (model, recipe)
 * first, in the spec's order, then that (model, recipe)'s model record — as
 * if a model record's `source.url` sorted after every URL. Records whose
 * sort keys tie are ordered by their serialised line, so the file depends on
 * the set of records only, never on the order they came in.
 */
import { CLAIM_SCHEMA, type ClaimRecord, type ModelRecord, type SurveyRecord } from '../schema';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Layout = ReadonlyArray<readonly [key: string, fallback: Json | undefined, nested?: Layout]>;

const QUOTE: Layout = [
  ['exact', undefined],
  ['prefix', ''],
  ['suffix', ''],
];
const POSITION: Layout = [
  ['start', undefined],
  ['end', undefined],
];
const SOURCE: Layout = [
  ['url', undefined],
  ['title', undefined],
  ['kind', undefined],
  ['publisher', null],
  ['published', null],
  ['accessed', undefined],
];
const CLAIM: Layout = [
  ['schema', undefined],
  ['id', undefined],
  ['model', undefined],
  ['recipe', null],
  ['kind', undefined],
  ['stage', null],
  ['value', undefined],
  ['evidence', undefined],
  ['evidence_reason', null],
  ['quote', undefined, QUOTE],
  ['position', null, POSITION],
  ['source', undefined, SOURCE],
  ['link', null],
  ['note', ''],
  ['curator', ''],
  ['created_at', undefined],
  ['updated_at', undefined],
  // Absent unless the claim was deleted (a tombstone); never written as null.
  ['deleted_at', undefined],
];
/** Keys of the layouts that a canonical record may lack (absent, not filled). */
const MAY_BE_ABSENT = new Set(['deleted_at']);
const MODEL: Layout = [
  ['schema', undefined],
  ['model', undefined],
  ['recipe', null],
  ['vendor', null],
  ['based_on', null],
  ['judgment', ''],
  ['updated_at', undefined],
];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Copies `value` with the layout's keys first (missing optional ones filled), then the unknown keys in their own order. */
function arrange(value: Record<string, unknown>, layout: Layout): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const [key, fallback, nested] of layout) {
    known.add(key);
    const v = value[key];
    if (v === undefined) {
      if (fallback !== undefined) out[key] = fallback;
      continue;
    }
    out[key] = nested && isPlainObject(v) ? arrange(v, nested) : v;
  }
  for (const key of Object.keys(value)) {
    if (known.has(key) || value[key] === undefined) continue;
    out[key] = value[key];
  }
  return out;
}

/** A record in canonical form: the spec's key order, optional fields filled with null or "", unknown fields last. */
export function canonicalRecord<T extends SurveyRecord>(record: T): T {
  return arrange(record as Record<string, unknown>, record.schema === CLAIM_SCHEMA ? CLAIM : MODEL) as T;
}

/** True when `value` is already in canonical form: every layout key present (but those that may be absent), defined and in order (nested ones too), unknown keys after them. */
function isArranged(value: Record<string, unknown>, layout: Layout): boolean {
  const keys = Object.keys(value);
  let at = 0;
  for (const [key, , nested] of layout) {
    if (keys[at] !== key) {
      if (MAY_BE_ABSENT.has(key) && !(key in value)) continue;
      return false;
    }
    const v = value[key];
    if (v === undefined) return false;
    if (nested && isPlainObject(v) && !isArranged(v, nested)) return false;
    at += 1;
  }
  return true;
}

/** One record as its JSONL line (canonical form, no line end). */
export function serializeRecord(record: SurveyRecord): string {
  // Most stored records are canonical already: serialising them as they are gives the same line without copying.
  const layout = record.schema === CLAIM_SCHEMA ? CLAIM : MODEL;
  return JSON.stringify(isArranged(record as Record<string, unknown>, layout) ? record : arrange(record as Record<string, unknown>, layout));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareNullFirst(a: string | null | undefined, b: string | null | undefined): number {
  if (a == null) return b == null ? 0 : -1;
  if (b == null) return 1;
  return compareText(a, b);
}

function compareNumberNullLast(a: number | null | undefined, b: number | null | undefined): number {
  if (a == null) return b == null ? 0 : 1;
  if (b == null) return -1;
  return a - b;
}

/** The spec's record order: model, recipe (null first), source.url, position.start (null last), id; a model record after its claims. */
export function compareRecords(a: SurveyRecord, b: SurveyRecord): number {
  const byRow = compareText(a.model, b.model) || compareNullFirst(a.recipe, b.recipe);
  if (byRow) return byRow;
  const aClaim = a.schema === CLAIM_SCHEMA;
  const bClaim = b.schema === CLAIM_SCHEMA;
  if (aClaim !== bClaim) return aClaim ? -1 : 1;
  if (!aClaim || !bClaim) return 0;
  const ca = a as ClaimRecord;
  const cb = b as ClaimRecord;
  return compareText(ca.source.url, cb.source.url) || compareNumberNullLast(ca.position?.start, cb.position?.start) || compareText(ca.id, cb.id);
}

/** A record with its line and its sort keys read once (sorting reads them many times). */
interface Keyed {
  line: string;
  record: SurveyRecord;
  model: string;
  recipe: string | null | undefined;
  claim: boolean;
  url: string;
  start: number | null | undefined;
  id: string;
}

/** `compareRecords`, then the line, over keys read beforehand. */
function compareKeyed(a: Keyed, b: Keyed): number {
  const byRow = compareText(a.model, b.model) || compareNullFirst(a.recipe, b.recipe) || (a.claim === b.claim ? 0 : a.claim ? -1 : 1);
  if (byRow) return byRow;
  const within = a.claim ? compareText(a.url, b.url) || compareNumberNullLast(a.start, b.start) || compareText(a.id, b.id) : 0;
  return within || compareText(a.line, b.line);
}

/**
 * Records with their lines, in export order, exact duplicates dropped; ties broken by the line. Identical
 * lines have identical sort keys, so after sorting they sit side by side: each is compared with the one
 * before it instead of hashed into a set (which would hash every byte of the file). The sort is stable,
 * so the record kept of a duplicate is the first one given, as before.
 */
function sortedLines(records: Iterable<SurveyRecord>, lineOf: (record: SurveyRecord) => string = serializeRecord): Keyed[] {
  const keyed: Keyed[] = [];
  for (const r of records) {
    const claim = r.schema === CLAIM_SCHEMA;
    const c = r as ClaimRecord;
    keyed.push({
      line: lineOf(r),
      record: r,
      model: r.model,
      recipe: r.recipe,
      claim,
      url: claim ? c.source.url : '',
      start: claim ? c.position?.start : null,
      id: claim ? c.id : '',
    });
  }
  keyed.sort(compareKeyed);
  const out: Keyed[] = [];
  for (const k of keyed) if (!out.length || out[out.length - 1]!.line !== k.line) out.push(k);
  return out;
}

/** Records in export order, exact duplicates dropped; ties broken by the serialised line. */
export function sortRecords(records: Iterable<SurveyRecord>): SurveyRecord[] {
  return sortedLines(records).map((k) => k.record);
}

/**
 * The store as deterministic JSONL: the same set of records gives
 * byte-identical text whatever order they are passed in. Empty input gives "".
 * `lineOf` gives a record's line when the caller already has it (it must equal
 * `serializeRecord` of the record as written; the sort keys are read from the
 * record given).
 */
export function toJsonl(
  claims: readonly ClaimRecord[],
  models: readonly ModelRecord[] = [],
  lineOf: (record: SurveyRecord) => string = serializeRecord,
): string {
  // Each record is serialised once: the line that orders it is the line written.
  const sorted = sortedLines(concat<SurveyRecord>(claims, models), lineOf);
  let text = '';
  for (const k of sorted) text += `${k.line}\n`;
  return text;
}

/** One row's stretch of the JSONL file: the records of one (model, recipe), in file order, and their lines. */
export interface JsonlRow {
  /** Tells rows apart: the model and the recipe as given (a null and an empty recipe are different rows of the file). */
  key: string;
  /** The records written, in file order (exact duplicates dropped). */
  records: SurveyRecord[];
  /** Their lines, without line ends. */
  lines: string[];
}

/**
 * The JSONL file of these records as rows: the records of each (model, recipe) sit together in the file, so the
 * rows' lines, each followed by `\n`, one row after another, are `toJsonl(claims, models, lineOf)` byte for byte.
 */
export function jsonlRows(
  claims: readonly ClaimRecord[],
  models: readonly ModelRecord[] = [],
  lineOf: (record: SurveyRecord) => string = serializeRecord,
): JsonlRow[] {
  const rows: JsonlRow[] = [];
  let row: JsonlRow | undefined;
  let model = '';
  let recipe: string | null | undefined;
  for (const k of sortedLines(concat<SurveyRecord>(claims, models), lineOf)) {
    if (!row || k.model !== model || (k.recipe ?? null) !== (recipe ?? null)) {
      model = k.model;
      recipe = k.recipe;
      row = { key: `${model}\u0000${recipe == null ? '\u0000' : `\u0001${recipe}`}`, records: [], lines: [] };
      rows.push(row);
    }
    row.records.push(k.record);
    row.lines.push(k.line);
  }
  return rows;
}

/** Both lists, one after the other, without copying them into a new array. */
function* concat<T>(a: readonly T[], b: readonly T[]): Generator<T> {
  yield* a;
  yield* b;
}
