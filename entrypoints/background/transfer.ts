/**
 * Moving records in and out: backups, and the background's side of imports
 * and restores. A preview parses and plans
 * without storing, keeping the parsed records under a token so that the
 * commit need not receive the file again; the commit plans once more inside
 * its one write transaction (the store may have changed since), applies the
 * curator's resolutions and writes.
 */
import { getBackupState, replaceStore, sourceRecords, storeRefs, storedVersions, takeBackup, writeImportWithSources, type RecipeDatabase } from '../../lib/db';
import { backupReminder, toBackup } from '../../lib/backup';
import { parseImport, parseImportParts, type ImportFormat, type ImportMode, type ParsedImport } from '../../lib/import/files';
import { planStoreImport, recordRef, resolvePlan, type Resolution } from '../../lib/import/preview';
import { planSourceRecords } from '../../lib/import/sources';
import { type BackgroundCall, type Handlers, Upload } from '../../lib/messages';
import type { ImportOutcome, ImportPreview, RecordCounts } from '../../lib/transfer';
import { CLAIM_SCHEMA, type SurveyRecord } from '../../lib/schema';
import { nowTimestamp } from '../../lib/time';
import { db } from './db';

const SHOWN_CONFLICTS = 500;
const SHOWN_ERRORS = 200;
/** Previews kept for their commit; older ones are dropped (the page then sends the text again). */
const KEPT_PREVIEWS = 4;

interface Kept {
  fileName: string;
  format: ImportFormat;
  mode: ImportMode;
  parsed: ParsedImport;
}

// Lost when the service worker stops: a commit then answers "expired" and the page sends the text again.
const previews = new Map<string, Kept>();
/** Files (or their texts) handed over by pages, waiting for their `import.preview`. */
const uploads = new Map<string, string | Blob>();
const KEPT_UPLOADS = 2;

/**
 * Takes file texts, or files, that extension pages post to this worker (see `Upload`), and confirms each on the
 * message's port. A file is read when its preview parses it, as its parts arrive. Only our own pages can reach the
 * worker; the sender's address is checked all the same.
 */
export function listenForUploads(origin: string): void {
  globalThis.addEventListener('message', (event) => {
    const e = event as MessageEvent<unknown>;
    const upload = Upload.safeParse(e.data);
    const from = (e.source as { url?: unknown } | null)?.url;
    if (!upload.success || typeof from !== 'string' || !from.startsWith(origin)) return;
    uploads.set(upload.data.id, 'text' in upload.data ? upload.data.text : upload.data.file);
    while (uploads.size > KEPT_UPLOADS) uploads.delete(uploads.keys().next().value!);
    e.ports[0]?.postMessage({ ok: true });
  });
}

/** The file: its text given in the request, or handed over before (each upload is used once). */
function fileOf(request: { text?: string; upload?: string }): string | Blob | undefined {
  if (request.text !== undefined) return request.text;
  if (request.upload === undefined) return undefined;
  const file = uploads.get(request.upload);
  uploads.delete(request.upload);
  return file;
}

/** A file's text, decoded as UTF-8 part by part as it is read. */
async function* textParts(file: Blob): AsyncGenerator<string> {
  const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Parses a file, a handed-over one as it is read; a file that cannot be read did not reach the background (the page then sends its text). */
async function parseFile(file: string | Blob, fileName: string, format: ImportFormat): Promise<ParsedImport> {
  if (typeof file === 'string') return parseImport(file, format);
  try {
    return await parseImportParts(textParts(file), format);
  } catch (error) {
    throw new Error(`${fileName} did not reach the background (${error instanceof Error ? error.message : String(error)}); import it again.`);
  }
}

function keep(entry: Kept): string {
  const token = crypto.randomUUID();
  previews.set(token, entry);
  while (previews.size > KEPT_PREVIEWS) previews.delete(previews.keys().next().value!);
  return token;
}

function counts(records: readonly SurveyRecord[], sources: number, sourceRecords: number): RecordCounts {
  const claims = records.filter((r) => r.schema === CLAIM_SCHEMA).length;
  return { claims, models: records.length - claims, sources, sourceRecords };
}

/** What importing (merge) or restoring (replace) a file would do; nothing is stored. */
export async function previewImport(
  db: RecipeDatabase,
  request: { text?: string; upload?: string; fileName: string; format: ImportFormat; mode: ImportMode },
): Promise<ImportPreview> {
  const file = fileOf(request);
  if (file === undefined) throw new Error(`${request.fileName} did not reach the background; import it again.`);
  const parsed = await parseFile(file, request.fileName, request.format);
  const preview: ImportPreview = {
    fileName: request.fileName,
    format: request.format,
    mode: request.mode,
    token: null,
    items: parsed.items,
    incoming: counts(parsed.records, parsed.sources.length, parsed.sourceRecords.length),
    added: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    conflicts: [],
    conflictCount: 0,
    errors: parsed.errors.slice(0, SHOWN_ERRORS),
    errorCount: parsed.errors.length,
    store: null,
    sourceRecords: { incoming: parsed.sourceRecords.length, added: 0, updated: 0, unchanged: 0 },
  };
  if (request.mode === 'replace' && request.format !== 'backup' && !parsed.errors.length && !parsed.records.length) {
    preview.errors = [{ line: 0, message: 'the file holds no records' }];
    preview.errorCount = 1;
  }
  if (preview.errorCount) return preview;
  // A restore replaces the store's source records with a backup's; any other file's are merged in (later wins). Read
  // beside the records' stored versions.
  const storedSources = request.mode === 'replace' && request.format === 'backup' ? Promise.resolve([]) : sourceRecords(db);
  storedSources.catch(() => undefined);
  if (request.mode === 'replace') {
    const store = await storeRefs(db);
    const incoming = new Set(parsed.records.map(recordRef));
    for (const ref of incoming) {
      if (store.refs.has(ref)) preview.updated += 1;
      else preview.added += 1;
    }
    preview.removed = [...store.refs].filter((ref) => !incoming.has(ref)).length;
    preview.store = { claims: store.claims, models: store.models, sources: store.sources, sourceRecords: store.sourceRecords };
  } else {
    const plan = planStoreImport(await storedVersions(db, parsed.records), parsed.records);
    preview.added = plan.added;
    preview.updated = plan.updated;
    preview.unchanged = plan.unchanged;
    preview.conflictCount = plan.conflicts.length;
    preview.conflicts = plan.conflicts.slice(0, SHOWN_CONFLICTS).map(({ ref, label, diffs }) => ({ ref, label, diffs }));
  }
  preview.sourceRecords = { incoming: parsed.sourceRecords.length, ...planSourceRecords(await storedSources, parsed.sourceRecords) };
  preview.token = keep({ fileName: request.fileName, format: request.format, mode: request.mode, parsed });
  return preview;
}

/** Stores a previewed import or restore in one transaction; "expired" when the preview is gone and no text came with the commit. */
export async function commitImport(
  db: RecipeDatabase,
  request: {
    token: string;
    text?: string;
    upload?: string;
    fileName: string;
    format: ImportFormat;
    mode: ImportMode;
    resolutions: Resolution[];
    rest: 'mine' | 'theirs';
  },
): Promise<ImportOutcome> {
  let parsed = previews.get(request.token)?.parsed;
  if (!parsed) {
    const file = fileOf(request);
    if (file === undefined) return { status: 'expired' };
    parsed = await parseFile(file, request.fileName, request.format);
    if (parsed.errors.length) throw new Error(`${request.fileName} has ${parsed.errors.length} bad line(s); nothing was stored. Preview it again to see them.`);
  }
  previews.delete(request.token);
  const base = {
    status: 'stored' as const,
    fileName: request.fileName,
    mode: request.mode,
    items: parsed.items,
    added: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    kept: 0,
    taken: 0,
    sourceRecords: 0,
  };
  if (request.mode === 'replace') {
    const before = await storeRefs(db);
    const incoming = new Set(parsed.records.map(recordRef));
    const backup = request.format === 'backup';
    // A backup's source records replace the store's; any other file's are merged in, as on an import (later wins).
    const planned = planSourceRecords(backup ? [] : await sourceRecords(db), parsed.sourceRecords);
    await replaceStore(db, parsed.records, backup ? parsed.sources : null, parsed.sourceRecords, backup ? 'replace' : 'merge');
    const kept = [...incoming].filter((ref) => before.refs.has(ref)).length;
    return { ...base, added: incoming.size - kept, updated: kept, removed: before.refs.size - kept, sourceRecords: planned.added + planned.updated };
  }
  const records = parsed.records;
  const { result, sourceRecords: stored } = await writeImportWithSources(
    db,
    records,
    parsed.sourceRecords,
    (stored) => {
      const plan = planStoreImport(stored, records);
      const { writes, kept, taken } = resolvePlan(plan, request.resolutions, request.rest);
      return { writes, result: { ...base, added: plan.added, updated: plan.updated, unchanged: plan.unchanged, kept, taken } };
    },
    nowTimestamp(),
  );
  return { ...result, sourceRecords: stored };
}

/** Answers to the import, restore and backup calls. */
export const transferHandlers = {
  async 'import.preview'(request) {
    return previewImport(await db(), request);
  },
  async 'import.commit'(request) {
    return commitImport(await db(), request);
  },
  async 'backup.create'() {
    const createdAt = nowTimestamp();
    const contents = await takeBackup(await db(), createdAt);
    return {
      text: toBackup(contents, createdAt),
      createdAt,
      counts: {
        claims: contents.claims.length,
        models: contents.models.length,
        sources: contents.sources.length,
        sourceRecords: contents.sourceRecords.length,
      },
    };
  },
  async 'backup.status'() {
    const state = await getBackupState(await db());
    return { lastBackupAt: state.lastBackupAt, changes: state.changes, ...backupReminder(state, nowTimestamp()) };
  },
} satisfies Partial<Handlers<BackgroundCall>>;
