/**
 * The sync engine: a dataset repository on a git host, reached over HTTPS
 * (smart protocol) with isomorphic-git, the file system and HTTP client passed
 * in — so the same code runs in Node (tests, benchmarks) and in an extension
 * page or offscreen document (lightning-fs, `isomorphic-git/http/web`).
 *
 * - `testConnection`: unreachable, bad token, no such repository, no such
 *   branch, no write access — each said plainly.
 * - `pull`: fetch the branch, read the records at its head (a hostile file is
 *   refused by line, nothing is used from a dataset with problems), and plan
 *   them against the local store (`planPull`). Nothing is written to the
 *   store here: the caller applies the plan, in one transaction.
 * - `publish`: fetch, plan the local changes against the dataset at its head
 *   (`planPublish`), write one commit on top of it with the changed records
 *   files and the regenerated README, and push it — to the branch, or to
 *   `curators/<name>` for review (records only: the branch rebuilds its
 *   README once the review is merged). When the branch moved meanwhile, the commit
 *   is merged with the new head by record identity (a git merge with a
 *   by-id merge driver, never line by line) and pushed again. Never forced.
 *
 * The local clone is a cache of the host: the store stays the truth. A
 * publish always starts again from the host's head, so a commit left behind by
 * a push that failed is simply dropped — its changes are still in the store,
 * unpublished, and the next publish carries them.
 */
import git from 'isomorphic-git';
import type { SourceRecord, SurveyRecord } from '../../schema';
import { recordHash, recordRef } from '../hash';
import { slug } from '../layout';
import { mergeRecordsText } from '../merge';
import type { RecordConflict } from '../../import/merge';
import { applyPublish, indexDataset, planPublish, type Bases, type PublishPlan } from '../publish';
import { planPull, type PullPlan } from '../pull';
import { combineDataset, formatDatasetProblem, readDatasetFile, type DatasetProblem, type FileRead, type ReadDataset } from '../read';
import { pathRole } from '../layout';
import { isSourcesText, mergeSourcesText, SOURCES_PATH } from '../sources';
import { updateReadme } from '../readme';
import { SyncError, describeFailure } from './errors';
import { authedHttp, basicAuth, type HttpClient, type TransferMeter } from './http';
import { reviewLink, type Forge } from './review';
import { writePack } from './pack';
import { advertisement, fetchPack, sendPack, ZERO_ID, type PushReport } from './smart';
import { cloneIsComplete, flush, initClone, markComplete, markIncomplete, treeEntries, writeDatasetTree, type GitFs, type TreeEntry } from './store';
import { hasObject, localHaves, objectsToPush, storePack, type CloneRef } from './transfer';

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

/**
 * The source records a publish weighs: the store's against the branch's. A review carries claims and models only
 * (two reviews adding source records would not merge cleanly on the host); its source records go with a publish to
 * the branch, where a moved branch is merged by URL.
 */
function publishedSources(local: LocalSnapshot, theirs: readonly SourceRecord[], review: boolean) {
  return { local: review ? [] : (local.sources ?? []), dataset: theirs };
}

const PUBLISH_REF = 'refs/heads/recipe-lens-publish';
const THEIRS_REF = 'refs/heads/recipe-lens-theirs';
/** Blobs from this size on are kept at hand after being read or written (the README; not the records files). */
const RECENT_MIN_BYTES = 256 * 1024;

function code(error: unknown): string | undefined {
  return (error as { code?: string })?.code;
}

/** Errors that mean the local clone is damaged (an object or file missing), not the host or the network. */
function isDamage(error: unknown): boolean {
  const c = code(error);
  return c === 'NotFoundError' || c === 'ObjectTypeError' || c === 'InternalError' || c === 'ENOENT' || c === 'ReadObjectFail' || c === 'IncompletePack';
}

/** The host did not move the ref: `report` is its answer, or null when the push was not sent (the branch had moved). */
export class PushRefusedError extends Error {
  override name = 'PushRefusedError';
  constructor(
    readonly ref: string,
    readonly report: PushReport | null,
  ) {
    super(
      report
        ? `the host refused to update ${ref}: ${report.unpack !== 'ok' ? `unpack ${report.unpack}` : (report.refs.get(ref)?.reason ?? 'no answer for the ref')}`
        : `${ref} moved: not a fast-forward`,
    );
  }
}

function isNonFastForward(error: unknown): boolean {
  if (!(error instanceof PushRefusedError)) return false;
  if (!error.report) return true;
  const reason = error.report.refs.get(error.ref)?.reason ?? '';
  return error.report.unpack === 'ok' && /non-fast-forward|fetch first|failed to update|stale info|cannot lock|failed to lock/i.test(reason);
}

function describeConflict(c: RecordConflict): string {
  return `${c.label}: ${c.diffs.map((d) => d.field).join(', ')} differ with the same updated_at`;
}

/** One dataset repository, synced through a local clone. */
export class DatasetSync {
  private readonly cache = {};
  private readonly reads = new Map<string, FileRead>();
  /** Big blobs read or written last (the README's versions), by id: a push's delta base and target, a fetch's base to make a pack whole. */
  private readonly recent = new Map<string, Uint8Array>();
  private readonly client: HttpClient;
  /** The operation under way: pulls and publishes on one clone run one at a time. */
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    readonly connection: DatasetConnection,
    private readonly env: EngineEnv,
  ) {
    this.client = authedHttp(env.http, {
      authorization: basicAuth(connection.username ?? 'recipe-lens', connection.token),
      meter: env.meter,
      signal: env.signal,
    });
  }

  /** Runs one step and reports its time. */
  private async step<T>(name: SyncStep, work: () => Promise<T> | T): Promise<T> {
    const started = Date.now();
    try {
      return await work();
    } finally {
      this.env.onStep?.(name, Date.now() - started);
    }
  }

  private get where() {
    return { url: this.connection.url, branch: this.connection.branch };
  }

  private author() {
    const now = (this.env.now ?? (() => new Date()))();
    return {
      name: this.connection.name,
      email: this.connection.email ?? `${slug(this.connection.name)}@users.recipe-lens.invalid`,
      timestamp: Math.floor(now.getTime() / 1000),
      timezoneOffset: 0,
    };
  }

  /** Says whether the dataset can be reached, read and written with this token, and what is wrong when not. */
  async testConnection(): Promise<ConnectionReport> {
    const report: ConnectionReport = { ok: false, error: null, branches: [], empty: false, canWrite: false };
    let refs: Array<{ ref: string }>;
    try {
      const info = await git.getRemoteInfo2({ http: this.client, url: this.connection.url, protocolVersion: 1 });
      refs = (info.refs ?? []) as Array<{ ref: string }>;
    } catch (error) {
      report.error = describeFailure(error, this.where);
      return report;
    }
    report.branches = refs
      .map((r) => r.ref)
      .filter((r) => r.startsWith('refs/heads/'))
      .map((r) => r.slice('refs/heads/'.length));
    report.empty = report.branches.length === 0;
    if (!report.empty && !report.branches.includes(this.connection.branch)) {
      const shown = report.branches.slice(0, 5).join(', ');
      report.error = new SyncError(
        'no-branch',
        `The repository has no branch "${this.connection.branch}" (it has ${shown}${report.branches.length > 5 ? ', …' : ''}).`,
      );
      return report;
    }
    try {
      await git.getRemoteInfo2({ http: this.client, url: this.connection.url, forPush: true, protocolVersion: 1 });
      report.canWrite = true;
    } catch (error) {
      report.error = describeFailure(error, { ...this.where, pushing: true });
      return report;
    }
    report.ok = true;
    return report;
  }

  /** Makes sure a complete clone is there: a missing, half-made or foreign one is wiped and cloned again. */
  async ensureClone(): Promise<void> {
    const { fs, dir } = this.env;
    const { url, branch } = this.connection;
    if (await cloneIsComplete(fs, dir, url, branch)) return;
    this.reads.clear();
    await initClone(fs, dir, url, branch);
    const head = await this.fetchBranch(branch);
    if (head) await git.writeRef({ fs, dir, ref: `refs/heads/${branch}`, value: head, force: true });
    await flush(fs);
    await markComplete(fs, dir, url, branch);
  }

  private get clone(): CloneRef {
    return { fs: this.env.fs, dir: this.env.dir, cache: this.cache, known: this.recent };
  }

  /** Keeps a big blob's bytes at hand (the last four). */
  private readonly remember = (oid: string, bytes: Uint8Array): void => {
    if (bytes.length < RECENT_MIN_BYTES) return;
    this.recent.delete(oid);
    this.recent.set(oid, bytes);
    for (const old of this.recent.keys()) {
      if (this.recent.size <= 4) break;
      this.recent.delete(old);
    }
  };

  private get request() {
    return { http: this.client, url: this.connection.url, signal: this.env.signal };
  }

  /**
   * Fetches one branch: its head, or null when the repository is empty or has
   * no such branch. The host is told the commits this clone has, and sends
   * the rest as a thin pack (deltas of objects we have), stored beside the
   * clone's other packs; nothing is asked when the head is already here.
   */
  private async fetchBranch(branch: string): Promise<string | null> {
    const { fs, dir } = this.env;
    const haves = await localHaves(this.clone);
    let head: string | null = null;
    let pack: Uint8Array | null = null;
    try {
      const advertised = await advertisement(this.request, 'git-upload-pack');
      head = advertised.refs.get(`refs/heads/${branch}`) ?? null;
      if (head && !(await hasObject(this.clone, head)))
        pack = await fetchPack(this.request, advertised, { wants: [head], haves }, undefined, (loaded) =>
          this.env.onProgress?.({ phase: 'Receiving objects', loaded }),
        );
    } catch (error) {
      throw describeFailure(error, this.where);
    }
    if (!head) return null;
    if (pack) await storePack(this.clone, pack);
    await git.writeRef({ fs, dir, ref: `refs/remotes/origin/${branch}`, value: head, force: true });
    await flush(fs);
    return head;
  }

  /**
   * Pushes `commit` to `branch`, never forced: a branch that moved to
   * something `commit` does not descend from is a `PushRefusedError` without
   * sending anything (the caller merges and tries again). The pack holds only
   * what the host lacks, changed files as deltas of the host's versions.
   */
  private async pushCommit(commit: string, branch: string, messages: string[]): Promise<void> {
    const ref = `refs/heads/${branch}`;
    const advertised = await advertisement(this.request, 'git-receive-pack');
    const old = advertised.refs.get(ref) ?? ZERO_ID;
    if (old === commit) return;
    if (old !== ZERO_ID) {
      const descends =
        (await hasObject(this.clone, old)) &&
        (await git.isDescendent({ fs: this.env.fs, dir: this.env.dir, oid: commit, ancestor: old, depth: -1, cache: this.cache }));
      if (!descends) throw new PushRefusedError(ref, null);
    }
    const { objects } = await objectsToPush(this.clone, commit, [...advertised.refs.values()], { thin: !advertised.capabilities.has('no-thin') });
    const pack = await writePack(objects);
    const report = await sendPack(this.request, advertised, [{ old, new: commit, ref }], pack, (line) => messages.push(line.replace(/\s+$/, '')));
    if (report.unpack !== 'ok' || !report.refs.get(ref)?.ok) throw new PushRefusedError(ref, report);
  }

  /** Fetches the dataset's branch; an existing repository without it is an error (an empty one is not: the first publish makes it). */
  private async fetchDataset(): Promise<string | null> {
    const head = await this.fetchBranch(this.connection.branch);
    if (head) return head;
    let refs: Array<{ ref: string }>;
    try {
      refs = ((await git.getRemoteInfo2({ http: this.client, url: this.connection.url, protocolVersion: 1 })).refs ?? []) as Array<{ ref: string }>;
    } catch (error) {
      throw describeFailure(error, this.where);
    }
    const branches = refs.filter((r) => r.ref.startsWith('refs/heads/')).map((r) => r.ref.slice('refs/heads/'.length));
    if (branches.length)
      throw new SyncError('no-branch', `The repository has no branch "${this.connection.branch}" (it has ${branches.slice(0, 5).join(', ')}).`);
    return null;
  }

  /** A file of a tree, read once per content (records files are parsed once per blob). */
  private async readEntry(path: string, entry: TreeEntry, used: Map<string, FileRead>): Promise<FileRead> {
    const role = pathRole(path);
    if (role !== 'claims' && role !== 'models' && role !== 'sources') return readDatasetFile({ path, content: '' });
    const key = `${entry.oid} ${path}`;
    let read = this.reads.get(key);
    if (!read) {
      const { blob } = await git.readBlob({ fs: this.env.fs, dir: this.env.dir, oid: entry.oid, cache: this.cache });
      read = readDatasetFile({ path, content: blob });
    }
    used.set(key, read);
    return read;
  }

  /** The dataset at a commit (or tree): its records read carefully, and its README's text. Only `records/` is walked. */
  async readDatasetAt(oid: string | null): Promise<{ read: ReadDataset; readme: string }> {
    const reads: FileRead[] = [];
    const used = new Map<string, FileRead>();
    let readme = '';
    const root = await treeEntries(this.env.fs, this.env.dir, oid, '', this.cache);
    const walk = async (prefix: string, entries: readonly TreeEntry[], depth: number): Promise<void> => {
      for (const entry of entries) {
        const path = `${prefix}${entry.path}`;
        if (entry.type === 'blob') reads.push(await this.readEntry(path, entry, used));
        else if (entry.type === 'tree' && depth < 4) await walk(`${path}/`, await treeEntries(this.env.fs, this.env.dir, entry.oid, '', this.cache), depth + 1);
        else if (entry.type === 'tree') reads.push(readDatasetFile({ path: `${path}/`, content: '' }));
      }
    };
    for (const entry of root) {
      if (entry.type === 'blob' && entry.path === 'README.md') {
        const blob = this.recent.get(entry.oid) ?? (await git.readBlob({ fs: this.env.fs, dir: this.env.dir, oid: entry.oid, cache: this.cache })).blob;
        this.remember(entry.oid, blob);
        readme = new TextDecoder().decode(blob);
      } else if (entry.type === 'blob') reads.push(readDatasetFile({ path: entry.path, content: '' }));
      else if (entry.type === 'tree' && entry.path === 'records')
        await walk('records/', await treeEntries(this.env.fs, this.env.dir, entry.oid, '', this.cache), 1);
    }
    // Only the files of the tree read last stay parsed: the cache follows the dataset, it does not grow with its history.
    this.reads.clear();
    for (const [key, read] of used) this.reads.set(key, read);
    return { read: combineDataset(reads), readme };
  }

  /** The dataset at its head, refusing one with problems (nothing from it is used). */
  private async readUsable(head: string | null): Promise<{ read: ReadDataset; readme: string }> {
    const dataset = await this.readDatasetAt(head);
    const problems = dataset.read.problems;
    if (problems.length)
      throw new SyncError(
        'invalid-dataset',
        `The dataset has ${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}; nothing was taken from it. Fix ${problems.length === 1 ? 'it' : 'them'} in the repository (survey check lists them).`,
        problems.slice(0, 200).map(formatDatasetProblem),
      );
    return dataset;
  }

  /** Runs `work` on the clone after the operation under way (one at a time); a damaged clone is cloned again once and `work` run again. */
  private onClone<T>(work: () => Promise<T>): Promise<T> {
    const next = this.running.then(
      () => this.onCloneNow(work),
      () => this.onCloneNow(work),
    );
    this.running = next.catch(() => undefined);
    return next;
  }

  private async onCloneNow<T>(work: () => Promise<T>): Promise<T> {
    try {
      await this.step('clone', () => this.ensureClone());
    } catch (error) {
      throw describeFailure(error, this.where);
    }
    try {
      return await work();
    } catch (error) {
      if (error instanceof SyncError || !isDamage(error)) throw error instanceof SyncError ? error : describeFailure(error, this.where);
      await markIncomplete(this.env.fs, this.env.dir);
      await this.ensureClone();
      try {
        return await work();
      } catch (again) {
        throw describeFailure(again, this.where);
      }
    }
  }

  /** Fetches the dataset and plans bringing it into the store. Writes nothing to the store. */
  async pull(local: LocalSnapshot): Promise<PullOutcome> {
    return this.onClone(async () => {
      const head = await this.step('fetch', () => this.fetchDataset());
      const { read } = await this.step('read', () => this.readUsable(head));
      const remote = read.records.map((r) => r.record);
      const plan = await this.step('plan', () => planPull(local.records, local.bases, remote));
      if (head) await git.writeRef({ fs: this.env.fs, dir: this.env.dir, ref: `refs/heads/${this.connection.branch}`, value: head, force: true });
      await flush(this.env.fs);
      return { head, plan, remote, sources: read.sources.map((s) => s.record), ignored: read.ignored, layout: read.layout };
    });
  }

  /** What publishing would do (a dry run: fetched, planned, nothing written or pushed). */
  async preview(local: LocalSnapshot, options: Pick<PublishOptions, 'target'> = {}): Promise<PublishPreview> {
    return this.onClone(async () => {
      const head = await this.fetchDataset();
      const { read, readme } = await this.readUsable(head);
      const theirs = read.sources.map((s) => s.record);
      const review = options.target === 'review';
      const plan = planPublish(local.records, local.bases, indexDataset(read.records.map((r) => r.record)), publishedSources(local, theirs, review));
      const how = { title: this.connection.title, review, sources: theirs, sourceWrites: plan.sources };
      const files = plan.writes.length || plan.sources.length ? [...applyPublish(read.records, read.texts, readme, plan.writes, how).files.keys()] : [];
      return { head, plan, files };
    });
  }

  /** Publishes the store's changes in one commit, merging by record identity when the branch moved. */
  async publish(local: LocalSnapshot, options: PublishOptions = {}): Promise<PublishOutcome> {
    return this.onClone(async () => {
      const { fs, dir } = this.env;
      const head = await this.step('fetch', () => this.fetchDataset());
      const { read, readme } = await this.step('read', () => this.readUsable(head));
      const theirs = read.sources.map((s) => s.record);
      const review = options.target === 'review';
      const plan = await this.step('plan', () =>
        planPublish(local.records, local.bases, indexDataset(read.records.map((r) => r.record)), publishedSources(local, theirs, review)),
      );
      const pushedTo = review ? `curators/${slug(this.connection.name)}` : this.connection.branch;
      const outcome: PublishOutcome = {
        status: 'nothing',
        plan,
        commit: head,
        pushedTo,
        base: head,
        reviewUrl: null,
        bases: [...plan.agreed],
        merges: 0,
        messages: [],
      };
      if (!plan.writes.length && !plan.sources.length) return outcome;
      const author = this.author();
      let commit = await this.step('write', async () => {
        const { files } = applyPublish(read.records, read.texts, readme, plan.writes, {
          title: this.connection.title,
          review,
          sources: theirs,
          sourceWrites: plan.sources,
        });
        const tree = await writeDatasetTree(fs, dir, head, files, this.cache, this.remember);
        const made = await git.commit({
          fs,
          dir,
          message: options.message?.trim() ? `${options.message.trim()}\n` : plan.message,
          author,
          committer: author,
          tree,
          parent: head ? [head] : [],
          ref: PUBLISH_REF,
          cache: this.cache,
        });
        await flush(fs);
        return made;
      });
      if (review) {
        const existing = await this.fetchBranch(pushedTo);
        if (existing && !(await git.isDescendent({ fs, dir, oid: commit, ancestor: existing, depth: -1, cache: this.cache }))) {
          commit = await this.step('merge', () => this.mergeByIdentity(commit, existing, pushedTo, review));
          outcome.merges += 1;
        }
      }
      const attempts = this.env.maxPushAttempts ?? 5;
      for (let attempt = 1; ; attempt++) {
        const messages: string[] = [];
        const pushed = Date.now();
        try {
          await this.pushCommit(commit, pushedTo, messages);
          outcome.messages.push(...messages);
          this.env.onStep?.('push', Date.now() - pushed);
          break;
        } catch (error) {
          this.env.onStep?.('push', Date.now() - pushed);
          outcome.messages.push(...messages);
          if (!isNonFastForward(error) || attempt >= attempts) throw this.pushFailure(error, messages, attempt >= attempts && isNonFastForward(error));
          const moved = await this.step('fetch', () => this.fetchBranch(pushedTo));
          if (!moved) continue;
          commit = await this.step('merge', () => this.mergeByIdentity(commit, moved, pushedTo, review));
          outcome.merges += 1;
        }
      }
      await flush(fs);
      if (!review) {
        await git.writeRef({ fs, dir, ref: `refs/heads/${this.connection.branch}`, value: commit, force: true });
        await flush(fs);
        outcome.bases.push(...plan.writes.map((w) => [recordRef(w), recordHash(w)] as [string, string]));
      } else outcome.reviewUrl = reviewLink(this.connection.url, this.connection.branch, pushedTo, this.connection.forge ?? undefined);
      outcome.status = 'published';
      outcome.commit = commit;
      return outcome;
    });
  }

  private pushFailure(error: unknown, messages: readonly string[], gaveUp: boolean): SyncError {
    if (gaveUp) return new SyncError('refused', 'The branch kept moving while publishing; nothing was lost. Publish again in a moment.', messages);
    if (error instanceof PushRefusedError && error.report) {
      const said = messages.filter((m) => m.trim() !== '');
      const reason = error.report.refs.get(error.ref)?.reason;
      if (error.report.unpack !== 'ok')
        return new SyncError(
          'failed',
          `The server could not store the publish (${error.report.unpack}). Nothing was published; your changes are kept. Try again.`,
          said,
        );
      return new SyncError(
        'refused',
        `The server refused the publish${said.length ? `: ${said[said.length - 1]}` : reason ? ` (${reason})` : ''}. Nothing was published; your changes are kept.`,
        said.length ? said : reason ? [reason] : [],
      );
    }
    const failure = describeFailure(error, { ...this.where, pushing: true });
    return failure.details.length || !messages.length ? failure : new SyncError(failure.code, failure.message, messages);
  }

  /**
   * Merges `ours` (a commit of this publish) with `theirs` (the branch's new
   * head) by record identity: git's merge walks the trees, and every records
   * file both changed goes through the by-id merge driver; the README is then
   * regenerated from the merged records (a review keeps the branch's README).
   * Ties stop the publish as conflicts.
   */
  private async mergeByIdentity(ours: string, theirs: string, branch: string, review = false): Promise<string> {
    const { fs, dir } = this.env;
    await git.writeRef({ fs, dir, ref: PUBLISH_REF, value: ours, force: true });
    await git.writeRef({ fs, dir, ref: THEIRS_REF, value: theirs, force: true });
    const conflicts: RecordConflict[] = [];
    const unreadable: string[] = [];
    const author = this.author();
    let merged: { oid?: string; tree?: string; alreadyMerged?: boolean; fastForward?: boolean };
    try {
      merged = await git.merge({
        fs,
        dir,
        ours: PUBLISH_REF,
        theirs: THEIRS_REF,
        fastForward: true,
        noUpdateBranch: true,
        abortOnConflict: true,
        author,
        committer: author,
        cache: this.cache,
        mergeDriver: ({ contents, path }) => {
          const [base, mine, their] = contents as [string, string, string];
          // Regenerated from the merged records below.
          if (path === 'README.md') return { cleanMerge: true, mergedText: mine };
          if (!path.endsWith('.jsonl')) return { cleanMerge: false, mergedText: mine };
          try {
            // The driver is told the file's name only: `records/sources.jsonl` is the one whose lines are source records.
            const sources = path === SOURCES_PATH.slice('records/'.length) && isSourcesText(mine, their, base);
            const result = sources ? mergeSourcesText(base, mine, their) : mergeRecordsText(base, mine, their);
            conflicts.push(...result.conflicts);
            return { cleanMerge: result.conflicts.length === 0, mergedText: result.text };
          } catch {
            unreadable.push(path);
            return { cleanMerge: false, mergedText: mine };
          }
        },
      });
    } catch (error) {
      if (code(error) === 'MergeConflictError') {
        if (conflicts.length)
          throw new SyncError(
            'conflicts',
            `Another curator published other versions of ${conflicts.length} ${conflicts.length === 1 ? 'record' : 'records'} with the same time as yours: pull, settle them, and publish again. Nothing was published.`,
            conflicts.map(describeConflict),
          );
        throw new SyncError(
          'refused',
          `The branch's new commits cannot be merged by record (${unreadable.join(', ') || 'files outside the dataset changed on both sides'}). Nothing was published.`,
        );
      }
      throw error;
    }
    if (merged.alreadyMerged) return ours;
    if (merged.fastForward) return theirs;
    const { read, readme } = await this.readDatasetAt(merged.tree!);
    if (read.problems.length)
      throw new SyncError('invalid-dataset', 'The merged dataset has problems; nothing was published.', read.problems.map(formatDatasetProblem));
    // A review's README stays the branch's (ours: built on the branch's head); the branch rebuilds it after the merge.
    const fixed = review
      ? readme
      : updateReadme(
          readme,
          read.records.map((r) => r.record),
          read.sources.map((s) => s.record),
        );
    const tree = fixed === readme ? merged.tree! : await writeDatasetTree(fs, dir, merged.tree!, new Map([['README.md', fixed]]), this.cache, this.remember);
    const commit = await git.commit({
      fs,
      dir,
      message: `Merge ${branch} into this publish by record id\n`,
      author,
      committer: author,
      tree,
      parent: [ours, theirs],
      ref: PUBLISH_REF,
      cache: this.cache,
    });
    await flush(fs);
    return commit;
  }
}
