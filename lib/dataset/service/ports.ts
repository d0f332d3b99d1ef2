/**
 * What the dataset service is given (it runs in the background, but holds no
 * browser API itself): the sync engine's maker, where the connection is kept,
 * the store's side of a sync, the periodic pull's schedule, and the clone's
 * removal.
 */
import type { SourceRecord, SurveyRecord } from '../../schema';
import type { ConnectionReport, DatasetConnection, LocalSnapshot, PublishOptions, PublishOutcome, PublishPreview, PullOutcome, SyncStep } from '../git';
import type { DatasetFailure, DatasetLink } from '../link';
import type { DatasetState, SyncWrite } from '../synced';
import type { KeepAlive } from './keep-alive';

/** The sync engine's operations the service runs (`DatasetSync` has them; a test passes a fake). */
export interface DatasetEngine {
  testConnection(): Promise<ConnectionReport>;
  pull(local: LocalSnapshot): Promise<PullOutcome>;
  preview(local: LocalSnapshot, options?: Pick<PublishOptions, 'target'>): Promise<PublishPreview>;
  publish(local: LocalSnapshot, options?: PublishOptions): Promise<PublishOutcome>;
}

/** What an engine reports while it works, for the progress line. */
export interface EngineHooks {
  onStep: (step: SyncStep) => void;
  onProgress: (progress: { loaded: number; total?: number }) => void;
}

/** Makes an engine for a connection; `hooks` is null for one that reports nothing (Test connection). */
export type EngineFactory = (connection: DatasetConnection, hooks: EngineHooks | null) => DatasetEngine;

/** Where the connection is kept (the token apart from the store, never in a backup or export), and the last automatic pull's failure. */
export interface ConnectionStore {
  link(): Promise<DatasetLink | null>;
  /** The token, or '' when none is stored. */
  token(): Promise<string>;
  save(link: DatasetLink, token: string): Promise<void>;
  /** Forgets the link, the token and the last failure. */
  forget(): Promise<void>;
  lastError(): Promise<DatasetFailure | null>;
  setLastError(failure: DatasetFailure): Promise<void>;
  clearLastError(): Promise<void>;
}

/** A change to what the store remembers of its dataset. */
export type DatasetStatePatch = Partial<Omit<DatasetState, 'url' | 'branch'>>;

/** The store's side of a sync (the background binds it to its database). */
export interface SyncStore {
  /** Every record, the bases and the source records. */
  snapshot(): Promise<LocalSnapshot & { bases: Map<string, string> }>;
  state(): Promise<DatasetState | null>;
  /** Records what a sync did; another dataset than the last one starts afresh (its bases forgotten). */
  putState(dataset: { url: string; branch: string }, patch: DatasetStatePatch): Promise<unknown>;
  /** Writes in one transaction what `decide` plans against exactly what the transaction reads. */
  writeSync<T>(incoming: readonly SurveyRecord[], decide: (stored: SurveyRecord[], bases: Map<string, string>) => SyncWrite<T>, now: string): Promise<T>;
  /** Merges the dataset's source records in (each URL keeps the later `updated_at`); how many changed. */
  putSources(sources: readonly SourceRecord[]): Promise<number>;
  /** Tells the open pages and documents that records changed. */
  notifyChanged(): Promise<void>;
}

/** The periodic pull's schedule. */
export interface PullSchedule {
  /** Sets (or, for null or no period, clears) the periodic pull. */
  set(link: DatasetLink | null): Promise<void>;
}

/** Everything the dataset service is given. */
export interface DatasetServiceDeps {
  engines: EngineFactory;
  connection: ConnectionStore;
  store: SyncStore;
  schedule: PullSchedule;
  keepAlive: KeepAlive;
  /** Removes the local clone (on disconnect). */
  removeClone: () => Promise<void>;
  /** The time now, as records stamp it. */
  now: () => string;
}
