/**
 * Reading a dataset's files into records, the way a careful reader does
 * with a repository anyone may have pushed to: only the layout's records
 * files are read (a path elsewhere is listed, never read as records), a file
 * over the size limit or not UTF-8 is refused whole, and every bad line is
 * named by file and line. Pure.
 */
import { serializeRecord } from '../export/jsonl';
import { parseSurveyJsonl } from '../import/jsonl';
import { CLAIM_SCHEMA, type ClaimRecord, type SurveyRecord } from '../schema';
import { recordRef } from './hash';
import { fileText, pathRole, recordPath } from './layout';
import { readSourcesFile, type PlacedSource } from './sources';

/** The largest records file read, in bytes: a model's claims are far below it (10,000 claims are about 15 MB). */
export const MAX_RECORDS_FILE_BYTES = 32 * 1024 * 1024;

/** One file of a dataset's tree. */
export interface DatasetFile {
  path: string;
  /** The file's bytes, or its text when already decoded. */
  content: Uint8Array | string;
}

/** A record and the place it was read from. */
export interface PlacedRecord {
  record: SurveyRecord;
  path: string;
  line: number;
}

/** A problem at a place in a dataset: `path:line: message` (line 0 for the whole file). */
export interface DatasetProblem {
  path: string;
  line: number;
  message: string;
}

/** A dataset's records as read. */
export interface ReadDataset {
  /** Every valid record with its place, in path then line order. */
  records: PlacedRecord[];
  /** What makes the records unusable: bad lines, files too large or not UTF-8, files under `records/` outside the layout. */
  problems: DatasetProblem[];
  /** What a valid dataset would not have but a reader can live with: records in the wrong file, duplicates, files not in export order. */
  layout: DatasetProblem[];
  /** Files outside `records/` ending in `.jsonl`: never read as records. */
  ignored: string[];
  /** The text of each records file read, by path (the sources file's too). */
  texts: Map<string, string>;
  /** The source records of `records/sources.jsonl` (what the last recheck of each source found). */
  sources: PlacedSource[];
}

/** "12.3 MB". */
export function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function decode(content: Uint8Array | string): string | null {
  if (typeof content === 'string') return content;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return null;
  }
}

/** What one file of a dataset contributes: its records, problems and layout problems (cacheable by path and content). */
export interface FileRead {
  path: string;
  records: PlacedRecord[];
  problems: DatasetProblem[];
  layout: DatasetProblem[];
  /** The decoded text of a records file (null when it was not read). */
  text: string | null;
  /** Set for a `.jsonl` file outside `records/`: listed, never read. */
  ignored: boolean;
  /** The source records, for the sources file. */
  sources: PlacedSource[];
}

/** Reads one file of a dataset by its role: a records file is decoded and parsed line by line, anything else is only classified. */
export function readDatasetFile(file: DatasetFile): FileRead {
  const out: FileRead = { path: file.path, records: [], problems: [], layout: [], text: null, ignored: false, sources: [] };
  const role = pathRole(file.path);
  if (role === 'other') {
    out.ignored = /\.jsonl$/i.test(file.path);
    return out;
  }
  if (role === 'readme') return out;
  if (role === 'misplaced') {
    out.problems.push({
      path: file.path,
      line: 0,
      message: 'not part of the dataset layout: records belong in records/claims/<model>.jsonl, records/models.jsonl and records/sources.jsonl',
    });
    return out;
  }
  const size = typeof file.content === 'string' ? file.content.length : file.content.byteLength;
  if (size > MAX_RECORDS_FILE_BYTES) {
    out.problems.push({
      path: file.path,
      line: 0,
      message: `the file is ${megabytes(size)}; a records file may be at most ${megabytes(MAX_RECORDS_FILE_BYTES)}`,
    });
    return out;
  }
  const text = decode(file.content);
  if (text === null) {
    out.problems.push({ path: file.path, line: 0, message: 'not UTF-8 text' });
    return out;
  }
  out.text = text;
  if (role === 'sources') {
    const read = readSourcesFile(text);
    out.sources = read.sources;
    for (const p of read.problems) out.problems.push({ path: file.path, ...p });
    for (const p of read.layout) out.layout.push({ path: file.path, ...p });
    return out;
  }
  readFile(file.path, text, out);
  return out;
}

/** A dataset from its files' reads (any order): their records, problems and layout problems, and records appearing twice with different content. */
export function combineDataset(reads: Iterable<FileRead>): ReadDataset {
  const out: ReadDataset = { records: [], problems: [], layout: [], ignored: [], texts: new Map(), sources: [] };
  const sorted = [...reads].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const r of sorted) {
    if (r.ignored) out.ignored.push(r.path);
    if (r.text !== null) out.texts.set(r.path, r.text);
    out.records.push(...r.records);
    out.sources.push(...r.sources);
    out.problems.push(...r.problems);
    out.layout.push(...r.layout);
  }
  findDuplicates(out);
  return out;
}

/** Reads the records files among `files` (any order); nothing is trusted beyond what the schemas allow. */
export function readDataset(files: Iterable<DatasetFile>): ReadDataset {
  return combineDataset([...files].map(readDatasetFile));
}

function readFile(path: string, text: string, out: Pick<FileRead, 'records' | 'problems' | 'layout'>): void {
  const placed: PlacedRecord[] = [];
  let bad = false;
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    // One line at a time, so every record keeps its line number.
    const parsed = parseSurveyJsonl(raw);
    for (const e of parsed.errors) out.problems.push({ path, line: i + 1, message: e.message });
    bad ||= parsed.errors.length > 0;
    for (const record of parsed.records) placed.push({ record, path, line: i + 1 });
  }
  let misplaced = false;
  for (const p of placed) {
    const want = recordPath(p.record);
    if (want === path) continue;
    misplaced = true;
    const what = p.record.schema === CLAIM_SCHEMA ? `a claim about ${JSON.stringify(p.record.model)}` : 'a model record';
    out.layout.push({ path, line: p.line, message: `${what} belongs in ${want}` });
  }
  if (!bad && !misplaced) {
    const canonical = fileText(placed.map((p) => p.record));
    if (canonical !== text)
      out.layout.push({
        path,
        line: firstDifference(text, canonical),
        message: 'not in the export order and form (sorted records, canonical keys, one "\\n" per line): "survey build ." rewrites it',
      });
  }
  out.records.push(...placed);
}

function firstDifference(a: string, b: string): number {
  const x = a.split('\n');
  const y = b.split('\n');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i + 1;
}

/** Records appearing twice with different content: a reader keeps the newest, a valid dataset has one. */
function findDuplicates(out: ReadDataset): void {
  const first = new Map<string, PlacedRecord>();
  for (const p of out.records) {
    const ref = recordRef(p.record);
    const seen = first.get(ref);
    if (!seen) first.set(ref, p);
    else if (serializeRecord(seen.record) !== serializeRecord(p.record)) {
      const what = p.record.schema === CLAIM_SCHEMA ? `claim ${(p.record as ClaimRecord).id}` : `model record ${JSON.stringify(p.record.model)}`;
      out.layout.push({ path: p.path, line: p.line, message: `${what} appears again with different content (first at ${seen.path}:${seen.line})` });
    }
  }
}

/** `path:line: message`. */
export function formatDatasetProblem(p: DatasetProblem): string {
  return `${p.path}:${p.line}: ${p.message}`;
}
