/** What the options page needs from the rest of the extension; the options page's entrypoint provides it. */
import type { BackupStatus } from '../../lib/backup';
import type { RequestOf, ResponseOf } from '../../lib/messages';
import type { Settings } from '../../lib/settings';
import type { ImportOutcome, ImportPreview } from '../../lib/transfer';
import type { ExportData } from '../../lib/export/files';
import type { DatasetApi } from '../common/dataset';
import type { AddressReviewApi } from './AddressReview';
import type { RecheckApi } from '../recheck/api';

/** What the import UI needs from the background. */
export interface ImportApi {
  preview(request: RequestOf<'import.preview'>): Promise<ImportPreview>;
  commit(request: RequestOf<'import.commit'>): Promise<ImportOutcome>;
  /** Hands a file's text to the background ahead of the call that names it; null when it cannot (the text then travels in the call). */
  handOver?(text: string): Promise<string | null>;
}

/** What the backup card needs: the import calls (a restore is an import) and the backup's own. */
export interface BackupApi extends ImportApi {
  status(): Promise<BackupStatus>;
  create(): Promise<ResponseOf<'backup.create'>>;
}

/** Where the export card gets the store's records. */
export interface ExportApi {
  load(): Promise<ExportData>;
}

/** The curator's settings, read and changed. */
export interface SettingsApi {
  settings(): Promise<Settings>;
  changeSettings(patch: RequestOf<'settings.set'>): Promise<Settings>;
}

/** The options page's access to the store and the browser, as calls. */
export interface OptionsApi extends BackupApi, ExportApi, SettingsApi {
  /** What the store holds. */
  summary(): Promise<ResponseOf<'store.summary'>>;
  /** Calls back when claims change anywhere; returns an unsubscribe function. */
  onChange(callback: () => void): () => void;
  /** Whether the browser lets the extension read `file://` PDFs (null when it cannot tell). */
  fileAccess(): Promise<boolean | null>;
  /** The team's dataset: connect, pull, publish. */
  dataset: DatasetApi;
  /** The one-time notice of claims to check after the site rule changed. */
  addresses: AddressReviewApi;
  /** Rechecking sources: the run, its findings, accepting an edited passage. */
  recheck: RecheckApi;
}
