// The dataset service (lib/dataset/service) against a fake engine, a connection and a store in memory, and timers
// the test moves: one operation at a time in the order asked, the keep-alive around git work, one engine per
// connection, failures answered as values with the queue going on, and the status line.
import { describe, expect, it } from 'vitest';
import { indexDataset, planPublish, planPull } from '../../../lib/dataset';
import { type ConnectionReport, type PublishOutcome, type PullOutcome, SyncError } from '../../../lib/dataset/git';
import { type DatasetFailure, DatasetLink } from '../../../lib/dataset/link';
import {
  ActivityLine,
  type ConnectionStore,
  createDatasetService,
  type DatasetEngine,
  type EngineHooks,
  EngineCache,
  failureOf,
  type IntervalTimers,
  keptAlive,
  OperationQueue,
  type SyncStore,
} from '../../../lib/dataset/service';
import type { DatasetState } from '../../../lib/dataset/synced';
import type { SurveyRecord } from '../../../lib/schema';

const LINK = DatasetLink.parse({ url: 'https://git.example/team/survey.git', branch: 'main', name: 'Ada' });

/** A promise the test settles. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** Lets every promise callback queued so far run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** Interval timers that run only when the test ticks them. */
function fakeTimers(): IntervalTimers & { tick(): void; active(): number } {
  let next = 0;
  const live = new Map<number, () => void>();
  return {
    setInterval(run) {
      live.set(next, run);
      return next++;
    },
    clearInterval(handle) {
      live.delete(handle as number);
    },
    tick() {
      for (const run of [...live.values()]) run();
    },
    active: () => live.size,
  };
}

function pullOutcome(remote: SurveyRecord[] = []): PullOutcome {
  return { head: 'c0ffee', plan: planPull([], new Map(), remote), remote, sources: [], ignored: [], layout: [] };
}

function publishOutcome(): PublishOutcome {
  const plan = planPublish([], new Map(), indexDataset([]));
  return { status: 'nothing', plan, commit: null, pushedTo: 'main', base: null, reviewUrl: null, bases: [], merges: 0, messages: [] };
}

/** An engine whose operations log their start and end, and wait for the test when it holds them. */
class FakeEngine implements DatasetEngine {
  readonly log: string[] = [];
  held: Promise<void> | null = null;
  failNext: unknown = null;
  report: ConnectionReport = { ok: true, error: null, branches: ['main'], empty: false, canWrite: true };
  active = 0;
  maxActive = 0;

  constructor(readonly hooks: EngineHooks | null) {}

  private async run<T>(name: string, result: () => T): Promise<T> {
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    this.log.push(`${name} start`);
    try {
      if (this.held) await this.held;
      if (this.failNext) {
        const error = this.failNext;
        this.failNext = null;
        throw error;
      }
      return result();
    } finally {
      this.log.push(`${name} end`);
      this.active--;
    }
  }

  testConnection() {
    return this.run('test', () => this.report);
  }
  pull() {
    return this.run('pull', () => pullOutcome());
  }
  preview() {
    return this.run('preview', () => ({ head: null, plan: publishOutcome().plan, files: [] }));
  }
  publish() {
    return this.run('publish', () => publishOutcome());
  }
}

/** The service over fakes, and the fakes to look at. */
function setup(options: { link?: DatasetLink | null; token?: string; hold?: Promise<void>; report?: ConnectionReport } = {}) {
  const stored = { link: options.link === undefined ? LINK : options.link, token: options.token ?? 'secret', lastError: null as DatasetFailure | null };
  const connection: ConnectionStore = {
    link: async () => stored.link,
    token: async () => stored.token,
    async save(link, token) {
      stored.link = link;
      stored.token = token;
    },
    async forget() {
      stored.link = null;
      stored.token = '';
      stored.lastError = null;
    },
    lastError: async () => stored.lastError,
    async setLastError(failure) {
      stored.lastError = failure;
    },
    async clearLastError() {
      stored.lastError = null;
    },
  };
  let state: DatasetState | null = null;
  const records: SurveyRecord[] = [];
  const events: string[] = [];
  const store: SyncStore = {
    snapshot: async () => ({ records, bases: new Map(), sources: [] }),
    state: async () => state,
    async putState(dataset, patch) {
      const same = state?.url === dataset.url && state?.branch === dataset.branch;
      const base: DatasetState = same
        ? state!
        : { ...dataset, lastPullAt: null, lastPulledCommit: null, lastPublishAt: null, lastPublishedCommit: null, conflicts: 0, reviews: [] };
      state = { ...base, ...patch };
      return state;
    },
    async writeSync(_incoming, decide) {
      return decide([], new Map()).result;
    },
    putSources: async (sources) => sources.length,
    async notifyChanged() {
      events.push('notified');
    },
  };
  const engines: FakeEngine[] = [];
  const timers = fakeTimers();
  let pings = 0;
  const schedules: Array<string | null> = [];
  const service = createDatasetService({
    engines: (_connection, hooks) => {
      const engine = new FakeEngine(hooks);
      engine.held = options.hold ?? null;
      if (options.report) engine.report = options.report;
      engines.push(engine);
      return engine;
    },
    connection,
    store,
    schedule: {
      async set(link) {
        schedules.push(link ? link.url : null);
      },
    },
    keepAlive: {
      ping: async () => {
        pings++;
      },
      everyMs: 20_000,
      timers,
    },
    async removeClone() {
      events.push('clone removed');
    },
    now: () => '2026-01-02T03:04:05Z',
  });
  return { service, stored, engines, timers, events, schedules, pings: () => pings, state: () => state };
}

describe('OperationQueue', () => {
  it('runs operations one at a time in the order asked, and goes on after a failure', async () => {
    const queue = new OperationQueue();
    const log: string[] = [];
    const first = deferred();
    const a = queue.run(async () => {
      log.push('a start');
      await first.promise;
      log.push('a end');
      throw new Error('a failed');
    });
    const b = queue.run(async () => {
      log.push('b');
      return 'b done';
    });
    await settle();
    expect(log).toEqual(['a start']);
    first.resolve();
    await expect(a).rejects.toThrow('a failed');
    await expect(b).resolves.toBe('b done');
    expect(log).toEqual(['a start', 'a end', 'b']);
  });

  it('is idle once every operation asked for has settled, failed ones too', async () => {
    const queue = new OperationQueue();
    const gate = deferred();
    let idle = false;
    const failing = queue.run(async () => {
      await gate.promise;
      throw new Error('no');
    });
    const waited = queue.idle().then(() => (idle = true));
    await settle();
    expect(idle).toBe(false);
    gate.resolve();
    await expect(failing).rejects.toThrow('no');
    await waited;
    expect(idle).toBe(true);
  });
});

describe('keptAlive', () => {
  it('pings on every interval while the work runs and stops when it ends, failed or not', async () => {
    const timers = fakeTimers();
    let pings = 0;
    const gate = deferred<string>();
    const keep = {
      ping: async () => {
        pings++;
        if (pings === 2) throw new Error('a ping failing is ignored');
      },
      everyMs: 20_000,
      timers,
    };
    const work = keptAlive(keep, () => gate.promise);
    expect(timers.active()).toBe(1);
    timers.tick();
    timers.tick();
    timers.tick();
    expect(pings).toBe(3);
    gate.resolve('done');
    await expect(work).resolves.toBe('done');
    expect(timers.active()).toBe(0);
    await expect(keptAlive(keep, async () => Promise.reject(new Error('broke')))).rejects.toThrow('broke');
    expect(timers.active()).toBe(0);
  });
});

describe('EngineCache', () => {
  it('keeps the engine while the connection is the same, and makes another when it changes or is forgotten', () => {
    const made: string[] = [];
    const hooks: EngineHooks = { onStep: () => undefined, onProgress: () => undefined };
    const cache = new EngineCache((connection, given) => {
      made.push(`${connection.url} ${connection.branch} ${connection.name} ${connection.username ?? '-'} ${connection.token}`);
      expect(given).toBe(hooks);
      return new FakeEngine(given);
    }, hooks);
    const first = cache.get(LINK, 't1');
    expect(cache.get({ ...LINK }, 't1')).toBe(first);
    expect(cache.get(LINK, 't2')).not.toBe(first);
    cache.get({ ...LINK, branch: 'dev' }, 't2');
    cache.get({ ...LINK, branch: 'dev', username: 'oauth2' }, 't2');
    const again = cache.get({ ...LINK, branch: 'dev', username: 'oauth2' }, 't2');
    cache.forget();
    expect(cache.get({ ...LINK, branch: 'dev', username: 'oauth2' }, 't2')).not.toBe(again);
    expect(made).toEqual([
      'https://git.example/team/survey.git main Ada - t1',
      'https://git.example/team/survey.git main Ada - t2',
      'https://git.example/team/survey.git dev Ada - t2',
      'https://git.example/team/survey.git dev Ada oauth2 t2',
      'https://git.example/team/survey.git dev Ada oauth2 t2',
    ]);
  });
});

describe('ActivityLine and failureOf', () => {
  it('follows the engine from step to step; a pull ends with its plan', () => {
    const line = new ActivityLine();
    line.stepDone('clone');
    expect(line.current).toBeNull();
    line.start('pull', 'clone', 'now');
    line.progress(10, undefined);
    expect(line.current).toEqual({ op: 'pull', step: 'clone', loaded: 10, total: null, startedAt: 'now' });
    line.stepDone('clone');
    expect(line.current?.step).toBe('fetch');
    expect(line.current?.loaded).toBeNull();
    line.stepDone('read');
    line.stepDone('plan');
    expect(line.current?.step).toBeNull();
    line.start('publish', 'clone', 'now');
    line.stepDone('plan');
    expect(line.current?.step).toBe('write');
    line.stepDone('merge');
    expect(line.current?.step).toBe('push');
    line.end();
    expect(line.current).toBeNull();
  });

  it("says the engine's failures with their code and details, anything else as failed", () => {
    expect(failureOf(new SyncError('auth', 'Bad token.', ['line']))).toEqual({ code: 'auth', message: 'Bad token.', details: ['line'] });
    expect(failureOf(new Error('boom'))).toEqual({ code: 'failed', message: 'boom', details: [] });
    expect(failureOf('odd')).toEqual({ code: 'failed', message: 'odd', details: [] });
  });
});

describe('the dataset service', () => {
  it('runs operations one at a time, in the order asked, on one engine for the connection', async () => {
    const gate = deferred();
    const { service, engines } = setup({ hold: gate.promise });
    const first = service.pull();
    const second = service.publish({});
    const third = service.preview();
    await settle();
    expect(engines[0]!.log).toEqual(['pull start']);
    gate.resolve();
    const answers = await Promise.all([first, second, third]);
    expect(answers.map((a) => a.failure)).toEqual([null, null, null]);
    expect(engines).toHaveLength(1);
    expect(engines[0]!.log).toEqual(['pull start', 'pull end', 'publish start', 'publish end', 'preview start', 'preview end']);
    expect(engines[0]!.maxActive).toBe(1);
  });

  it('answers a failure as a value and runs the next operation', async () => {
    const { service, engines } = setup();
    await service.status();
    const warm = await service.pull();
    expect(warm.failure).toBeNull();
    engines[0]!.failNext = new SyncError('conflicts', 'Another curator published.', ['a: x differ']);
    const failed = service.publish({});
    const next = service.pull();
    expect(await failed).toEqual({ failure: { code: 'conflicts', message: 'Another curator published.', details: ['a: x differ'] } });
    expect((await next).failure).toBeNull();
    engines[0]!.failNext = new TypeError('not git');
    expect((await service.preview()).failure).toEqual({ code: 'failed', message: 'not git', details: [] });
    expect((await service.status()).running).toBeNull();
  });

  it('keeps the worker alive while git works, and only then', async () => {
    const gate = deferred();
    const { service, timers, pings } = setup({ hold: gate.promise });
    expect(timers.active()).toBe(0);
    const pull = service.pull();
    const publish = service.publish({});
    await settle();
    expect(timers.active()).toBe(1);
    timers.tick();
    timers.tick();
    expect(pings()).toBe(2);
    gate.resolve();
    await Promise.all([pull, publish]);
    expect(timers.active()).toBe(0);
  });

  it('keeps the worker alive during Test connection too', async () => {
    const gate = deferred();
    const { service, timers, pings } = setup({ hold: gate.promise });
    const test = service.test(LINK, '');
    await settle();
    expect(timers.active()).toBe(1);
    timers.tick();
    expect(pings()).toBe(1);
    gate.resolve();
    expect((await test).failure).toBeNull();
    expect(timers.active()).toBe(0);
  });

  it('makes the engine again when the connection changes, and after a disconnect', async () => {
    const { service, engines } = setup();
    await service.pull();
    await service.publish({});
    expect(engines).toHaveLength(1);
    await service.connect({ ...LINK, name: 'Grace' }, '');
    await service.pull();
    expect(engines).toHaveLength(2);
    await service.connect({ ...LINK, name: 'Grace' }, 'another token');
    await service.pull();
    expect(engines).toHaveLength(3);
    await service.disconnect();
    await service.connect(LINK, 'secret');
    await service.pull();
    expect(engines).toHaveLength(4);
    expect(engines.every((e) => e.hooks !== null)).toBe(true);
  });

  it('answers "not connected" without an engine when no link or no token is stored', async () => {
    for (const given of [{ link: null }, { token: '' }]) {
      const { service, engines } = setup(given);
      expect(await service.pull()).toEqual({ failure: { code: 'not-connected', message: expect.stringContaining('No dataset is connected'), details: [] } });
      expect((await service.publish({})).failure?.code).toBe('not-connected');
      expect(engines).toHaveLength(0);
    }
  });

  it('shows the operation under way and its steps on the status line', async () => {
    const gate = deferred();
    const { service, engines } = setup({ hold: gate.promise });
    const publish = service.publish({});
    await settle();
    expect((await service.status()).running).toEqual({ op: 'publish', step: 'clone', loaded: null, total: null, startedAt: '2026-01-02T03:04:05Z' });
    engines[0]!.hooks!.onStep('clone');
    engines[0]!.hooks!.onProgress({ loaded: 5, total: 50 });
    expect((await service.status()).running).toMatchObject({ op: 'publish', step: 'fetch', loaded: 5, total: 50 });
    gate.resolve();
    await publish;
    expect((await service.status()).running).toBeNull();
  });

  it('records a pull and a publish in the store, and the status line shows them for the dataset connected', async () => {
    const { service, state } = setup();
    expect((await service.status()).lastPullAt).toBeNull();
    const pulled = await service.pull();
    expect(pulled).toMatchObject({ failure: null, head: 'c0ffee', added: 0, conflicts: [], conflictCount: 0, sources: 0 });
    expect(state()).toMatchObject({ url: LINK.url, branch: 'main', lastPullAt: '2026-01-02T03:04:05Z' });
    const view = await service.view();
    expect(view).toMatchObject({ link: LINK, hasToken: true, status: { connected: true, lastPullAt: '2026-01-02T03:04:05Z', unpublished: 0, conflicts: 0 } });
    const published = await service.publish({ message: 'm' });
    expect(published).toMatchObject({ failure: null, status: 'nothing', pushedTo: 'main', merges: 0, sources: 0 });
    const preview = await service.preview('review');
    expect(preview).toMatchObject({ failure: null, pushTo: 'curators/ada', reviewBranch: 'curators/ada', files: [] });
    await service.connect({ ...LINK, branch: 'other' }, '');
    expect((await service.status()).lastPullAt).toBeNull();
  });

  it('keeps an automatic pull\'s failure for the status line, clears it after a pull that worked, and never keeps "not connected"', async () => {
    const { service, engines, stored } = setup();
    await service.pull();
    engines[0]!.failNext = new SyncError('unreachable', 'The host is unreachable.');
    await service.autoPull();
    expect((await service.status()).lastError).toEqual({ code: 'unreachable', message: 'The host is unreachable.', details: [] });
    await service.autoPull();
    expect((await service.status()).lastError).toBeNull();
    stored.token = '';
    await service.autoPull();
    expect(stored.lastError).toBeNull();
  });

  it('pulls on browser start only when the connection asks for it', async () => {
    const off = setup();
    await off.service.started();
    expect(off.engines).toHaveLength(0);
    const on = setup({ link: { ...LINK, pullOnStart: true } });
    await on.service.started();
    expect(on.engines[0]!.log).toEqual(['pull start', 'pull end']);
  });

  it('connects with the stored token when none is given, schedules the pull, and refuses without any token', async () => {
    const { service, stored, schedules } = setup({ link: null, token: '' });
    await expect(service.connect(LINK, '')).rejects.toThrow('A token is needed');
    const view = await service.connect({ ...LINK, pullEveryMinutes: 30 }, 'fresh');
    expect(view).toMatchObject({ hasToken: true, status: { connected: true } });
    await service.connect({ ...LINK, name: 'Grace' }, '');
    expect(stored.token).toBe('fresh');
    expect(schedules).toEqual([LINK.url, LINK.url]);
  });

  it('clears the last failure when another dataset is connected, not when the same one is saved again', async () => {
    const { service, stored } = setup();
    stored.lastError = { code: 'auth', message: 'no', details: [] };
    await service.connect({ ...LINK, name: 'Grace' }, '');
    expect(stored.lastError).not.toBeNull();
    await service.connect({ ...LINK, url: 'https://git.example/team/other.git' }, '');
    expect(stored.lastError).toBeNull();
  });

  it('disconnects after the operation under way: the connection, the schedule and the clone go', async () => {
    const gate = deferred();
    const { service, events, schedules, stored } = setup({ hold: gate.promise });
    const publish = service.publish({});
    await settle();
    const disconnected = service.disconnect();
    await settle();
    expect(events).not.toContain('clone removed');
    expect(stored.link).not.toBeNull();
    gate.resolve();
    const view = await disconnected;
    expect((await publish).failure).toBeNull();
    expect(events).toContain('clone removed');
    expect(schedules).toEqual([null]);
    expect(view).toMatchObject({ link: null, hasToken: false, status: { connected: false, unpublished: 0 } });
  });

  it('tests a connection on an engine of its own, without hooks, outside the queue', async () => {
    const { service, engines } = setup();
    expect(await service.test({ ...LINK, branch: 'dev' }, '')).toEqual({ failure: null, branches: ['main'], empty: false, canWrite: true });
    expect(engines).toHaveLength(1);
    expect(engines[0]!.hooks).toBeNull();
    await service.pull();
    expect(engines).toHaveLength(2);
    const none = setup({ token: '' });
    expect((await none.service.test(LINK, '')).failure?.code).toBe('auth');
    expect(none.engines).toHaveLength(0);
  });

  it("answers Test connection's finding as a failure", async () => {
    const report: ConnectionReport = {
      ok: false,
      error: new SyncError('read-only', 'This token cannot write.'),
      branches: ['main'],
      empty: false,
      canWrite: false,
    };
    const { service } = setup({ report });
    expect(await service.test(LINK, 't')).toEqual({ failure: { code: 'read-only', message: 'This token cannot write.', details: [] } });
  });
});
