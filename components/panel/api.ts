/** What the evidence panel needs from the rest of the extension; the side panel's entrypoint provides it. */
import type { BackupStatus } from '../../lib/backup';
import type { PageReport } from '../../lib/capture/page-report';
import type { ResponseOf } from '../../lib/messages';
import type { ClaimRecord, ModelRecord, SourceOverride, SourceRecord } from '../../lib/schema';
import type { DatasetApi } from '../common/dataset';
import type { RecheckApi } from '../recheck/api';

/** The panel's access to the store and the browser, as calls. */
export interface PanelApi {
  /** Every claim and model record, and the source records the "not disclosed, as of" days follow. */
  load(): Promise<{ claims: ClaimRecord[]; models: ModelRecord[]; sources?: SourceRecord[] }>;
  /** The first models' claims only (and their sources' records), to paint the survey before everything has arrived. */
  loadHead(models: number): Promise<{ claims: ClaimRecord[]; models: ModelRecord[]; sources?: SourceRecord[] }>;
  saveClaims(claims: ClaimRecord[]): Promise<ClaimRecord[]>;
  deleteClaims(ids: string[]): Promise<ClaimRecord[]>;
  restoreClaims(claims: ClaimRecord[]): Promise<void>;
  saveModel(record: ModelRecord): Promise<ModelRecord>;
  reveal(claim: ClaimRecord): Promise<'tab' | 'opened'>;
  activePage(): Promise<ResponseOf<'tab.page'>>;
  correctSource(source: SourceOverride): Promise<number>;
  /** Asks the tab to re-attach an orphan (the curator selects its new passage there) or to confirm drifted text. */
  passage(tabId: number, id: string, action: 'reattach' | 'confirm'): Promise<boolean>;
  /** Runs the claim finder in a tab, or accepts or dismisses one of its candidates there, or records the page as not disclosed. */
  finder?(tabId: number, action: 'run' | 'accept' | 'dismiss' | 'undisclosed', key?: string): Promise<ResponseOf<'tab.finder'>>;
  /** Calls back when claims change anywhere; returns an unsubscribe function. */
  onChange(callback: () => void): () => void;
  /** Calls back when the active tab (or its page) changes; returns an unsubscribe function. */
  onActiveTabChange(callback: () => void): () => void;
  /** When the store was last backed up and whether a reminder is due (no reminder without it). */
  backupStatus?(): Promise<BackupStatus>;
  /** Opens the options page (backup, import, export). */
  openOptions?(): void;
  /** The team's dataset: the status line, Pull and Publish (none: no dataset bar). */
  dataset?: DatasetApi;
  /** Rechecking a model's sources from its view (none: no recheck there). */
  recheck?: RecheckApi;
}

export type { PageReport };
