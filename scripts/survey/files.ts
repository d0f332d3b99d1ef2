/** Reading survey-record files for the CLI: every record with the file and line it came from. */
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseSurveyJsonl } from '../../lib/import/jsonl';
import { describeZodError, SOURCE_SCHEMA, SourceRecord, type SurveyRecord } from '../../lib/schema';
import { UsageError } from './args';

/** One record and where it was read. */
export interface Located {
  record: SurveyRecord;
  file: string;
  line: number;
}

/** One problem, printed as `FILE:LINE: message`. */
export interface Problem {
  file: string;
  line: number;
  message: string;
}

/** The records of one file, its source records (`rl-survey.source/1`, what rechecks found) and its problems. */
export interface ReadFile {
  file: string;
  records: Located[];
  sources: { record: SourceRecord; file: string; line: number }[];
  problems: Problem[];
}

/** Reads a file as UTF-8 text; a missing or unreadable file is a usage error (exit 2). */
export async function readText(file: string, cwd: string): Promise<string> {
  try {
    return await readFile(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : 'cannot be read';
    throw new UsageError(`${file}: ${why}`);
  }
}

/** Parses one JSONL file line by line, so every record keeps its line number. */
export function parseFile(file: string, text: string): ReadFile {
  const out: ReadFile = { file, records: [], sources: [], problems: [] };
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((raw, i) => {
    if (raw.trim() === '') return;
    if (raw.includes(SOURCE_SCHEMA)) {
      const source = sourceLine(raw);
      if (source) {
        if (source.ok) out.sources.push({ record: source.record, file, line: i + 1 });
        else out.problems.push({ file, line: i + 1, message: source.message });
        return;
      }
    }
    const parsed = parseSurveyJsonl(raw);
    for (const e of parsed.errors) out.problems.push({ file, line: i + 1, message: e.message });
    for (const record of parsed.records) out.records.push({ record, file, line: i + 1 });
  });
  return out;
}

/** A line that is a source record (null when it is not one: claims and models are parsed as such). */
function sourceLine(raw: string): { ok: true; record: SourceRecord } | { ok: false; message: string } | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if ((value as { schema?: unknown } | null)?.schema !== SOURCE_SCHEMA) return null;
  const parsed = SourceRecord.safeParse(value);
  return parsed.success ? { ok: true, record: parsed.data } : { ok: false, message: describeZodError(parsed.error) };
}

/** Folders never searched for records: a repository's own data and installed packages. */
const SKIPPED_FOLDERS = new Set(['.git', 'node_modules']);

/** The `*.jsonl` files under a folder, read recursively, as paths joined to `shown` (how the folder was typed), in path order. */
export async function jsonlFilesIn(shown: string, absolute: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(absolute, rel), { withFileTypes: true });
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(e.name)) await walk(child);
      } else if (e.isFile() && e.name.endsWith('.jsonl')) out.push(path.join(shown, child));
    }
  };
  await walk('');
  return out;
}

/** The files named on a command line: a folder stands for its `*.jsonl` files, read recursively. */
export async function expandInputs(inputs: readonly string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (const input of inputs) {
    let isFolder = false;
    try {
      isFolder = (await stat(path.resolve(cwd, input))).isDirectory();
    } catch {
      // a missing file is reported when it is read
    }
    if (!isFolder) {
      out.push(input);
      continue;
    }
    const found = await jsonlFilesIn(input, path.resolve(cwd, input));
    if (!found.length) throw new UsageError(`${input}: a folder without .jsonl files`);
    out.push(...found);
  }
  return out;
}

/** Reads and parses every file given (folders: their `*.jsonl` files); usage errors (missing files) first, before any output. */
export async function readFiles(inputs: readonly string[], cwd: string): Promise<ReadFile[]> {
  if (inputs.length === 0) throw new UsageError('no input files');
  const files = await expandInputs(inputs, cwd);
  const texts = await Promise.all(files.map((f) => readText(f, cwd)));
  return files.map((f, i) => parseFile(f, texts[i]!));
}

/** `FILE:LINE: message`. */
export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}: ${p.message}`;
}
