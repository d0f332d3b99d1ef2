/**
 * The dataset's `source` records (`shared/spec/survey-records.md`, "`source`
 * records"): what the last recheck of each source URL found, one record per
 * URL in `records/sources.jsonl`, sorted by URL, every line in one canonical
 * form. Two versions of a URL's record merge as every record does: the later
 * `updated_at` wins, two different versions at the same moment are a conflict.
 * Pure.
 */
import { describeZodError, SOURCE_SCHEMA, SourceRecord } from '../schema';
import type { ClaimVerdict } from '../recheck/verdicts';
import { sourceStatus, verdictCounts } from '../recheck/verdicts';

/** The file of every source record. */
export const SOURCES_PATH = 'records/sources.jsonl';

/** A source record and the line it was read from. */
export interface PlacedSource {
  record: SourceRecord;
  line: number;
}

/** What reading `records/sources.jsonl` gave: its records, bad lines, and lines a valid dataset would not have. */
export interface SourcesRead {
  sources: PlacedSource[];
  problems: { line: number; message: string }[];
  layout: { line: number; message: string }[];
}

const TOP_KEYS = ['schema', 'url', 'checked', 'status', 'claims', 'updated_at'];
const COUNT_KEYS = ['unchanged', 'edited', 'gone'];

/** Keys in the spec's order, then any others in code-unit order. */
function arranged(value: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of order) if (k in value) out[k] = value[k];
  for (const k of Object.keys(value).sort()) if (!(k in out)) out[k] = value[k];
  return out;
}

/** One source record as its line (no newline): the spec's keys in order, the counts' too. */
export function serializeSource(record: SourceRecord): string {
  const top = arranged(record as Record<string, unknown>, TOP_KEYS);
  top.claims = arranged(record.claims as Record<string, unknown>, COUNT_KEYS);
  return JSON.stringify(top);
}

const byUrl = (a: SourceRecord, b: SourceRecord) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0);

/** The bytes of `records/sources.jsonl`: one line per record, sorted by URL ("" when there is none). */
export function sourcesText(records: readonly SourceRecord[]): string {
  return [...records]
    .sort(byUrl)
    .map((r) => `${serializeSource(r)}\n`)
    .join('');
}

/** Reads the sources file line by line: each bad line named, a URL twice with different content a layout problem, the order and form checked. */
export function readSourcesFile(text: string): SourcesRead {
  const out: SourcesRead = { sources: [], problems: [], layout: [] };
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      out.problems.push({ line: i + 1, message: 'not a JSON object (one source record per line)' });
      continue;
    }
    const schema = (value as { schema?: unknown } | null)?.schema;
    if (schema !== SOURCE_SCHEMA) {
      out.problems.push({
        line: i + 1,
        message:
          schema === undefined
            ? `missing "schema" (expected "${SOURCE_SCHEMA}")`
            : `${JSON.stringify(schema)} is not a source record (expected "${SOURCE_SCHEMA}"; claims and models have their own files)`,
      });
      continue;
    }
    const parsed = SourceRecord.safeParse(value);
    if (!parsed.success) out.problems.push({ line: i + 1, message: describeZodError(parsed.error) });
    else out.sources.push({ record: parsed.data, line: i + 1 });
  }
  const first = new Map<string, PlacedSource>();
  for (const p of out.sources) {
    const seen = first.get(p.record.url);
    if (!seen) first.set(p.record.url, p);
    else if (serializeSource(seen.record) !== serializeSource(p.record))
      out.layout.push({ line: p.line, message: `source ${p.record.url} appears again with different content (first at line ${seen.line})` });
  }
  if (!out.problems.length) {
    const canonical = sourcesText(mergeSources([out.sources.map((s) => s.record)], { prefer: 'newer' }).records);
    if (canonical !== text) out.layout.push({ line: 0, message: 'not sorted by url in the canonical form (one record per url): "survey build ." rewrites it' });
  }
  return out;
}

/** Two versions of one URL's record that tie on `updated_at`: for a person to settle. */
export interface SourceConflict {
  url: string;
  versions: SourceRecord[];
}

/**
 * Lists of source records merged by URL: the later `updated_at` wins; two different versions at the same moment
 * are a conflict (both left out of `records` unless `prefer: 'newer'`, which keeps the greater line, whatever the
 * order of the lists).
 */
export function mergeSources(
  lists: readonly (readonly SourceRecord[])[],
  { prefer }: { prefer?: 'newer' } = {},
): { records: SourceRecord[]; conflicts: SourceConflict[] } {
  const best = new Map<string, { record: SourceRecord; line: string; tied: Map<string, SourceRecord> }>();
  for (const list of lists)
    for (const record of list) {
      const line = serializeSource(record);
      const held = best.get(record.url);
      if (!held || record.updated_at > held.record.updated_at) best.set(record.url, { record, line, tied: new Map([[line, record]]) });
      else if (record.updated_at === held.record.updated_at) {
        held.tied.set(line, record);
        if (line > held.line) Object.assign(held, { record, line });
      }
    }
  const records: SourceRecord[] = [];
  const conflicts: SourceConflict[] = [];
  for (const [url, held] of best) {
    if (held.tied.size > 1) {
      conflicts.push({ url, versions: [...held.tied.keys()].sort().map((k) => held.tied.get(k)!) });
      if (prefer !== 'newer') continue;
    }
    records.push(held.record);
  }
  return { records: records.sort(byUrl), conflicts: conflicts.sort((a, b) => (a.url < b.url ? -1 : 1)) };
}

/**
 * A source's record after a recheck on `today` (YYYY-MM-DD) at `now` (RFC 3339): status and counts from the
 * verdicts. An unreachable source keeps the day it was last read and that reading's counts (its previous record's,
 * else its claims' newest `accessed` day and no counts): nothing is said about its claims but that it failed.
 */
export function recheckedSource(
  url: string,
  verdicts: readonly ClaimVerdict[],
  { today, now, previous, accessed }: { today: string; now: string; previous?: SourceRecord; accessed: string },
): SourceRecord {
  const status = sourceStatus(verdicts);
  if (status === 'unreachable')
    return {
      schema: SOURCE_SCHEMA,
      url,
      checked: previous?.checked ?? accessed,
      status,
      claims: previous?.claims ?? { unchanged: 0, edited: 0, gone: 0 },
      updated_at: now,
    };
  return { schema: SOURCE_SCHEMA, url, checked: today, status, claims: verdictCounts(verdicts), updated_at: now };
}

/** The day each source was last found unchanged: kept in `lib/survey/as-of.ts` (the panel's first rows need it without zod). */
export { unchangedSince } from '../survey/as-of';

/**
 * Whether the versions of a file in a merge are the sources file's: git's merge driver is told a file's name only
 * (`sources.jsonl`, which a model's claims file may be called too), so the lines say which it is.
 */
export function isSourcesText(...versions: readonly string[]): boolean {
  for (const text of versions) {
    const first = text
      .replace(/^\uFEFF/, '')
      .split('\n')
      .find((l) => l.trim() !== '');
    if (first === undefined) continue;
    try {
      return (JSON.parse(first) as { schema?: unknown } | null)?.schema === SOURCE_SCHEMA;
    } catch {
      return false;
    }
  }
  return false;
}

/** Parses a side of a three-way merge of the sources file; a line it cannot read stops the merge (nothing guessed). */
function sidesSources(text: string, side: string): SourceRecord[] {
  const read = readSourcesFile(text);
  const bad = read.problems[0];
  if (bad) throw new Error(`${side} version of ${SOURCES_PATH}, line ${bad.line}: ${bad.message}`);
  return read.sources.map((s) => s.record);
}

/**
 * Merges two curators' versions of the sources file (a merge of branches): each URL's later record wins, the base
 * aside (a source record is never deleted, so the newer of the two sides is always the one to keep); two different
 * records of one URL at the same moment are conflicts, each with the fields that differ.
 */
export function mergeSourcesText(
  _base: string,
  ours: string,
  theirs: string,
): { text: string; conflicts: { key: string; label: string; diffs: { field: string; ours: unknown; theirs: unknown }[] }[] } {
  const mine = sidesSources(ours, 'our');
  const their = sidesSources(theirs, 'their');
  const merged = mergeSources([mine, their]);
  const conflicts = merged.conflicts.map((c) => {
    const mineLine = new Set(mine.map(serializeSource));
    const [a, b] = mineLine.has(serializeSource(c.versions[0]!)) ? [c.versions[0]!, c.versions[1]!] : [c.versions[1]!, c.versions[0]!];
    const diffs = (['checked', 'status', 'claims'] as const)
      .filter((f) => JSON.stringify(a[f]) !== JSON.stringify(b[f]))
      .map((field) => ({ field, ours: a[field], theirs: b[field] }));
    return { key: c.url, label: `source ${c.url}`, diffs };
  });
  return { text: sourcesText(merged.records), conflicts };
}
