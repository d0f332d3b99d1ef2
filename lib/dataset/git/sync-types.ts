/** The sync engine's shapes: the connection, what it is given, the store's side, and what each operation answers. */
import type { SourceRecord, SurveyRecord } from '../../schema';
import type { PublishPlan, Bases } from '../publish';
import type { PullPlan } from '../pull';
import type { DatasetProblem } from '../read';
import type { SyncError } from './errors';
import type { HttpClient, TransferMeter } from './http';
import type { Forge } from './review';
import type { GitFs } from './store';

/** Where the dataset is and who publishes to it. */
export interface DatasetConnection {
  /** The repository's HTTPS (smart protocol) URL. */
  url: string;
  /** The dataset's branch. */
  branch: string;
  /** The access token, sent as HTTP Basic password on every request. */
  token: string;
  /** The Basic user name sent with the token (hosts accept any for a token; GitLab documents `oauth2`). */
  username?: string;
  /** The curator's display name: commit author, and the review branch `curators/<slug>`. */
  name: string;
  email?: string;
  /** The title of the README made for a dataset that has none. */
  title?: string;
  /** The host's kind for review links, when its name does not tell. */
  forge?: Forge | null;
}

/** What the engine works with, passed in. */
export interface EngineEnv {
  fs: GitFs;
  /** The HTTP client (`isomorphic-git/http/web` or `/http/node`); the token is added to every request. */
  http: HttpClient;
  /** Where the clone lives in `fs`. */
  dir: string;
  meter?: TransferMeter;
  signal?: AbortSignal;
  now?: () => Date;
  onProgress?: (progress: { phase: string; loaded: number; total?: number }) => void;
  /** Called as each step ends, with its time: for a progress line, and the benchmark's breakdown. */
  onStep?: (step: SyncStep, ms: number) => void;
  /** How many times a publish merges and pushes again when the branch keeps moving (default 5). */
  maxPushAttempts?: number;
}

/** The steps of a pull or a publish, in order. */
export type SyncStep = 'clone' | 'fetch' | 'read' | 'plan' | 'write' | 'push' | 'merge';

/** The store's side of a sync: every record (tombstones included), the bases, and the spec's source records. */
export interface LocalSnapshot {
  records: readonly SurveyRecord[];
  bases: Bases;
  /** The store's source records: a publish writes those newer than the branch's into `records/sources.jsonl`. */
  sources?: readonly SourceRecord[];
}

/** What `testConnection` found. */
export interface ConnectionReport {
  ok: boolean;
  /** Why not, when not ok. */
  error: SyncError | null;
  /** Branches of the repository. */
  branches: string[];
  /** The repository has no commits yet: the first publish makes the branch. */
  empty: boolean;
  canWrite: boolean;
}

/** What a pull found and plans. */
export interface PullOutcome {
  /** The dataset's head commit (null for an empty repository). */
  head: string | null;
  plan: PullPlan;
  /** Every record of the dataset (to plan again inside the store's transaction). */
  remote: SurveyRecord[];
  /** The dataset's source records (`records/sources.jsonl`), for the store to merge in (later `updated_at` wins). */
  sources: SourceRecord[];
  /** `.jsonl` files outside `records/`, never read. */
  ignored: string[];
  /** What a valid dataset would not have (records in the wrong file, duplicates): readable, reported. */
  layout: DatasetProblem[];
}

/** What a publish would do, without doing it. */
export interface PublishPreview {
  head: string | null;
  plan: PublishPlan;
  /** Paths of the files the commit would write. */
  files: string[];
}

/** What a publish did. */
export interface PublishOutcome {
  status: 'published' | 'nothing';
  plan: PublishPlan;
  /** The commit now at the head of the branch pushed to (null when nothing was published to an empty repository). */
  commit: string | null;
  /** The remote branch pushed to: the dataset's, or `curators/<name>`. */
  pushedTo: string;
  /** The dataset branch's head the publish was built on (for a review: what it is behind once the branch moves). */
  base: string | null;
  /** Where to open the review (publishing for review on a known host). */
  reviewUrl: string | null;
  /** Bases for the store to record: the versions now in the dataset's branch (none for a review branch but what already agreed). */
  bases: Array<[string, string]>;
  /** Times the branch had moved and the commit was merged with it by record identity. */
  merges: number;
  /** The server's messages (`remote:` lines). */
  messages: string[];
}

/** Where a publish goes. */
export interface PublishOptions {
  /** The commit message (default: the plan's summary). */
  message?: string;
  /** The dataset's branch, or a branch of one's own for review (`curators/<name>`). */
  target?: 'branch' | 'review';
}
