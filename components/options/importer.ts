/** The steps of importing files from an extension page: read (with progress), preview in the background, commit. */
export type { ImportApi };
import type { RequestOf } from '../../lib/messages';
import type { ImportOutcome, ImportPreview } from '../../lib/transfer';
import type { ImportApi } from './api';
import { detectFormat, formatByName, MAX_IMPORT_BYTES, tooLargeMessage, type ImportFormat, type ImportMode } from '../../lib/import/files';
import type { LineError } from '../../lib/import/jsonl';
import { readFileText } from '../common/files';
import { plural, t } from '../../lib/i18n';

/** One file on its way in. */
export interface ImportJob {
  fileName: string;
  format: ImportFormat | null;
  /** The file's text, kept until the commit in case the background lost the preview (null when it was handed over unread). */
  text: string | null;
  /** The file itself when the background read it: kept until the commit likewise, read here only if needed. */
  file: Blob | null;
  preview: ImportPreview | null;
  /** Why the file could not even be previewed (too large, unreadable, the background failed). */
  failure: string | null;
}

/** How a finished file is reported. */
export interface ImportReport {
  fileName: string;
  stored: boolean;
  summary: string;
  errors: LineError[];
  moreErrors: number;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads a file (refusing one over the limit) and asks the background what importing it would do. A file whose
 * format is known without its text (chosen, or told by its name) is handed to the background unread: the background
 * reads it, so the page neither decodes nor copies megabytes of text. Any other file, or when the hand-over fails,
 * is read here (with progress) and its text handed over or sent with the call.
 */
export async function previewFile(
  api: ImportApi,
  file: File,
  options: { format: ImportFormat | 'auto'; mode: ImportMode; onProgress?: (loaded: number, total: number) => void; onChecking?: () => void },
): Promise<ImportJob> {
  const job: ImportJob = { fileName: file.name, format: null, text: null, file: null, preview: null, failure: null };
  if (file.size > MAX_IMPORT_BYTES) {
    job.failure = tooLargeMessage(file.size);
    return job;
  }
  const known = options.format === 'auto' ? formatByName(file.name) : options.format;
  let upload: string | null = null;
  if (known && api.handOver) {
    upload = await api.handOver(file).catch(() => null);
    if (upload) job.file = file;
  }
  if (!upload) {
    try {
      job.text = await readFileText(file, options.onProgress);
    } catch (error) {
      job.failure = t('fileUnreadable', message(error));
      return job;
    }
  }
  job.format = known ?? detectFormat(job.text!, file.name);
  options.onChecking?.();
  const request = { fileName: file.name, format: job.format, mode: options.mode };
  try {
    if (!upload) upload = await (api.handOver?.(job.text!).catch(() => null) ?? null);
    try {
      job.preview = await api.call('import.preview', upload ? { ...request, upload } : { ...request, text: job.text! });
    } catch (error) {
      // The worker may have restarted and lost the handed-over text: send it with the call instead.
      if (!upload) throw error;
      job.text ??= await readFileText(file);
      job.preview = await api.call('import.preview', { ...request, text: job.text });
    }
  } catch (error) {
    job.failure = message(error);
  }
  if (!job.preview?.token) {
    job.text = null;
    job.file = null;
  }
  return job;
}

/** Stores a previewed file with the curator's resolutions; hands the file (or sends its text) again if the background lost the preview. */
export async function commitJob(
  api: ImportApi,
  job: ImportJob,
  resolutions: Array<{ ref: string; take: 'mine' | 'theirs' }>,
  rest: 'mine' | 'theirs',
): Promise<ImportOutcome> {
  const preview = job.preview!;
  const request: RequestOf<'import.commit'> = { token: preview.token!, fileName: job.fileName, format: preview.format, mode: preview.mode, resolutions, rest };
  let outcome = await api.call('import.commit', request);
  if (outcome.status === 'expired' && (job.text !== null || job.file !== null)) {
    const upload = await (api.handOver?.(job.file ?? job.text!).catch(() => null) ?? null);
    outcome = await api.call('import.commit', upload ? { ...request, upload } : { ...request, text: job.text ?? (await readFileText(job.file!)) });
  }
  job.text = null;
  job.file = null;
  return outcome;
}

function unit(format: ImportFormat | null, n: number): string {
  if (format === 'w3c') return plural(n, 'annotationsOne', 'annotationsMany');
  if (format === 'backup') return plural(n, 'entriesOne', 'entriesMany');
  return plural(n, 'linesOne', 'linesMany');
}

/** The report of a file that was not stored. */
export function refusedReport(job: ImportJob): ImportReport {
  const p = job.preview;
  const errors = p?.errors ?? [];
  const summary = job.failure ? t('notImportedBecause', job.failure) : t('notImportedFixLines');
  return { fileName: job.fileName, stored: false, summary, errors, moreErrors: Math.max(0, (p?.errorCount ?? 0) - errors.length) };
}

/** The report of a stored file. */
export function storedReport(job: ImportJob, outcome: ImportOutcome): ImportReport {
  if (outcome.status !== 'stored') return { fileName: job.fileName, stored: false, summary: t('notImportedExpired'), errors: [], moreErrors: 0 };
  const items = unit(job.format, outcome.items);
  let summary: string;
  if (outcome.mode === 'replace') {
    summary = t('restoredSummary', outcome.added, outcome.updated, outcome.removed, items);
  } else {
    summary = t('importedSummary', outcome.added, outcome.updated, outcome.unchanged, items);
    if (outcome.kept + outcome.taken > 0) summary += t('conflictsSummary', outcome.kept, outcome.taken);
  }
  return { fileName: job.fileName, stored: true, summary, errors: [], moreErrors: 0 };
}

/** A problem line as shown: the file and the line. */
export function describeLineError(fileName: string, e: LineError): string {
  return e.line > 0 ? t('lineError', fileName, e.line, e.message) : `${fileName}${t('colon')}${e.message}`;
}

/** A value of a conflicting field as text: strings as they are, anything else as JSON, nothing and empty named. */
export function showValue(value: unknown): string {
  if (value === null || value === undefined) return t('valueNone');
  if (value === '') return t('valueEmpty');
  return typeof value === 'string' ? value : JSON.stringify(value);
}
