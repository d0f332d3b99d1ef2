/**
 * Export files as the extension downloads them: which records (filters),
 * what they become (JSONL, the survey table as Markdown or CSV in English or
 * Chinese, W3C annotations) and the dated file name. Pure: the page turns the
 * result into a download.
 *
 * JSONL and W3C exports carry every claim's link, filled in where the store
 * has none (`withLinks`). W3C annotations hold claims only (model records
 * are not annotations of a page).
 *
 * The spec's `source` records (what the last recheck of each source found) go
 * with the claims they speak about: an export holds the record of every
 * source one of its claims cites (every record the store holds when nothing is
 * filtered out), so a filtered file rendered elsewhere says the same "not
 * disclosed, as of" days. The JSONL file ends with them, one line per source,
 * sorted by URL (after the claims and models); the table's "as of" days
 * follow them.
 */
import { modelKey, type ClaimRecord, type Evidence, type ModelRecord, type SourceRecord } from '../schema';
import { deriveRows, unchangedSince } from '../survey';
import { sourcesText } from '../dataset/sources';
import { localDate, nowTimestamp } from '../time';

export { localDate } from '../time';
export { ExportLineCache } from './line-cache';
export { JsonlPartCache } from './part-cache';
import { toJsonl } from './jsonl';
import type { ExportLineCache } from './line-cache';
import type { JsonlPartCache } from './part-cache';
import { withLinks } from './links';
import { renderSurveyTable } from './table';
import { toW3cAnnotations } from './w3c';

/** What can be exported. */
export const EXPORT_KINDS = ['jsonl', 'md', 'csv', 'w3c'] as const;
/** One export kind. */
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** Claims and model records (and the spec's source records), as the store hands them over. */
export interface ExportData {
  claims: ClaimRecord[];
  models: ModelRecord[];
  /** The spec's `source` records; none when absent. */
  sources?: SourceRecord[];
}

/** Which records to export; empty values mean "all". Dates are `YYYY-MM-DD`, inclusive, compared with `updated_at`. */
export interface ExportFilter {
  models: string[];
  vendor: string;
  evidence: Evidence[];
  from: string;
  to: string;
}

/** Everything. */
export const NO_EXPORT_FILTER: ExportFilter = { models: [], vendor: '', evidence: [], from: '', to: '' };

/** True when the filter lets everything through. */
export function isEmptyFilter(filter: ExportFilter): boolean {
  return !filter.models.length && !filter.vendor && !filter.evidence.length && !filter.from && !filter.to;
}

function inRange(timestamp: string, filter: ExportFilter): boolean {
  const day = timestamp.slice(0, 10);
  return (!filter.from || day >= filter.from) && (!filter.to || day <= filter.to);
}

/**
 * The records a filter keeps. A claim is kept when its model is among
 * `models`, its row's vendor (from the model record) is `vendor`, its level
 * is among `evidence` and its `updated_at` falls in the date range. A model
 * record is kept when it passes the model and vendor filters and either a
 * kept claim belongs to its row, or — without an evidence filter — its own
 * `updated_at` is in the range.
 */
export function filterExport(data: ExportData, filter: ExportFilter): ExportData {
  if (isEmptyFilter(filter)) return { claims: [...data.claims], models: [...data.models], sources: [...(data.sources ?? [])] };
  const models = new Set(filter.models);
  const levels = new Set(filter.evidence);
  const vendorOf = new Map(data.models.map((m) => [modelKey(m.model, m.recipe), m.vendor ?? '']));
  const rowPasses = (model: string, recipe: string | null | undefined) =>
    (!models.size || models.has(model)) && (!filter.vendor || vendorOf.get(modelKey(model, recipe)) === filter.vendor);
  const claims = data.claims.filter((c) => rowPasses(c.model, c.recipe) && (!levels.size || levels.has(c.evidence)) && inRange(c.updated_at, filter));
  const rows = new Set(claims.map((c) => modelKey(c.model, c.recipe)));
  const kept = data.models.filter(
    (m) => rowPasses(m.model, m.recipe) && (rows.has(modelKey(m.model, m.recipe)) || (!levels.size && inRange(m.updated_at, filter))),
  );
  return { claims, models: kept, sources: citedSources(claims, data.sources) };
}

/** The source records of the sources these claims cite (the records a part of the store carries with it). */
export function citedSources(claims: readonly ClaimRecord[], sources: readonly SourceRecord[] | undefined): SourceRecord[] {
  if (!sources?.length) return [];
  const cited = new Set(claims.map((c) => c.source.url));
  return sources.filter((s) => cited.has(s.url));
}

/** The dated name of an export file, e.g. `recipe-lens-2026-11-29.jsonl`, `recipe-lens-table-zh-2026-11-29.md`. */
export function exportFileName(kind: ExportKind | 'backup', date: string, lang: 'en' | 'zh' = 'en'): string {
  const zh = lang === 'zh' ? '-zh' : '';
  switch (kind) {
    case 'jsonl':
      return `recipe-lens-${date}.jsonl`;
    case 'md':
      return `recipe-lens-table${zh}-${date}.md`;
    case 'csv':
      return `recipe-lens-table${zh}-${date}.csv`;
    case 'w3c':
      return `recipe-lens-annotations-${date}.jsonld`;
    case 'backup':
      return `recipe-lens-backup-${date}.json`;
  }
}

/** MIME types of the downloads. */
export const EXPORT_MIME: Record<ExportKind | 'backup', string> = {
  jsonl: 'application/x-ndjson',
  md: 'text/markdown;charset=utf-8',
  csv: 'text/csv;charset=utf-8',
  w3c: 'application/ld+json',
  backup: 'application/json',
};

/** One file to download. */
export interface ExportFile {
  fileName: string;
  mimeType: string;
  text: string;
  /** Claims, model records and source records it was made from. */
  claims: number;
  models: number;
  sources: number;
}

/** A JSONL export file as parts to join (what `JsonlPartCache.make` makes, then the source records' text, if any). */
export interface ExportParts<P> extends Omit<ExportFile, 'text'> {
  parts: Array<P | string>;
}

/**
 * Builds a JSONL export file from records (already filtered) as parts: the claims' and model records' parts from
 * `cache` (kept ones where the same record objects come again, the others made now), then the source records'
 * text. Joined, the parts are `buildExport('jsonl', data).text`.
 */
export function buildJsonlParts<P>(data: ExportData, cache: JsonlPartCache<P>, options: { now?: Date } = {}): ExportParts<P> {
  const parts: Array<P | string> = cache.parts(data);
  const sources = sourcesText(data.sources ?? []);
  if (sources) parts.push(sources);
  return {
    fileName: exportFileName('jsonl', localDate(options.now ?? new Date())),
    mimeType: EXPORT_MIME.jsonl,
    parts,
    claims: data.claims.length,
    models: data.models.length,
    sources: data.sources?.length ?? 0,
  };
}

/**
 * Builds an export file from records (already filtered). `lines`: the page's cache of JSONL lines for the
 * records it holds (they are values, never changed in place); the file is the same with or without it.
 */
export function buildExport(kind: ExportKind, data: ExportData, options: { lang?: 'en' | 'zh'; now?: Date; lines?: ExportLineCache } = {}): ExportFile {
  const now = options.now ?? new Date();
  const lang = options.lang ?? 'en';
  let text: string;
  switch (kind) {
    case 'jsonl': {
      const cache = options.lines;
      // A claim's sort keys are the same with its link filled in, so the cache's lines can be sorted by the record given.
      text = cache ? toJsonl(data.claims, data.models, (r) => cache.line(r)) : toJsonl(withLinks(data.claims), data.models);
      // Source records last, by URL: a file of claims and models only is byte for byte what it was.
      text += sourcesText(data.sources ?? []);
      break;
    }
    case 'md':
    case 'csv':
      text = renderSurveyTable(deriveRows(data.claims, data.models, { now: nowTimestamp(now), unchangedSince: unchangedSince(data.sources) }), {
        format: kind,
        lang,
      });
      break;
    case 'w3c':
      text = `${JSON.stringify(toW3cAnnotations(withLinks(data.claims)), null, 2)}\n`;
      break;
  }
  const tableLang = kind === 'md' || kind === 'csv' ? lang : 'en';
  return {
    fileName: exportFileName(kind, localDate(now), tableLang),
    mimeType: EXPORT_MIME[kind],
    text,
    claims: data.claims.length,
    models: data.models.length,
    sources: kind === 'jsonl' ? (data.sources?.length ?? 0) : 0,
  };
}
