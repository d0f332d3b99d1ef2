/**
 * What moving records into the store reports: how many of each kind, an
 * import's dry run (new, updated, unchanged, conflicts side by side, bad
 * lines) and what its commit stored. Shared by the background, which plans
 * and writes, and the options page, which shows it.
 */
import type { ImportFormat, ImportMode } from '../import/formats';
import type { LineError } from '../import/jsonl';
import type { FieldDiff } from '../import/merge';

/** How many of each record kind. */
export interface RecordCounts {
  claims: number;
  models: number;
  /** Source corrections. */
  sources: number;
  /** The spec's `source` records (what the last recheck of each source found); absent where none can be. */
  sourceRecords?: number;
}

/** What an import would do to the store's source records (later `updated_at` wins; the incoming one on a tie). */
export interface SourceRecordCounts {
  /** In the file. */
  incoming: number;
  /** New to the store. */
  added: number;
  /** Replacing an older version. */
  updated: number;
  /** Older than, or the same as, the store's. */
  unchanged: number;
}

/** A conflict shown side by side: the stored version ("mine", `ours`) and the file's ("theirs"), field by field. */
export interface ConflictView {
  ref: string;
  label: string;
  diffs: FieldDiff[];
}

/** What importing a file would do (`import.preview`); nothing is stored. */
export interface ImportPreview {
  fileName: string;
  format: ImportFormat;
  mode: ImportMode;
  /** Pass to `import.commit`; null when the file cannot be imported (see `errors`). */
  token: string | null;
  /** Lines, annotations or backup entries read. */
  items: number;
  incoming: RecordCounts;
  added: number;
  /** Merge: replaced by a newer version. Replace: stored records the file holds again. */
  updated: number;
  unchanged: number;
  /** Replace mode: stored records the file does not hold (they go). */
  removed: number;
  /** The first conflicts (at most 500); `conflictCount` counts them all. */
  conflicts: ConflictView[];
  conflictCount: number;
  /** The first errors (at most 200); `errorCount` counts them all. */
  errors: LineError[];
  errorCount: number;
  /** Replace mode: what the store holds now. */
  store: RecordCounts | null;
  /** The file's source records and what storing them would do ("sources: N new/updated"); the background always says. */
  sourceRecords?: SourceRecordCounts;
}

/** What `import.commit` stored, or that its preview is gone (send the text again). */
export type ImportOutcome =
  | {
      status: 'stored';
      fileName: string;
      mode: ImportMode;
      items: number;
      added: number;
      updated: number;
      unchanged: number;
      removed: number;
      kept: number;
      taken: number;
      /** Source records stored (new, or newer than the store's). */
      sourceRecords?: number;
    }
  | { status: 'expired' };
