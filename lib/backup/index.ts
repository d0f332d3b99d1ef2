/**
 * Full backups of the store and the reminder to make one. Pure: no DOM, no
 * browser APIs, no storage.
 *
 * A backup is one JSON document holding every claim and model record exactly
 * as stored (unknown fields included), the curator's source corrections and
 * the spec's `source` records (what the last recheck of each source found):
 *
 * ```
 * {"format":"recipe-lens-backup/1","created_at":"…","counts":{"claims":2,"models":1,"sources":0,"source_records":1},
 * "sources":[],
 * "source_records":[
 * {…one source record per line, by URL…}
 * ],
 * "records":[
 * {…one record per line, in the dataset's export order…}
 * ]}
 * ```
 *
 * A backup made before source records existed has no `source_records`: it
 * reads as holding none.
 *
 * One record per line keeps a backup readable, diffable, and lets a problem
 * be reported by line. Restoring replaces the store with the backup's contents.
 */
import {
  CLAIM_SCHEMA,
  MODEL_SCHEMA,
  SourceOverride,
  SourceRecord,
  SurveyRecord,
  Timestamp,
  describeZodError,
  type ClaimRecord,
  type ModelRecord,
  type SourceCorrection,
} from '../schema';
import { quickSurveyRecord } from '../schema/quick';
import { sortRecords } from '../export/jsonl';
import { serializeSource } from '../dataset/sources';
import { parseJsonSafely, type LineError } from '../import/jsonl';
import { childPath, jsonValueLines, syntaxErrorLine } from '../import/locate';

/** The `format` tag of backup documents, version 1. */
export const BACKUP_FORMAT = 'recipe-lens-backup/1';

/** What the database remembers about backups (in its `meta` store). */
export interface BackupState {
  /** When the last backup was made (RFC 3339), or null when never. */
  lastBackupAt: string | null;
  /** Claims and model records changed since then (a record changed twice counts twice). */
  changes: number;
  /** When the first of those changes was made: the clock of the reminder when there was never a backup. */
  firstChangeAt: string | null;
}

/** The state before any change or backup. */
export const NO_BACKUP: BackupState = { lastBackupAt: null, changes: 0, firstChangeAt: null };

/** When to remind: after this many changed records, or this many days with unsaved changes. */
export const REMIND_AFTER = { changes: 50, days: 14 } as const;

/** Whether to remind the curator to back up, and why. */
export interface BackupReminder {
  due: boolean;
  /** Why, in English. */
  reason: string | null;
  /** When the reminder is due by time: the days since the last backup (or the first change when there was none). */
  days?: number;
}

/** Backups as the pages show them: the last one, changes since, and whether a reminder is due. */
export interface BackupStatus extends BackupReminder {
  lastBackupAt: string | null;
  changes: number;
}

const DAY = 24 * 60 * 60 * 1000;

/** A state read back from storage, made whole (anything malformed counts as no backup and no change). */
export function backupState(value: unknown): BackupState {
  if (typeof value !== 'object' || value === null) return { ...NO_BACKUP };
  const v = value as Partial<Record<keyof BackupState, unknown>>;
  return {
    lastBackupAt: typeof v.lastBackupAt === 'string' ? v.lastBackupAt : null,
    changes: typeof v.changes === 'number' && Number.isFinite(v.changes) && v.changes > 0 ? Math.floor(v.changes) : 0,
    firstChangeAt: typeof v.firstChangeAt === 'string' ? v.firstChangeAt : null,
  };
}

/** The state after `count` more records changed at `now`. */
export function withChanges(state: BackupState, count: number, now: string): BackupState {
  if (count <= 0) return state;
  return { ...state, changes: state.changes + count, firstChangeAt: state.firstChangeAt ?? now };
}

/**
 * Whether a backup is due: some change since the last one, and either at
 * least `limits.changes` changed records or at least `limits.days` days since
 * the last backup (since the first change when there was never one).
 */
export function backupReminder(state: BackupState, now: string, limits: { changes: number; days: number } = REMIND_AFTER): BackupReminder {
  if (state.changes <= 0) return { due: false, reason: null };
  const changed = `${state.changes} record${state.changes === 1 ? '' : 's'} changed since ${state.lastBackupAt ? 'the last backup' : 'you started, and no backup yet'}`;
  if (state.changes >= limits.changes) return { due: true, reason: changed };
  const since = state.lastBackupAt ?? state.firstChangeAt;
  const days = since ? Math.floor((Date.parse(now) - Date.parse(since)) / DAY) : 0;
  if (days >= limits.days) {
    return { due: true, reason: `${changed}; ${state.lastBackupAt ? 'the last backup was' : 'the first change was'} ${days} days ago`, days };
  }
  return { due: false, reason: null };
}

/** What a backup holds. */
export interface BackupContents {
  claims: readonly ClaimRecord[];
  models: readonly ModelRecord[];
  sources: readonly SourceCorrection[];
  /** The spec's `source` records (none when absent). */
  sourceRecords?: readonly SourceRecord[];
}

function list(lines: readonly string[]): string {
  return lines.length ? `[\n${lines.join(',\n')}\n]` : '[]';
}

/** The backup document of a store (see the module comment for its shape). */
export function toBackup(contents: BackupContents, createdAt: string): string {
  const records = sortRecords([...contents.claims, ...contents.models]).map((r) => JSON.stringify(r));
  const sources = [...contents.sources].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)).map((s) => JSON.stringify(s));
  const checked = [...(contents.sourceRecords ?? [])].sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)).map(serializeSource);
  const counts = { claims: contents.claims.length, models: contents.models.length, sources: sources.length, source_records: checked.length };
  const head = `{"format":${JSON.stringify(BACKUP_FORMAT)},"created_at":${JSON.stringify(createdAt)},"counts":${JSON.stringify(counts)}`;
  return `${head},\n"sources":${list(sources)},\n"source_records":${list(checked)},\n"records":${list(records)}}\n`;
}

/** The records, source corrections and source records of a backup, or why they were refused (by line). */
export interface ParsedBackup {
  records: SurveyRecord[];
  sources: SourceCorrection[];
  sourceRecords: SourceRecord[];
  errors: LineError[];
  /** Records, source corrections and source records read. */
  items: number;
}

const StoredCorrection = SourceOverride.extend({ updated_at: Timestamp });

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One survey record checked against the schema, or what is wrong with it. */
export function checkRecord(value: unknown): SurveyRecord | string {
  if (!isObject(value)) return 'expected a JSON object';
  const schema = value.schema;
  if (schema !== CLAIM_SCHEMA && schema !== MODEL_SCHEMA) {
    const expected = `(expected "${CLAIM_SCHEMA}" or "${MODEL_SCHEMA}")`;
    return schema === undefined ? `missing "schema" ${expected}` : `unknown schema ${JSON.stringify(schema)} ${expected}`;
  }
  const quick = quickSurveyRecord(value);
  if (quick) return quick;
  const parsed = SurveyRecord.safeParse(value);
  return parsed.success ? parsed.data : describeZodError(parsed.error);
}

/** Reads a backup document; every record and correction is validated, problems named by line. */
export function parseBackup(text: string): ParsedBackup {
  const out: ParsedBackup = { records: [], sources: [], sourceRecords: [], errors: [], items: 0 };
  let doc: unknown;
  try {
    doc = parseJsonSafely(text);
  } catch (error) {
    out.errors.push({ line: syntaxErrorLine(text, error), message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` });
    return out;
  }
  if (!isObject(doc) || doc.format !== BACKUP_FORMAT) {
    out.errors.push({ line: 1, message: `not a Recipe Lens backup (expected "format": "${BACKUP_FORMAT}")` });
    return out;
  }
  const records = doc.records;
  const sources = doc.sources ?? [];
  const checked = doc.source_records ?? [];
  if (!Array.isArray(records) || !Array.isArray(sources)) {
    out.errors.push({ line: 1, message: 'a backup needs "records" and "sources" lists' });
    return out;
  }
  if (!Array.isArray(checked)) {
    out.errors.push({ line: 1, message: 'a backup\'s "source_records" is a list' });
    return out;
  }
  let lines: Map<string, number> | null = null;
  const lineOf = (path: string) => (lines ??= jsonValueLines(text)).get(path) ?? 0;
  sources.forEach((value, i) => {
    out.items += 1;
    const parsed = StoredCorrection.safeParse(value);
    if (parsed.success) out.sources.push(parsed.data);
    else out.errors.push({ line: lineOf(childPath(childPath('$', 'sources'), i)), message: `source correction ${i + 1}: ${describeZodError(parsed.error)}` });
  });
  checked.forEach((value, i) => {
    out.items += 1;
    const parsed = SourceRecord.safeParse(value);
    if (parsed.success) out.sourceRecords.push(parsed.data);
    else
      out.errors.push({ line: lineOf(childPath(childPath('$', 'source_records'), i)), message: `source record ${i + 1}: ${describeZodError(parsed.error)}` });
  });
  records.forEach((value, i) => {
    out.items += 1;
    const checked = checkRecord(value);
    if (typeof checked === 'string') out.errors.push({ line: lineOf(childPath(childPath('$', 'records'), i)), message: `record ${i + 1}: ${checked}` });
    else out.records.push(checked);
  });
  return out;
}
