/**
 * Reading an import file in any of the formats Recipe Lens accepts — survey
 * JSONL, W3C Web Annotation JSON-LD, or a Recipe Lens backup — into records,
 * with every problem named by line. Pure: shared by the background and tests.
 */
import type { SourceCorrection, SourceRecord, SurveyRecord } from '../schema';
import { fromW3cAnnotations } from '../export/w3c';
import { parseBackup } from '../backup';
import { parseJsonSafely, parseSurveyJsonl, type LineError } from './jsonl';
import { childPath, jsonValueLines, syntaxErrorLine } from './locate';
import type { ImportFormat } from './formats';

/** The formats, modes and size limit, for callers of the parsers. */
export { IMPORT_FORMATS, IMPORT_MODES, MAX_IMPORT_BYTES, tooLargeMessage, type ImportFormat, type ImportMode } from './formats';

/** An import file read into records. */
export interface ParsedImport {
  records: SurveyRecord[];
  /** Source corrections: only backups carry them. */
  sources: SourceCorrection[];
  /** The spec's `source` records (`rl-survey.source/1` lines of a JSONL file, or a backup's). */
  sourceRecords: SourceRecord[];
  errors: LineError[];
  /** Lines (JSONL), annotations (W3C) or records and corrections (backups) read. */
  items: number;
}

/** The format a file's name alone tells (JSON Lines by its extension), or null when only its text can. */
export function formatByName(fileName: string): ImportFormat | null {
  return /\.(jsonl|ndjson)$/i.test(fileName) ? 'jsonl' : null;
}

/**
 * The format of a file from its first line: a backup's `format` tag, a
 * survey record (JSONL), else W3C annotations. A file named `.jsonl` or
 * `.ndjson` is JSONL.
 */
export function detectFormat(text: string, fileName: string): ImportFormat {
  const named = formatByName(fileName);
  if (named) return named;
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('{"format":"recipe-lens-backup/') || /^\{\s*"format"\s*:\s*"recipe-lens-backup\//.test(start)) return 'backup';
  const firstLine = start.slice(0, start.indexOf('\n') === -1 ? undefined : start.indexOf('\n')).trim();
  try {
    const value = parseJsonSafely(firstLine);
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'schema' in value) return 'jsonl';
  } catch {
    // not one record on the first line
  }
  return 'w3c';
}

/** The path of each annotation, in the order `fromW3cAnnotations` reads them (its own traversal, mirrored). */
function annotationPaths(doc: unknown, path: string): string[] | null {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const hasType = (v: Record<string, unknown>, type: string) => (Array.isArray(v.type) ? v.type : [v.type]).includes(type);
  if (Array.isArray(doc)) return doc.map((_, i) => childPath(path, i));
  if (!isObject(doc)) return null;
  if (hasType(doc, 'Annotation')) return [path];
  if (hasType(doc, 'AnnotationPage') || Array.isArray(doc.items)) {
    const items = doc.items;
    const out = Array.isArray(items)
      ? items.map((_, i) => childPath(childPath(path, 'items'), i))
      : items === undefined || items === null
        ? []
        : [childPath(path, 'items')];
    if (isObject(doc.next)) out.push(...(annotationPaths(doc.next, childPath(path, 'next')) ?? []));
    return out;
  }
  if (hasType(doc, 'AnnotationCollection')) return isObject(doc.first) ? (annotationPaths(doc.first, childPath(path, 'first')) ?? []) : [];
  return null;
}

function parseW3c(text: string): ParsedImport {
  const parsed = fromW3cAnnotations(text);
  const out: ParsedImport = {
    records: parsed.records,
    sources: [],
    sourceRecords: [],
    errors: [],
    items: parsed.records.length + parsed.errors.filter((e) => e.index > 0).length,
  };
  if (!parsed.errors.length) return out;
  let paths: string[] | null = null;
  let lines: Map<string, number> | null = null;
  for (const e of parsed.errors) {
    if (e.index === 0) {
      // The document itself: not JSON, or not annotations.
      let line = 1;
      try {
        parseJsonSafely(text);
      } catch (error) {
        line = syntaxErrorLine(text, error);
      }
      out.errors.push({ line, message: e.message });
      continue;
    }
    paths ??= annotationPaths(parseJsonSafely(text), '$') ?? [];
    lines ??= jsonValueLines(text);
    const path = paths[e.index - 1];
    out.errors.push({ line: path === undefined ? 0 : (lines.get(path) ?? 0), message: `annotation ${e.index}: ${e.message}` });
  }
  return out;
}

/** Text read before a part of a JSONL file is parsed: large enough to parse in few steps, small enough to parse while the rest arrives. */
const JSONL_PART = 512 * 1024;

/**
 * `parseImport` over a file's text as it arrives, in parts (decoded text, in order): JSON Lines are parsed a run of
 * whole lines at a time while the rest is still being read; other formats once all of it is there. Gives what
 * `parseImport` gives for the parts joined.
 */
export async function parseImportParts(parts: AsyncIterable<string>, format: ImportFormat): Promise<ParsedImport> {
  if (format !== 'jsonl') {
    const all: string[] = [];
    for await (const part of parts) all.push(part);
    return parseImport(all.join(''), format);
  }
  const out: ParsedImport = { records: [], sources: [], sourceRecords: [], errors: [], items: 0 };
  let linesBefore = 0;
  const take = (text: string) => {
    const parsed = parseSurveyJsonl(text, { sources: true, linesBefore });
    for (const r of parsed.records) out.records.push(r);
    for (const s of parsed.sources) out.sourceRecords.push(s);
    for (const e of parsed.errors) out.errors.push(e);
    out.items += parsed.lines;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) linesBefore++;
    linesBefore++;
  };
  let pending = '';
  let first = true;
  for await (const part of parts) {
    pending += first ? part.replace(/^\uFEFF/, '') : part;
    first = first && part === '';
    if (pending.length < JSONL_PART) continue;
    const end = pending.lastIndexOf('\n');
    if (end === -1) continue;
    take(pending.slice(0, end));
    pending = pending.slice(end + 1);
  }
  take(pending);
  if (!out.errors.length && !out.records.length && !out.sourceRecords.length) out.errors.push({ line: 0, message: 'the file holds no records' });
  return out;
}

/** Reads an import file's text in the given format; nothing is stored. A file without records (claims, models or source records) is an error. */
export function parseImport(text: string, format: ImportFormat): ParsedImport {
  const body = text.replace(/^\uFEFF/, '');
  let out: ParsedImport;
  if (format === 'jsonl') {
    const parsed = parseSurveyJsonl(body, { sources: true });
    out = { records: parsed.records, sources: [], sourceRecords: parsed.sources, errors: parsed.errors, items: parsed.lines };
  } else if (format === 'w3c') {
    out = parseW3c(body);
  } else {
    const parsed = parseBackup(body);
    out = { records: parsed.records, sources: parsed.sources, sourceRecords: parsed.sourceRecords, errors: parsed.errors, items: parsed.items };
    // An empty backup is a legitimate one: restoring it empties the store.
    return out;
  }
  if (!out.errors.length && !out.records.length && !out.sourceRecords.length) out.errors.push({ line: 0, message: 'the file holds no records' });
  return out;
}
