/**
 * The team's dataset as the background runs it: the connection, Test
 * connection, the publish dry run and the publish, the pull (conflicts wait
 * for the curator), the status line, and the pulls nobody asked for just now
 * (browser start, the periodic alarm). Operations run one at a time, kept
 * alive while git works, on one engine per connection; a failure is answered
 * as a value and the next operation runs. Everything the browser does for it
 * is passed in (`DatasetServiceDeps`).
 */
import type { PullChoice } from '..';
import type { ConnectionCheck, DatasetActivity, DatasetLink, DatasetOutcome, DatasetStatus, DatasetView, PublishDone, PublishDryRun, PullDone } from '../link';
import { ActivityLine } from './activity';
import { connectionOf, EngineCache } from './engine-cache';
import { failureOf, notConnected } from './failure';
import { keptAlive } from './keep-alive';
import type { DatasetEngine, DatasetServiceDeps } from './ports';
import { previewFromStore, publishFromStore, type PublishRequest } from './publish-from-store';
import { pullIntoStore } from './pull-into-store';
import { OperationQueue } from './queue';
import { countUnpublished, statusOf } from './status-line';

/** The dataset service's calls, one per dataset message, and the automatic pull. */
export interface DatasetService {
  view(): Promise<DatasetView>;
  status(): Promise<DatasetStatus>;
  /** Stores the link and token (the stored token when none is given) and schedules the periodic pull. */
  connect(link: DatasetLink, token: string): Promise<DatasetView>;
  /** After the operation under way: forgets the connection, the schedule, the engine and the clone. */
  disconnect(): Promise<DatasetView>;
  /** Test connection, with this link and token (the stored token when none is given); not queued. */
  test(link: DatasetLink, token: string): Promise<DatasetOutcome<ConnectionCheck>>;
  preview(target?: DatasetLink['target']): Promise<DatasetOutcome<PublishDryRun>>;
  publish(request: PublishRequest): Promise<DatasetOutcome<PublishDone>>;
  /** Pulls, settling conflicts as chosen (`rest` for the others; `later`: they wait). */
  pull(choices?: ReadonlyMap<string, PullChoice>, rest?: PullChoice): Promise<DatasetOutcome<PullDone>>;
  /** A pull nobody asked for just now: its failure (but "not connected") is kept for the status line. */
  autoPull(): Promise<void>;
  /** The browser started: pulls when the connection asks for it. */
  started(): Promise<void>;
}

/** The dataset service over what it is given. */
export function createDatasetService(deps: DatasetServiceDeps): DatasetService {
  const { connection, store } = deps;
  const queue = new OperationQueue();
  const activity = new ActivityLine();
  const engines = new EngineCache(deps.engines, {
    onStep: (step) => activity.stepDone(step),
    onProgress: ({ loaded, total }) => activity.progress(loaded, total),
  });
  /** Local changes not yet published, as last counted (not counted again while git works). */
  let unpublished = 0;

  /** Runs one operation after the one under way, kept alive, with its progress shown and its failure returned as a value. */
  function operation<T extends object>(op: DatasetActivity['op'], work: (engine: DatasetEngine, link: DatasetLink) => Promise<T>): Promise<DatasetOutcome<T>> {
    return queue.run(async (): Promise<DatasetOutcome<T>> => {
      const link = await connection.link();
      const token = await connection.token();
      if (!link || !token) return { failure: notConnected() };
      activity.start(op, 'clone', deps.now());
      try {
        const done = await keptAlive(deps.keepAlive, () => work(engines.get(link, token), link));
        return { failure: null, ...done };
      } catch (error) {
        return { failure: failureOf(error) };
      } finally {
        activity.end();
      }
    });
  }

  async function status(): Promise<DatasetStatus> {
    const link = await connection.link();
    const state = await store.state();
    if (!activity.current) unpublished = await countUnpublished(store, link, state);
    return statusOf({ link, state, unpublished, running: activity.current, lastError: await connection.lastError() });
  }

  async function view(): Promise<DatasetView> {
    return { link: await connection.link(), hasToken: (await connection.token()) !== '', status: await status() };
  }

  function pull(choices: ReadonlyMap<string, PullChoice> = new Map(), rest: PullChoice = 'later'): Promise<DatasetOutcome<PullDone>> {
    return operation('pull', (engine, link) => pullIntoStore(engine, link, { store, connection, now: deps.now }, { choices, rest }));
  }

  async function autoPull(): Promise<void> {
    const outcome = await pull();
    if (outcome.failure && outcome.failure.code !== 'not-connected') await connection.setLastError(outcome.failure);
  }

  return {
    view,
    status,
    pull,
    autoPull,
    async started() {
      if ((await connection.link())?.pullOnStart) await autoPull();
    },
    async connect(link, token) {
      const kept = token || (await connection.token());
      if (!kept) throw new Error('A token is needed to connect: paste one made on the host for this repository.');
      const before = await connection.link();
      if (before && (before.url !== link.url || before.branch !== link.branch)) await connection.clearLastError();
      await connection.save(link, kept);
      await deps.schedule.set(link);
      return view();
    },
    async disconnect() {
      await queue.idle();
      await connection.forget();
      await deps.schedule.set(null);
      engines.forget();
      await deps.removeClone();
      return view();
    },
    async test(link, token) {
      const use = token || (await connection.token());
      if (!use) return { failure: { code: 'auth', message: 'No token yet: paste one made on the host for this repository.', details: [] } };
      activity.start('test', null, deps.now());
      try {
        const engine = deps.engines(connectionOf(link, use), null);
        const report = await keptAlive(deps.keepAlive, () => engine.testConnection());
        if (report.error) return { failure: failureOf(report.error) };
        return { failure: null, branches: report.branches, empty: report.empty, canWrite: report.canWrite };
      } catch (error) {
        return { failure: failureOf(error) };
      } finally {
        activity.end();
      }
    },
    preview(target) {
      return operation('preview', (engine, link) => previewFromStore(engine, link, store, target));
    },
    publish(request) {
      return operation('publish', (engine, link) => publishFromStore(engine, link, store, request, deps.now));
    },
  };
}
