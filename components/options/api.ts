/**
 * What the options page needs from the rest of the extension: its calls to the background (one `call` function
 * made from the protocol) and the few browser capabilities that are not calls. The options page's entrypoint
 * provides it; each card asks for the calls it makes.
 */
import type { Caller, Calls, PageSends } from '../../lib/messages';
import type { DatasetApi } from '../common/dataset';
import type { RecheckApi } from '../recheck/api';

/** The calls of an import (a restore is an import). */
export type ImportCall = 'import.preview' | 'import.commit';

/** What the import UI needs: its calls, and handing a file to the background. */
export interface ImportApi extends Calls<ImportCall> {
  /**
   * Hands a file, or its text, to the background ahead of the call that names it; null when it cannot (the text then
   * travels in the call). A file crosses as a handle and is read there: the page neither reads nor copies its text.
   */
  handOver?(content: string | Blob): Promise<string | null>;
}

/** What the backup card needs: the import's calls and the backup's own. */
export interface BackupApi extends ImportApi {
  call: Caller<ImportCall | 'backup.status' | 'backup.create'>;
}

/** Where the export card gets the store's records. */
export type ExportApi = Calls<'survey.data'>;

/** The curator's settings, read and changed. */
export type SettingsApi = Calls<'settings.get' | 'settings.set'>;

/**
 * The options page's access to the store and the browser: what each card needs (the dataset's host permission,
 * the recheck's reader), with every call an extension page may send.
 */
export interface OptionsApi extends BackupApi, DatasetApi, RecheckApi {
  /** Every call an extension page may send. */
  call: Caller<PageSends>;
  /** Calls back when claims change anywhere; returns an unsubscribe function. */
  onChange(callback: () => void): () => void;
  /** Whether the browser lets the extension read `file://` PDFs (null when it cannot tell). */
  fileAccess(): Promise<boolean | null>;
}
