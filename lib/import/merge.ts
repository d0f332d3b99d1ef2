/**
 * Merging survey records: planning an import into a store, and merging
 * dataset files. Pure: no DOM, no browser APIs, no storage.
 *
 * Identity: a claim by `id`, a model record by (model, recipe). Contents are
 * compared in canonical form (`canonicalRecord`: a missing optional field
 * equals its empty value), so re-importing an exported file changes nothing.
 */
import { CLAIM_SCHEMA, modelKey, type ClaimRecord, type ModelRecord, type SurveyRecord } from '../schema';
import { canonicalRecord, serializeRecord, sortRecords } from '../export/jsonl';

/** One field on which two versions of a record differ; nested fields as dotted paths ("quote.exact"). */
export interface FieldDiff {
  field: string;
  ours: unknown;
  theirs: unknown;
}

/** Two versions of one record that cannot both be kept. */
export interface RecordConflict {
  /** Store key: the claim id, or `modelKey(model, recipe)`. */
  key: string;
  /** For people: "claim clm_7Qm2xK9pT4" or "model MiniMax M3 · MaxProof". */
  label: string;
  /** Planning an import: ours = stored, theirs = incoming. Merging files: ours = the version kept. */
  diffs: FieldDiff[];
}

/** What an import would do. */
export interface ImportPlan {
  added: number;
  updated: number;
  unchanged: number;
  conflicts: RecordConflict[];
  /** The records to write (added and updated), last version of each, in input order. */
  records: SurveyRecord[];
}

/** The result of merging files. */
export interface MergeResult {
  /** One version per record, in export order. */
  records: SurveyRecord[];
  conflicts: RecordConflict[];
}

/** The store key of a record, prefixed by its type so claim ids and model names never collide. */
function identity(record: SurveyRecord): string {
  return record.schema === CLAIM_SCHEMA ? `claim\u0000${(record as ClaimRecord).id}` : `model\u0000${modelKey(record.model, record.recipe)}`;
}

function storeKey(record: SurveyRecord): string {
  return record.schema === CLAIM_SCHEMA ? (record as ClaimRecord).id : modelKey(record.model, record.recipe);
}

function label(record: SurveyRecord): string {
  if (record.schema === CLAIM_SCHEMA) return `claim ${(record as ClaimRecord).id}`;
  return `model ${record.recipe ? `${record.model} · ${record.recipe}` : record.model}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function diffInto(ours: Record<string, unknown>, theirs: Record<string, unknown>, path: string, out: FieldDiff[]): void {
  const keys = [...Object.keys(ours), ...Object.keys(theirs).filter((k) => !(k in ours))];
  for (const key of keys) {
    const a = ours[key];
    const b = theirs[key];
    const field = path ? `${path}.${key}` : key;
    if (isPlainObject(a) && isPlainObject(b)) diffInto(a, b, field, out);
    else if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ field, ours: a ?? null, theirs: b ?? null });
  }
}

/** The fields on which two versions of a record differ, in canonical key order. */
export function diffRecords(ours: SurveyRecord, theirs: SurveyRecord): FieldDiff[] {
  const out: FieldDiff[] = [];
  diffInto(canonicalRecord(ours) as Record<string, unknown>, canonicalRecord(theirs) as Record<string, unknown>, '', out);
  return out;
}

function time(timestamp: string): number {
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? -Infinity : t;
}

/**
 * What importing `incoming` into a store holding `existing` would do: a new
 * id or (model, recipe) is added; a newer `updated_at` replaces; an older
 * one, or the same content, is unchanged; the same `updated_at` with other
 * content is a conflict (the stored version stays). Incoming records are
 * applied in order, so a file holding two versions of one record is judged
 * the same way.
 */
export function planImport(existing: { claims: readonly ClaimRecord[]; models: readonly ModelRecord[] }, incoming: readonly SurveyRecord[]): ImportPlan {
  const state = new Map<string, { record: SurveyRecord; line: string; status: 'stored' | 'added' | 'updated' }>();
  for (const r of [...existing.claims, ...existing.models]) state.set(identity(r), { record: r, line: serializeRecord(r), status: 'stored' });
  const plan: ImportPlan = { added: 0, updated: 0, unchanged: 0, conflicts: [], records: [] };
  const toWrite = new Map<string, SurveyRecord>();
  for (const record of incoming) {
    const id = identity(record);
    const line = serializeRecord(record);
    const current = state.get(id);
    let status: 'added' | 'updated';
    if (!current) {
      plan.added += 1;
      status = 'added';
    } else if (current.line === line) {
      plan.unchanged += 1;
      continue;
    } else {
      const d = time(record.updated_at) - time(current.record.updated_at);
      if (d < 0) {
        plan.unchanged += 1;
        continue;
      }
      if (d === 0) {
        plan.conflicts.push({ key: storeKey(record), label: label(record), diffs: diffRecords(current.record, record) });
        continue;
      }
      // A record already added or updated earlier in this import is counted once.
      if (current.status === 'stored') plan.updated += 1;
      status = current.status === 'stored' ? 'updated' : current.status;
    }
    state.set(id, { record, line, status });
    toWrite.delete(id);
    toWrite.set(id, record);
  }
  plan.records = [...toWrite.values()];
  return plan;
}

/**
 * Merges dataset files into one set of records, independently of the order
 * of the files and of the records in them, and idempotently (merging the
 * result again, or with itself, gives the same result). Identical copies are
 * one record. Different versions of one record are conflicts — unless
 * `prefer: 'newer'`, where the newest `updated_at` wins and only versions
 * tying with it on `updated_at` are reported. Either way `records` holds one
 * version per record: the newest, ties broken by the greater serialised line.
 */
export function mergeFiles(lists: readonly (readonly SurveyRecord[])[], options: { prefer?: 'newer' } = {}): MergeResult {
  const versions = new Map<string, Map<string, SurveyRecord>>();
  for (const list of lists) {
    for (const record of list) {
      const id = identity(record);
      const line = serializeRecord(record);
      let group = versions.get(id);
      if (!group) versions.set(id, (group = new Map()));
      if (!group.has(line)) group.set(line, record);
    }
  }
  const kept: SurveyRecord[] = [];
  const conflicts: Array<{ id: string; order: string; conflict: RecordConflict }> = [];
  for (const [id, group] of versions) {
    const sorted = [...group.entries()].sort(([la, a], [lb, b]) => time(b.updated_at) - time(a.updated_at) || (la < lb ? 1 : la > lb ? -1 : 0));
    const [, winner] = sorted[0]!;
    kept.push(winner);
    for (const [line, other] of sorted.slice(1)) {
      if (options.prefer === 'newer' && time(other.updated_at) < time(winner.updated_at)) continue;
      conflicts.push({ id, order: line, conflict: { key: storeKey(winner), label: label(winner), diffs: diffRecords(winner, other) } });
    }
  }
  const records = sortRecords(kept);
  const rank = new Map(records.map((r, i) => [identity(r), i]));
  conflicts.sort((a, b) => rank.get(a.id)! - rank.get(b.id)! || (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  return { records, conflicts: conflicts.map((c) => c.conflict) };
}
