/**
 * The dataset repository's layout (`shared/spec/survey-records.md`, "The
 * dataset repository"): where each record lives and the bytes of each file.
 * Pure: paths are POSIX paths relative to the repository's root.
 *
 * ```
 * README.md                     the survey table between markers, and the counts
 * records/claims/<slug>.jsonl   the claims of one model (tombstones included), in export order
 * records/models.jsonl          every model record, in export order
 * records/sources.jsonl         every source record (the last recheck of each source), sorted by url
 * ```
 */
import { toJsonl } from '../export/jsonl';
import { CLAIM_SCHEMA, type ClaimRecord, type ModelRecord, type SurveyRecord } from '../schema';
import { hashText } from './hash';
import { SOURCES_PATH } from './sources';

/** The README at the repository's root. */
export const README_PATH = 'README.md';
/** The folder of every records file. */
export const RECORDS_DIR = 'records';
/** The folder of the per-model claim files. */
export const CLAIMS_DIR = 'records/claims';
/** The file of every model record. */
export const MODELS_PATH = 'records/models.jsonl';

/**
 * A model's file name without `.jsonl`: the name lower-cased, every run of
 * characters other than `a-z`, `0-9`, `.` and `-` turned into one `-`,
 * trimmed of `-` ("Kimi K2.7 Code" → `kimi-k2.7-code`). Where the spec is
 * silent: a name left with nothing ("通义千问") becomes `model-` and 8 hex
 * digits of its hash, and a slug of dots only gets the same treatment (a file
 * named `..jsonl` would be hidden and confusing).
 */
export function slug(model: string): string {
  const folded = model
    .toLowerCase()
    .replace(/[^a-z0-9.-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (folded === '' || /^\.+$/.test(folded)) return `model-${hashText(model).slice(0, 8)}`;
  return folded;
}

/** The path of the claims file of a model. */
export function claimsPath(model: string): string {
  return `${CLAIMS_DIR}/${slug(model)}.jsonl`;
}

/** The path of the file a record belongs in. */
export function recordPath(record: SurveyRecord): string {
  return record.schema === CLAIM_SCHEMA ? claimsPath(record.model) : MODELS_PATH;
}

/** What a path of the repository is to the dataset. */
export type PathRole = 'claims' | 'models' | 'sources' | 'readme' | 'misplaced' | 'other';

/**
 * The role of a path: a claims file (`records/claims/<name>.jsonl`), the
 * models file, the sources file, the README, `misplaced` (any other file under `records/`, which
 * a valid dataset does not have), or `other` (a licence, CI configuration: not
 * the dataset's business).
 */
export function pathRole(path: string): PathRole {
  if (path === README_PATH) return 'readme';
  if (path === MODELS_PATH) return 'models';
  if (path === SOURCES_PATH) return 'sources';
  if (!path.startsWith(`${RECORDS_DIR}/`)) return 'other';
  const rest = path.slice(CLAIMS_DIR.length + 1);
  if (path.startsWith(`${CLAIMS_DIR}/`) && /^[a-z0-9.-]+\.jsonl$/.test(rest) && !/^\.+\.jsonl$/.test(rest)) return 'claims';
  return 'misplaced';
}

/** The bytes of one records file: its records in export order (`toJsonl`), "" when it has none. */
export function fileText(records: readonly SurveyRecord[]): string {
  const claims = records.filter((r): r is ClaimRecord => r.schema === CLAIM_SCHEMA);
  const models = records.filter((r): r is ModelRecord => r.schema !== CLAIM_SCHEMA);
  return toJsonl(claims, models);
}

/** Records grouped by the file each belongs in. */
export function groupByPath(records: Iterable<SurveyRecord>): Map<string, SurveyRecord[]> {
  const files = new Map<string, SurveyRecord[]>();
  for (const record of records) {
    const path = recordPath(record);
    const list = files.get(path);
    if (list) list.push(record);
    else files.set(path, [record]);
  }
  return files;
}

/**
 * Every records file of a dataset holding `records` (one version per record),
 * path → text, in path order. The models file is always there, empty when
 * there are no model records.
 */
export function layoutFiles(records: Iterable<SurveyRecord>): Map<string, string> {
  const groups = groupByPath(records);
  if (!groups.has(MODELS_PATH)) groups.set(MODELS_PATH, []);
  const paths = [...groups.keys()].sort();
  return new Map(paths.map((p) => [p, fileText(groups.get(p)!)]));
}
