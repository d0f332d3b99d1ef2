/**
 * Publishing: what the local store would add to the dataset, and the files
 * that change. Pure.
 *
 * Each record has three versions: the local one, the dataset's, and the
 * *base* — the dataset version this store last agreed with (its hash, kept
 * per record after every pull and publish). A local record whose hash differs
 * from its base is a local change. A local change is published when the
 * dataset still has the base version (or never had the record); when the
 * dataset changed the record too, the newer `updated_at` wins, and a local
 * change the dataset overtook, or one tying with it, is a conflict left for a
 * pull to settle — never written over the other curator's version. A record
 * the store has not changed is never written, so a publish never undoes a
 * change it has not pulled yet; only a record the dataset lost without a
 * tombstone is written back.
 *
 * The spec's `source` records (`records/sources.jsonl`) need no bases: a
 * source record is never deleted and the later `updated_at` always wins, so a
 * publish writes each of the store's records the branch lacks or holds an
 * older version of (a tie keeps the branch's, which a pull then brings).
 */
import { isTombstone } from '../survey/tombstones';
import { diffRecords, type RecordConflict } from '../import/merge';
import { CLAIM_SCHEMA, modelKey, type ClaimRecord, type SourceRecord, type SurveyRecord } from '../schema';
import { recordHash, recordRef } from './hash';
import { fileText, groupByPath, MODELS_PATH, README_PATH, recordPath } from './layout';
import { mergeSources, SOURCES_PATH, sourcesText } from './sources';
import type { PlacedRecord } from './read';
import { newReadme, updateReadme } from './readme';

/** The dataset version each record was last synced with: `recordRef` → `recordHash`. */
export type Bases = ReadonlyMap<string, string>;

/** What a publish does to one model's claims and record. */
export interface ModelChange {
  model: string;
  claims: { added: number; changed: number; deleted: number };
  /** The model's records (one per recipe) added or changed. */
  records: { added: number; changed: number };
}

/** A local change that cannot be published as it is. */
export interface PublishConflict extends RecordConflict {
  ref: string;
  /** `tie`: same `updated_at`, other content; `overtaken`: the dataset's version is newer than this store's change. */
  reason: 'tie' | 'overtaken';
  mine: SurveyRecord;
  theirs: SurveyRecord;
}

/** What publishing the store would do. */
export interface PublishPlan {
  /** Local versions to write into the dataset. */
  writes: SurveyRecord[];
  /** Per model, in model order. */
  models: ModelChange[];
  totals: { added: number; changed: number; deleted: number; records: number };
  conflicts: PublishConflict[];
  /** Records the store and the dataset already agree on whose base is not that version yet: `[ref, hash]`. */
  agreed: Array<[string, string]>;
  /** The store's source records to write into `records/sources.jsonl` (new there, or newer than the branch's). */
  sources: SourceRecord[];
  /** The default commit message: a subject line and one line per model. */
  message: string;
}

function conflictLabel(r: SurveyRecord): string {
  return r.schema === CLAIM_SCHEMA ? `claim ${(r as ClaimRecord).id}` : `model ${r.recipe ? `${r.model} · ${r.recipe}` : r.model}`;
}

/** A `PublishConflict` between a local change and the dataset's version. */
export function publishConflict(ref: string, mine: SurveyRecord, theirs: SurveyRecord, reason: 'tie' | 'overtaken'): PublishConflict {
  const key = mine.schema === CLAIM_SCHEMA ? (mine as ClaimRecord).id : modelKey(mine.model, mine.recipe);
  return { key, label: conflictLabel(mine), diffs: diffRecords(mine, theirs), ref, reason, mine, theirs };
}

/** The dataset's records by `recordRef` (the newest where a record appears twice). */
export function indexDataset(records: Iterable<SurveyRecord>): Map<string, SurveyRecord> {
  const out = new Map<string, SurveyRecord>();
  for (const r of records) {
    const ref = recordRef(r);
    const seen = out.get(ref);
    if (!seen || Date.parse(r.updated_at) > Date.parse(seen.updated_at)) out.set(ref, r);
  }
  return out;
}

/** The store's source records a publish writes: those the branch lacks, or holds an older version of (a tie keeps the branch's). */
export function sourcesToPublish(local: readonly SourceRecord[], dataset: readonly SourceRecord[]): SourceRecord[] {
  const theirs = new Map(dataset.map((r) => [r.url, r]));
  return local.filter((mine) => {
    const their = theirs.get(mine.url);
    return !their || mine.updated_at > their.updated_at;
  });
}

/**
 * Plans publishing `local` into a dataset holding `dataset`, given the store's bases; `sources`: the store's source
 * records and the branch's (none when not given).
 */
export function planPublish(
  local: readonly SurveyRecord[],
  bases: Bases,
  dataset: ReadonlyMap<string, SurveyRecord>,
  sources: { local: readonly SourceRecord[]; dataset: readonly SourceRecord[] } = { local: [], dataset: [] },
): PublishPlan {
  const writes: SurveyRecord[] = [];
  const conflicts: PublishConflict[] = [];
  const agreed: Array<[string, string]> = [];
  const perModel = new Map<string, ModelChange>();
  const change = (model: string) => {
    let m = perModel.get(model);
    if (!m) perModel.set(model, (m = { model, claims: { added: 0, changed: 0, deleted: 0 }, records: { added: 0, changed: 0 } }));
    return m;
  };
  for (const mine of local) {
    const ref = recordRef(mine);
    const hash = recordHash(mine);
    const base = bases.get(ref);
    const theirs = dataset.get(ref);
    const theirHash = theirs ? recordHash(theirs) : null;
    if (theirHash === hash) {
      if (base !== hash) agreed.push([ref, hash]);
      continue;
    }
    // Not changed here: the dataset's version (if newer) comes with the next pull. But a record the dataset lost
    // without a tombstone (a file deleted or rewritten by hand) is put back: deletions travel as tombstones only.
    if (base === hash && theirs) continue;
    if (!theirs) {
      // A claim deleted before it was ever published has nothing to delete.
      if (base === undefined && mine.schema === CLAIM_SCHEMA && isTombstone(mine as ClaimRecord)) continue;
    } else if (theirHash !== base) {
      // Both sides changed it: the newer wins; the dataset's newer version or a tie waits for a pull.
      const d = Date.parse(mine.updated_at) - Date.parse(theirs.updated_at);
      if (d <= 0) {
        conflicts.push(publishConflict(ref, mine, theirs, d === 0 ? 'tie' : 'overtaken'));
        continue;
      }
    }
    writes.push(mine);
    const m = change(mine.model);
    if (mine.schema === CLAIM_SCHEMA) {
      const wasLive = theirs !== undefined && !isTombstone(theirs as ClaimRecord);
      if (isTombstone(mine as ClaimRecord)) m.claims.deleted += 1;
      else if (wasLive) m.claims.changed += 1;
      else m.claims.added += 1;
    } else if (theirs) m.records.changed += 1;
    else m.records.added += 1;
  }
  const models = [...perModel.values()].filter((m) => m.claims.added + m.claims.changed + m.claims.deleted + m.records.added + m.records.changed > 0);
  models.sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  const sum = (f: (m: ModelChange) => number) => models.reduce((n, m) => n + f(m), 0);
  const totals = {
    added: sum((m) => m.claims.added),
    changed: sum((m) => m.claims.changed),
    deleted: sum((m) => m.claims.deleted),
    records: sum((m) => m.records.added + m.records.changed),
  };
  const sourceWrites = sourcesToPublish(sources.local, sources.dataset);
  return { writes, models, totals, conflicts, agreed, sources: sourceWrites, message: commitMessage(models, totals, sourceWrites.length) };
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function describeModel(m: ModelChange): string {
  const parts: string[] = [];
  if (m.claims.added) parts.push(`${m.claims.added} added`);
  if (m.claims.changed) parts.push(`${m.claims.changed} changed`);
  if (m.claims.deleted) parts.push(`${m.claims.deleted} deleted`);
  const claims = parts.length ? `claims ${parts.join(', ')}` : '';
  const records = m.records.added ? 'model record added' : m.records.changed ? 'model record changed' : '';
  return `${m.model}: ${[claims, records].filter(Boolean).join('; ')}`;
}

/**
 * The default commit message of a publish: "Recipe Lens: 2 claims added, 1 deleted on 2 models" (then "; 3 source
 * records updated" when it writes source records), then a line per model.
 */
export function commitMessage(models: readonly ModelChange[], totals: PublishPlan['totals'], sources = 0): string {
  const parts: string[] = [];
  if (totals.added) parts.push(`${count(totals.added, 'claim')} added`);
  if (totals.changed) parts.push(`${parts.length ? totals.changed : count(totals.changed, 'claim')} changed`);
  if (totals.deleted) parts.push(`${parts.length ? totals.deleted : count(totals.deleted, 'claim')} deleted`);
  if (totals.records) parts.push(`${count(totals.records, 'model record')} updated`);
  const said = [parts.length ? `${parts.join(', ')} on ${count(models.length, 'model')}` : '', sources ? `${count(sources, 'source record')} updated` : ''];
  const subject = said.some(Boolean) ? `Recipe Lens: ${said.filter(Boolean).join('; ')}` : 'Recipe Lens: no changes';
  return models.length ? `${subject}\n\n${models.map(describeModel).join('\n')}\n` : `${subject}\n`;
}

/** The files a publish writes: path → new text (only files whose text changes). */
export type FileChanges = Map<string, string>;

/** How a publish writes: the title of a README it makes, and whether it is a review (records only). */
export interface ApplyOptions {
  title?: string;
  /**
   * A publish for review leaves the README's generated parts as the branch has them: the dataset's branch rebuilds
   * them once the review is merged, so two reviews of different models never conflict on the table or the counts.
   */
  review?: boolean;
  /** The dataset's source records: the README's "not disclosed" days follow them. */
  sources?: readonly SourceRecord[];
  /** The store's source records to write (`PublishPlan.sources`): merged into `records/sources.jsonl`, later `updated_at` winning. */
  sourceWrites?: readonly SourceRecord[];
}

/**
 * The dataset's files after writing `writes` into it: the records files of
 * every model touched (and of any file holding a record in the wrong place or
 * twice, which are rewritten in the layout), the sources file when source
 * records are written, and the README with its table and counts regenerated
 * (for a review, only a README the dataset lacks is made).
 * `placed` is the dataset as read (records with paths), `texts` the current
 * text of its records files, `readme` its README ("" when it has none: a new
 * README is then made).
 */
export function applyPublish(
  placed: readonly PlacedRecord[],
  texts: ReadonlyMap<string, string>,
  readme: string,
  writes: readonly SurveyRecord[],
  { title = 'RL post-training survey', review = false, sources: theirs = [], sourceWrites = [] }: ApplyOptions = {},
): { files: FileChanges; records: SurveyRecord[] } {
  const merged = indexDataset(placed.map((p) => p.record));
  const touched = new Set<string>();
  const where = new Map<string, string[]>();
  for (const p of placed) {
    const ref = recordRef(p.record);
    const paths = where.get(ref);
    if (paths) paths.push(p.path);
    else where.set(ref, [p.path]);
    if (recordPath(p.record) !== p.path) touched.add(p.path).add(recordPath(p.record));
  }
  for (const [, paths] of where) if (paths.length > 1) for (const p of paths) touched.add(p);
  for (const w of writes) {
    const ref = recordRef(w);
    const before = merged.get(ref);
    if (before) touched.add(recordPath(before));
    touched.add(recordPath(w));
    merged.set(ref, w);
  }
  const records = [...merged.values()];
  const groups = groupByPath(records);
  const files: FileChanges = new Map();
  for (const path of [...touched].sort()) {
    const text = fileText(groups.get(path) ?? []);
    if (texts.get(path) !== text) files.set(path, text);
  }
  if (!texts.has(MODELS_PATH) && !files.has(MODELS_PATH)) files.set(MODELS_PATH, fileText(groups.get(MODELS_PATH) ?? []));
  let sources = theirs;
  if (sourceWrites.length) {
    sources = mergeSources([theirs, sourceWrites], { prefer: 'newer' }).records;
    const text = sourcesText(sources);
    if (texts.get(SOURCES_PATH) !== text) files.set(SOURCES_PATH, text);
  }
  const nextReadme = !readme ? newReadme(title, records, sources) : review ? readme : updateReadme(readme, records, sources);
  if (nextReadme !== readme) files.set(README_PATH, nextReadme);
  return { files, records };
}
