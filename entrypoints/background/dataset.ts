/**
 * The team's dataset, from the background: the dataset service
 * (`lib/dataset/service`) wired to the browser, and its calls answered. The
 * token is kept in `storage.local` only — never in the database, a backup, an
 * export or a log.
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
import { getDatasetState, putDatasetState, putSourceRecords, syncSnapshot, writeSync } from '../../lib/db';
import { DatasetSync, installBuffer, removeTree, type GitFs } from '../../lib/dataset/git';
import { DatasetLink, type DatasetFailure } from '../../lib/dataset/link';
import { type ConnectionStore, createDatasetService, type SyncStore } from '../../lib/dataset/service';
import type { BackgroundCall, Handlers } from '../../lib/messages';
import { nowTimestamp } from '../../lib/time';
import { notifyChanged } from './changes';
import { db } from './db';

const LINK_KEY = 'datasetLink';
const TOKEN_KEY = 'datasetToken';
const AUTO_ERROR_KEY = 'datasetAutoPullError';
const ALARM = 'dataset-pull';
const FS_NAME = 'recipe-lens-dataset';
const CLONE_DIR = '/dataset';
const KEEPALIVE_MS = 20_000;

let fileSystem: GitFs | null = null;

function gitFs(): GitFs {
  installBuffer();
  fileSystem ??= new FS(FS_NAME) as unknown as GitFs;
  return fileSystem;
}

/** The connection in `storage.local`. */
const connection: ConnectionStore = {
  async link() {
    const parsed = DatasetLink.safeParse((await browser.storage.local.get(LINK_KEY))[LINK_KEY]);
    return parsed.success ? parsed.data : null;
  },
  async token() {
    const token = (await browser.storage.local.get(TOKEN_KEY))[TOKEN_KEY];
    return typeof token === 'string' ? token : '';
  },
  save: (link, token) => browser.storage.local.set({ [LINK_KEY]: link, [TOKEN_KEY]: token }),
  forget: () => browser.storage.local.remove([LINK_KEY, TOKEN_KEY, AUTO_ERROR_KEY]),
  async lastError() {
    return ((await browser.storage.local.get(AUTO_ERROR_KEY))[AUTO_ERROR_KEY] as DatasetFailure | undefined) ?? null;
  },
  setLastError: (failure) => browser.storage.local.set({ [AUTO_ERROR_KEY]: failure }),
  clearLastError: () => browser.storage.local.remove(AUTO_ERROR_KEY),
};

/** The store's side of a sync, over the background's database. */
const store: SyncStore = {
  snapshot: async () => syncSnapshot(await db()),
  state: async () => getDatasetState(await db()),
  putState: async (dataset, patch) => putDatasetState(await db(), dataset, patch),
  writeSync: async (incoming, decide, now) => writeSync(await db(), incoming, decide, now),
  putSources: async (sources) => putSourceRecords(await db(), sources),
  notifyChanged: () => notifyChanged(null),
};

const service = createDatasetService({
  engines: (conn, hooks) =>
    new DatasetSync(conn, {
      fs: gitFs(),
      http: webHttp,
      dir: CLONE_DIR,
      ...(hooks && { onStep: (step) => hooks.onStep(step), onProgress: ({ loaded, total }) => hooks.onProgress({ loaded, total }) }),
    }),
  connection,
  store,
  schedule: {
    async set(link) {
      if (!browser.alarms) return;
      await browser.alarms.clear(ALARM);
      if (link?.pullEveryMinutes) await browser.alarms.create(ALARM, { periodInMinutes: link.pullEveryMinutes, delayInMinutes: link.pullEveryMinutes });
    },
  },
  keepAlive: { ping: () => browser.runtime.getPlatformInfo(), everyMs: KEEPALIVE_MS },
  async removeClone() {
    await removeTree(gitFs(), CLONE_DIR);
    await gitFs().promises.flush?.();
  },
  now: nowTimestamp,
});

/** Registers, synchronously, the periodic pull's alarm and the pull on browser start. */
export function listenForDatasetSchedule(): void {
  browser.alarms?.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) void service.autoPull();
  });
  browser.runtime.onStartup.addListener(() => void service.started());
}

/** Answers to the dataset calls. */
export const datasetHandlers = {
  'dataset.get': () => service.view(),
  'dataset.connect': ({ link, token }) => service.connect(link, token),
  'dataset.disconnect': () => service.disconnect(),
  'dataset.test': ({ link, token }) => service.test(link, token),
  'dataset.status': () => service.status(),
  'dataset.preview': ({ target }) => service.preview(target),
  'dataset.publish': ({ message, target }) => service.publish({ message, target }),
  'dataset.pull': () => service.pull(),
  'dataset.settle': ({ resolutions, rest }) => service.pull(new Map(resolutions.map((r) => [r.ref, r.take])), rest),
} satisfies Partial<Handlers<BackgroundCall>>;
