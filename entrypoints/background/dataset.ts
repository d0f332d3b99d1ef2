/**
 * The team's dataset, from the background: the connection (the token in
 * `storage.local` only — never in the database, a backup, an export or a
 * log), Test connection, the publish dry run and the publish, the pull
 * through the import planner (conflicts wait for the curator; a local change
 * is never overwritten silently), the status line, and pulls on browser start
 * and every N minutes. The spec's source records go along: a publish writes
 * the store's newer ones into `records/sources.jsonl`, a pull stores the
 * dataset's (each URL keeping the later `updated_at`).
 *
 * Git runs here, in the service worker, over lightning-fs (IndexedDB) and
 * `fetch`. The worker is stopped after 30 s without extension events, and a
 * network transfer does not count as one: while git works, a cheap extension
 * call every 20 s keeps it alive. Every step is flushed to disk, and a clone
 * is used only once it is marked complete, so a worker or browser killed half
 * way leaves nothing the next try would trust.
 */
import './git-globals';
import FS from '@isomorphic-git/lightning-fs';
import webHttp from 'isomorphic-git/http/web';
import { browser } from 'wxt/browser';
import { getDatasetState, putDatasetState, putSourceRecords, syncSnapshot, writeSync, type DatasetState } from '../../lib/db';
import { followReviews, indexDataset, localChanges, planPull, recordReview, settlePull, slug, type PullChoice } from '../../lib/dataset';
import { type DatasetConnection, DatasetSync, installBuffer, removeTree, SyncError, type GitFs, type SyncStep } from '../../lib/dataset/git';
import {
  DatasetLink,
  type DatasetActivity,
  type DatasetFailure,
  type DatasetOutcome,
  type DatasetStatus,
  type DatasetView,
  type PullDone,
} from '../../lib/dataset/link';
import type { BackgroundCall, Handlers } from '../../lib/messages';
import { nowTimestamp } from '../../lib/time';
import type { ConflictView } from '../../lib/transfer';
import { notifyChanged } from './changes';
import { db } from './db';

const LINK_KEY = 'datasetLink';
const TOKEN_KEY = 'datasetToken';
const AUTO_ERROR_KEY = 'datasetAutoPullError';
const ALARM = 'dataset-pull';
const FS_NAME = 'recipe-lens-dataset';
const CLONE_DIR = '/dataset';
const KEEPALIVE_MS = 20_000;
const SHOWN_CONFLICTS = 200;

let fileSystem: GitFs | null = null;
let engine: { key: string; sync: DatasetSync } | null = null;
/** The operation under way (one at a time), for the progress line. */
let running: DatasetActivity | null = null;
let queue: Promise<unknown> = Promise.resolve();
/** Local changes not yet published, as last counted (not counted again while git works). */
let unpublished = 0;

function gitFs(): GitFs {
  installBuffer();
  fileSystem ??= new FS(FS_NAME) as unknown as GitFs;
  return fileSystem;
}

/** The stored connection, or null. */
async function readLink(): Promise<DatasetLink | null> {
  const stored = (await browser.storage.local.get(LINK_KEY))[LINK_KEY];
  const parsed = DatasetLink.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

async function readToken(): Promise<string> {
  const token = (await browser.storage.local.get(TOKEN_KEY))[TOKEN_KEY];
  return typeof token === 'string' ? token : '';
}

function connectionOf(link: DatasetLink, token: string): DatasetConnection {
  return { url: link.url, branch: link.branch, token, name: link.name, username: link.username || undefined };
}

/** The engine for a connection, kept while the connection stays the same (it remembers the files it parsed). */
function syncFor(link: DatasetLink, token: string): DatasetSync {
  const key = JSON.stringify([link.url, link.branch, link.name, link.username, token]);
  if (engine?.key !== key) {
    const sync = new DatasetSync(connectionOf(link, token), {
      fs: gitFs(),
      http: webHttp,
      dir: CLONE_DIR,
      onStep: (step) => noteStep(step),
      onProgress: ({ loaded, total }) => {
        if (running) running = { ...running, loaded, total: total ?? null };
      },
    });
    engine = { key, sync };
  }
  return engine.sync;
}

const NEXT_STEP: Partial<Record<SyncStep, SyncStep>> = { clone: 'fetch', fetch: 'read', read: 'plan', plan: 'write', write: 'push', merge: 'push' };

function noteStep(done: SyncStep): void {
  if (!running) return;
  const next = running.op === 'pull' && done === 'plan' ? null : (NEXT_STEP[done] ?? null);
  running = { ...running, step: next, loaded: null, total: null };
}

/** A failure as the interface shows it (the engine's code and sentence; anything else as "failed"). */
function failureOf(error: unknown): DatasetFailure {
  if (error instanceof SyncError) return { code: error.code, message: error.message, details: [...error.details] };
  return { code: 'failed', message: error instanceof Error ? error.message : String(error), details: [] };
}

/** Keeps the service worker alive while `work` runs (a transfer alone does not). */
async function keptAlive<T>(work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => void browser.runtime.getPlatformInfo().catch(() => undefined), KEEPALIVE_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** Runs one dataset operation after the one under way, kept alive, with its progress shown and its failure returned as a value. */
function operation<T extends object>(op: DatasetActivity['op'], work: (sync: DatasetSync, link: DatasetLink) => Promise<T>): Promise<DatasetOutcome<T>> {
  const next = queue.then(async (): Promise<DatasetOutcome<T>> => {
    const link = await readLink();
    const token = await readToken();
    if (!link || !token) return { failure: { code: 'not-connected', message: 'No dataset is connected: connect one on the options page.', details: [] } };
    running = { op, step: 'clone', loaded: null, total: null, startedAt: nowTimestamp() };
    try {
      const done = await keptAlive(() => work(syncFor(link, token), link));
      return { failure: null, ...done };
    } catch (error) {
      return { failure: failureOf(error) };
    } finally {
      running = null;
    }
  });
  queue = next.catch(() => undefined);
  return next;
}

function conflictViews(conflicts: ReadonlyArray<{ ref: string; label: string; diffs: ConflictView['diffs'] }>): ConflictView[] {
  return conflicts.slice(0, SHOWN_CONFLICTS).map(({ ref, label, diffs }) => ({ ref, label, diffs }));
}

/** Pulls the dataset into the store in one transaction, settling conflicts as chosen (`later`: they wait). */
function pull(choices: ReadonlyMap<string, PullChoice> = new Map(), rest: PullChoice = 'later'): Promise<DatasetOutcome<PullDone>> {
  return operation('pull', async (sync, link) => {
    const d = await db();
    // Another dataset than the last one synced starts afresh (its bases forgotten) before anything is read.
    await putDatasetState(d, link, {});
    const outcome = await sync.pull(await syncSnapshot(d));
    const now = nowTimestamp();
    const { plan, settled, waiting } = await writeSync(
      d,
      outcome.remote,
      (stored, bases) => {
        // Planned again against what the transaction reads: a claim edited meanwhile is asked about, not overwritten.
        const again = planPull(stored, bases, outcome.remote);
        const done = settlePull(again, choices, rest, now);
        const left = again.conflicts.filter((c) => (choices.get(c.ref) ?? rest) === 'later');
        return { writes: done.writes, bases: done.bases, result: { plan: again, settled: done, waiting: left } };
      },
      now,
    );
    // The dataset's source records: each URL keeps the later of the store's and the dataset's (they change no claim).
    const sources = await putSourceRecords(d, outcome.sources);
    const reviews = followReviews((await getDatasetState(d))?.reviews ?? [], outcome.head, indexDataset(outcome.remote), now);
    await putDatasetState(d, link, { lastPullAt: now, lastPulledCommit: outcome.head, conflicts: waiting.length, reviews });
    await browser.storage.local.remove(AUTO_ERROR_KEY);
    if (settled.writes.length || sources) await notifyChanged(null).catch(() => undefined);
    return {
      added: plan.added,
      updated: plan.updated,
      deleted: plan.deleted,
      unchanged: plan.unchanged,
      kept: plan.kept,
      settled: settled.kept + settled.taken,
      conflicts: conflictViews(waiting),
      conflictCount: waiting.length,
      head: outcome.head,
      sources,
    };
  });
}

/** Counts the local changes not yet published (against the bases of the dataset connected). */
async function countUnpublished(link: DatasetLink | null, state: DatasetState | null): Promise<number> {
  if (!link) return 0;
  const snapshot = await syncSnapshot(await db());
  const same = state?.url === link.url && state?.branch === link.branch;
  return localChanges(snapshot.records, same ? snapshot.bases : new Map()).length;
}

/** The status line: last pull and publish, changes not yet published, conflicts waiting, the work under way. */
async function status(): Promise<DatasetStatus> {
  const link = await readLink();
  const state = await getDatasetState(await db());
  const same = !!link && state?.url === link.url && state?.branch === link.branch;
  if (!running) unpublished = await countUnpublished(link, state);
  const lastError = (await browser.storage.local.get(AUTO_ERROR_KEY))[AUTO_ERROR_KEY] as DatasetFailure | undefined;
  return {
    connected: !!link,
    lastPullAt: same ? state!.lastPullAt : null,
    lastPublishAt: same ? state!.lastPublishAt : null,
    unpublished,
    conflicts: same ? state!.conflicts : 0,
    reviews: same
      ? state!.reviews.map((r) => ({
          branch: r.branch,
          url: r.url,
          openedAt: r.openedAt,
          updatedAt: r.updatedAt,
          state: r.state,
          mergedAt: r.mergedAt,
          records: r.records.length,
        }))
      : [],
    running,
    lastError: lastError ?? null,
  };
}

async function view(): Promise<DatasetView> {
  return { link: await readLink(), hasToken: (await readToken()) !== '', status: await status() };
}

/** Sets (or clears) the alarm of the periodic pull. */
async function schedule(link: DatasetLink | null): Promise<void> {
  if (!browser.alarms) return;
  await browser.alarms.clear(ALARM);
  if (link?.pullEveryMinutes) await browser.alarms.create(ALARM, { periodInMinutes: link.pullEveryMinutes, delayInMinutes: link.pullEveryMinutes });
}

/** A pull nobody asked for just now (browser start, alarm): its failure is kept for the status line. */
async function autoPull(): Promise<void> {
  const outcome = await pull();
  if (outcome.failure && outcome.failure.code !== 'not-connected') await browser.storage.local.set({ [AUTO_ERROR_KEY]: outcome.failure });
}

/** Registers, synchronously, the periodic pull's alarm and the pull on browser start. */
export function listenForDatasetSchedule(): void {
  browser.alarms?.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) void autoPull();
  });
  browser.runtime.onStartup.addListener(() => {
    void readLink().then((link) => (link?.pullOnStart ? autoPull() : undefined));
  });
}

/** Answers to the dataset calls. */
export const datasetHandlers = {
  async 'dataset.get'() {
    return view();
  },
  async 'dataset.connect'({ link, token }) {
    const kept = token || (await readToken());
    if (!kept) throw new Error('A token is needed to connect: paste one made on the host for this repository.');
    const before = await readLink();
    if (before && (before.url !== link.url || before.branch !== link.branch)) await browser.storage.local.remove(AUTO_ERROR_KEY);
    await browser.storage.local.set({ [LINK_KEY]: link, [TOKEN_KEY]: kept });
    await schedule(link);
    return view();
  },
  async 'dataset.disconnect'() {
    await queue;
    await browser.storage.local.remove([LINK_KEY, TOKEN_KEY, AUTO_ERROR_KEY]);
    await schedule(null);
    engine = null;
    await removeTree(gitFs(), CLONE_DIR);
    await gitFs().promises.flush?.();
    return view();
  },
  async 'dataset.test'({ link, token }) {
    const use = token || (await readToken());
    if (!use) return { failure: { code: 'auth', message: 'No token yet: paste one made on the host for this repository.', details: [] } };
    running = { op: 'test', step: null, loaded: null, total: null, startedAt: nowTimestamp() };
    try {
      const sync = new DatasetSync(connectionOf(link, use), { fs: gitFs(), http: webHttp, dir: CLONE_DIR });
      const report = await keptAlive(() => sync.testConnection());
      if (report.error) return { failure: failureOf(report.error) };
      return { failure: null, branches: report.branches, empty: report.empty, canWrite: report.canWrite };
    } catch (error) {
      return { failure: failureOf(error) };
    } finally {
      running = null;
    }
  },
  async 'dataset.status'() {
    return status();
  },
  async 'dataset.preview'({ target }) {
    return operation('preview', async (sync, link) => {
      const d = await db();
      await putDatasetState(d, link, {});
      const { plan, files } = await sync.preview(await syncSnapshot(d), { target: target ?? link.target });
      const review = (target ?? link.target) === 'review';
      return {
        models: plan.models,
        totals: plan.totals,
        message: plan.message,
        conflicts: conflictViews(plan.conflicts),
        pushTo: review ? `curators/${slug(link.name)}` : link.branch,
        reviewBranch: `curators/${slug(link.name)}`,
        files,
        sources: plan.sources.length,
      };
    });
  },
  async 'dataset.publish'({ message, target }) {
    return operation('publish', async (sync, link) => {
      const d = await db();
      await putDatasetState(d, link, {});
      const outcome = await sync.publish(await syncSnapshot(d), { message, target: target ?? link.target });
      const now = nowTimestamp();
      if (outcome.bases.length) await writeSync(d, [], () => ({ writes: [], bases: outcome.bases, result: null }), now);
      const patch: Partial<DatasetState> = { conflicts: outcome.plan.conflicts.length };
      if (outcome.status === 'published') {
        patch.lastPublishAt = now;
        patch.lastPublishedCommit = outcome.commit;
        if (outcome.pushedTo !== link.branch) {
          const pushed = { branch: outcome.pushedTo, url: outcome.reviewUrl, commit: outcome.commit, base: outcome.base, writes: outcome.plan.writes };
          patch.reviews = recordReview((await getDatasetState(d))?.reviews ?? [], pushed, now);
        }
      }
      await putDatasetState(d, link, patch);
      return {
        status: outcome.status,
        totals: outcome.plan.totals,
        commit: outcome.commit,
        pushedTo: outcome.pushedTo,
        reviewUrl: outcome.reviewUrl,
        merges: outcome.merges,
        conflicts: outcome.plan.conflicts.length,
        messages: outcome.messages,
        sources: outcome.status === 'published' ? outcome.plan.sources.length : 0,
      };
    });
  },
  async 'dataset.pull'() {
    return pull();
  },
  async 'dataset.settle'({ resolutions, rest }) {
    return pull(new Map(resolutions.map((r) => [r.ref, r.take])), rest);
  },
} satisfies Partial<Handlers<BackgroundCall>>;
