/**
 * The extension's side of a dataset, as the interface and the background
 * pass it between them: the connection the curator sets (never the token,
 * which stays in the extension's `storage.local`), the status line, and what
 * a test, a dry run, a publish and a pull answer. Pure: schemas, types and
 * small helpers only.
 */
import { z } from 'zod';
import type { ConflictView } from '../transfer';
import type { ModelChange } from './publish';
import type { ReviewState } from './reviews';

export { changedModels, originPattern } from './summary';

/** A git branch name as hosts accept it (no spaces, no `..`, no leading `-` or `/`). */
export const BranchName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^(?!-)(?!\/)(?!.*\.\.)(?!.*\/\/)(?!.*\/$)(?!.*\.lock$)[A-Za-z0-9._/-]+$/, 'not a branch name');

/** The repository's address: HTTPS (smart protocol), or plain HTTP for a host on this machine. */
export const RepositoryUrl = z
  .string()
  .max(2000)
  .refine((s) => {
    try {
      const u = new URL(s);
      if (u.username || u.password) return false;
      return u.protocol === 'https:' || (u.protocol === 'http:' && isLoopback(u.hostname));
    } catch {
      return false;
    }
  }, 'must be an https:// address (http:// only for this machine), without a user name or password in it');

/** Whether a host name is this machine (plain HTTP is allowed only there). */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Where the dataset is and how the curator publishes to it (the token travels apart). */
export const DatasetLink = z.object({
  url: RepositoryUrl,
  branch: BranchName,
  /** The display name for commits, and the review branch `curators/<slug>`. */
  name: z.string().trim().min(1).max(100),
  /** The user name sent with the token (most hosts take any; GitLab documents `oauth2`); empty: a default. */
  username: z.string().trim().max(100).default(''),
  /** Publish straight to the branch, or to `curators/<name>` for review. */
  target: z.enum(['branch', 'review']).default('branch'),
  /** Pull when the browser starts. */
  pullOnStart: z.boolean().default(false),
  /** Pull every N minutes (0: never). */
  pullEveryMinutes: z.number().int().min(0).max(1440).default(0),
});
export type DatasetLink = z.infer<typeof DatasetLink>;

/** The access token as the curator pastes it. */
export const DatasetToken = z.string().trim().max(1000);

/** What went wrong, for the interface: the engine's `code` (translated there), its English sentence, and its details. */
export interface DatasetFailure {
  code: string;
  message: string;
  details: string[];
}

/** A dataset operation's answer: what it did, or why it could not. */
export type DatasetOutcome<T> = ({ failure: null } & T) | { failure: DatasetFailure };

/** The operation under way, for a progress line. */
export interface DatasetActivity {
  op: 'test' | 'preview' | 'publish' | 'pull';
  /** The engine's step under way: clone, fetch, read, plan, write, push, merge. */
  step: string | null;
  /** Bytes of the transfer under way, when the host tells them. */
  loaded: number | null;
  total: number | null;
  startedAt: string;
}

/** The status line of the options page, the panel and the popup. */
export interface DatasetStatus {
  connected: boolean;
  lastPullAt: string | null;
  lastPublishAt: string | null;
  /** Local changes not yet published. */
  unpublished: number;
  /** Conflicts waiting for the curator. */
  conflicts: number;
  /** The reviews the curator opened, newest first: open, behind the branch, or merged (as the last pull saw them). */
  reviews: ReviewView[];
  running: DatasetActivity | null;
  /** Why the last automatic pull failed (null when it worked, or none ran). */
  lastError: DatasetFailure | null;
}

/** A review as the interface shows it. */
export interface ReviewView {
  branch: string;
  url: string | null;
  openedAt: string;
  updatedAt: string;
  state: ReviewState;
  mergedAt: string | null;
  /** How many record versions it carries. */
  records: number;
}

/** The connection as the interface shows it: the link, whether a token is stored, and the status. */
export interface DatasetView {
  link: DatasetLink | null;
  hasToken: boolean;
  status: DatasetStatus;
}

/** What Test connection found. */
export interface ConnectionCheck {
  branches: string[];
  /** An empty repository: the first publish makes the branch. */
  empty: boolean;
  canWrite: boolean;
}

/** What a publish would do (the dry run). */
export interface PublishDryRun {
  models: ModelChange[];
  totals: { added: number; changed: number; deleted: number; records: number };
  message: string;
  /** Local changes that cannot be published as they are: pull to settle them. */
  conflicts: ConflictView[];
  /** Where it goes: the branch, or `curators/<name>`. */
  pushTo: string;
  /** The curator's review branch (`curators/<slug of the name>`), offered as the other choice. */
  reviewBranch: string;
  files: string[];
  /** Source records it writes into `records/sources.jsonl` (newer than the branch's): a publish of these alone is one too. */
  sources?: number;
}

/** What a publish did. */
export interface PublishDone {
  status: 'published' | 'nothing';
  totals: PublishDryRun['totals'];
  commit: string | null;
  pushedTo: string;
  reviewUrl: string | null;
  merges: number;
  conflicts: number;
  messages: string[];
  /** Source records written into `records/sources.jsonl`. */
  sources?: number;
}

/** What a pull (or the settling of its conflicts) did. */
export interface PullDone {
  added: number;
  updated: number;
  deleted: number;
  unchanged: number;
  kept: number;
  /** Conflicts settled by the curator's choice. */
  settled: number;
  /** Conflicts left waiting, side by side (the first 200). */
  conflicts: ConflictView[];
  conflictCount: number;
  head: string | null;
  /** Source records of `records/sources.jsonl` stored (new, or newer than the store's). */
  sources?: number;
}
