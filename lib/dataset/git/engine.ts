/**
 * The sync engine: a dataset repository on a git host, reached over HTTPS
 * (smart protocol) with isomorphic-git, the file system and HTTP client passed
 * in — so the same code runs in Node (tests, benchmarks) and in an extension
 * page or offscreen document (lightning-fs, `isomorphic-git/http/web`).
 *
 * `DatasetSync` is the engine's face; each job is a module of its own:
 *
 * - `connection-test.ts`: unreachable, bad token, no such repository, no such
 *   branch, no write access — each said plainly.
 * - `clone-upkeep.ts`: the local clone made, checked complete, made again when
 *   damaged; one operation at a time on it.
 * - `fetch-branch.ts`, `push-commit.ts`: fetch and push over the smart
 *   protocol, with thin packs both ways.
 * - `read-dataset.ts`: the records at a commit, read carefully (a hostile file
 *   is refused by line, nothing is used from a dataset with problems).
 * - `pull-dataset.ts`: fetch the branch, read its head, plan it against the
 *   local store (`planPull`). Nothing is written to the store here: the caller
 *   applies the plan, in one transaction.
 * - `publish-dataset.ts`: the dry run, and one commit on top of the head with
 *   the changed records files and the regenerated README, pushed to the branch
 *   or to `curators/<name>` for review.
 * - `publish-retry.ts`, `merge-by-identity.ts`: when the branch moved
 *   meanwhile, the commit is merged with the new head by record identity (a git
 *   merge with a by-id merge driver, never line by line) and pushed again.
 *   Never forced.
 *
 * The local clone is a cache of the host: the store stays the truth. A
 * publish always starts again from the host's head, so a commit left behind by
 * a push that failed is simply dropped — its changes are still in the store,
 * unpublished, and the next publish carries them.
 */
import type { ReadDataset } from '../read';
import { ensureClone } from './clone-upkeep';
import { testConnection } from './connection-test';
import { previewPublish, publishDataset } from './publish-dataset';
import { pullDataset } from './pull-dataset';
import { readDatasetAt } from './read-dataset';
import { SyncContext } from './sync-context';
import type { ConnectionReport, DatasetConnection, EngineEnv, LocalSnapshot, PublishOptions, PublishOutcome, PublishPreview, PullOutcome } from './sync-types';

export { PushRefusedError } from './push-commit';
export type {
  ConnectionReport,
  DatasetConnection,
  EngineEnv,
  LocalSnapshot,
  PublishOptions,
  PublishOutcome,
  PublishPreview,
  PullOutcome,
  SyncStep,
} from './sync-types';

/** One dataset repository, synced through a local clone. */
export class DatasetSync {
  private readonly context: SyncContext;

  constructor(
    readonly connection: DatasetConnection,
    env: EngineEnv,
  ) {
    this.context = new SyncContext(connection, env);
  }

  /** Says whether the dataset can be reached, read and written with this token, and what is wrong when not. */
  testConnection(): Promise<ConnectionReport> {
    return testConnection(this.context);
  }

  /** Makes sure a complete clone is there: a missing, half-made or foreign one is wiped and cloned again. */
  ensureClone(): Promise<void> {
    return ensureClone(this.context);
  }

  /** The dataset at a commit (or tree): its records read carefully, and its README's text. Only `records/` is walked. */
  readDatasetAt(oid: string | null): Promise<{ read: ReadDataset; readme: string }> {
    return readDatasetAt(this.context, oid);
  }

  /** Fetches the dataset and plans bringing it into the store. Writes nothing to the store. */
  pull(local: LocalSnapshot): Promise<PullOutcome> {
    return pullDataset(this.context, local);
  }

  /** What publishing would do (a dry run: fetched, planned, nothing written or pushed). */
  preview(local: LocalSnapshot, options: Pick<PublishOptions, 'target'> = {}): Promise<PublishPreview> {
    return previewPublish(this.context, local, options);
  }

  /** Publishes the store's changes in one commit, merging by record identity when the branch moved. */
  publish(local: LocalSnapshot, options: PublishOptions = {}): Promise<PublishOutcome> {
    return publishDataset(this.context, local, options);
  }
}
