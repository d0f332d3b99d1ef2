// A recheck run (lib/recheck/run.ts: its scope, sources, progress) and the runner over its sources
// (lib/recheck/runner.ts: in order, a few at a time, a stop that keeps nothing half-read, failures reported).
import { describe, expect, it } from 'vitest';
import { RecheckScope, runProgress, sourceDone, sourcesInScope, startRun } from '../../../lib/recheck/run';
import { runSources, SOURCES_AT_ONCE, type RunnerDeps } from '../../../lib/recheck/runner';
import type { SourceFindings } from '../../../lib/recheck/stored';
import { claim } from '../fixtures/records';

const A = 'https://a.example.org/report';
const B = 'https://b.example.org/card';
const C = 'https://c.example.org/blog';

describe('a run and its scope', () => {
  const claims = [
    claim({ id: 'clm_run_00001', source: { ...claim().source, url: C } }),
    claim({ id: 'clm_run_00002', source: { ...claim().source, url: A } }),
    claim({ id: 'clm_run_00003', model: 'GLM-5', source: { ...claim().source, url: B } }),
    claim({ id: 'clm_run_00004', model: 'GLM-5', source: { ...claim().source, url: A } }),
    claim({ id: 'clm_run_00005', model: 'GLM-5', source: { ...claim().source, url: 'https://d.example.org/' }, deleted_at: '2026-12-01T00:00:00Z' }),
  ];

  it('lists the sources of live claims once each, sorted, for every source, one model, or one source', () => {
    expect(sourcesInScope({ kind: 'all' }, claims)).toEqual([A, B, C]);
    expect(sourcesInScope({ kind: 'model', model: 'GLM-5' }, claims)).toEqual([A, B]);
    expect(sourcesInScope({ kind: 'model', model: 'Nobody' }, claims)).toEqual([]);
    expect(sourcesInScope({ kind: 'source', url: C }, claims)).toEqual([C]);
    expect(sourcesInScope({ kind: 'source', url: 'https://d.example.org/' }, claims)).toEqual([]);
  });

  it('validates a scope as it crosses into the background', () => {
    expect(RecheckScope.safeParse({ kind: 'model', model: 'GLM-5' }).success).toBe(true);
    expect(RecheckScope.safeParse({ kind: 'source', url: 'javascript:alert(1)' }).success).toBe(false);
    expect(RecheckScope.safeParse({ kind: 'model', model: '' }).success).toBe(false);
    expect(RecheckScope.safeParse({ kind: 'everything' }).success).toBe(false);
  });

  it('takes each source off pending as it is stored, finished when none is left, and says how far it is', () => {
    let run = startRun('run-1', { kind: 'all' }, [A, B], '2026-12-05T09:00:00Z');
    expect(runProgress(run)).toEqual({ done: 0, total: 2, left: 2 });
    run = sourceDone(run, B, '2026-12-05T09:01:00Z');
    expect(run).toMatchObject({ urls: [A, B], pending: [A], finished_at: null });
    expect(runProgress(run)).toEqual({ done: 1, total: 2, left: 1 });
    run = sourceDone(run, A, '2026-12-05T09:02:00Z');
    expect(run).toMatchObject({ pending: [], finished_at: '2026-12-05T09:02:00Z' });
    // A source stored again later does not move the end of a finished run.
    expect(sourceDone(run, A, '2026-12-05T10:00:00Z').finished_at).toBe('2026-12-05T09:02:00Z');
    expect(startRun('run-2', { kind: 'source', url: A }, [], '2026-12-05T11:00:00Z').finished_at).toBe('2026-12-05T11:00:00Z');
  });
});

/** Findings of `url` (their content does not matter to the runner). */
function found(url: string): SourceFindings {
  return { url, title: url, checked_at: '2026-12-05T10:00:00Z', verdicts: [], candidates: [], undisclosedOnly: false };
}

/** A promise with its resolve and reject at hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Reads held open until the test lets them finish, counting how many are under way at once. */
function heldReads() {
  const held = new Map<string, ReturnType<typeof deferred<SourceFindings>>>();
  const order: string[] = [];
  const saved: string[] = [];
  let inFlight = 0;
  let most = 0;
  const deps: RunnerDeps = {
    read(url) {
      order.push(url);
      inFlight++;
      most = Math.max(most, inFlight);
      const d = deferred<SourceFindings>();
      held.set(url, d);
      return d.promise.finally(() => inFlight--);
    },
    async save(findings) {
      saved.push(findings.url);
    },
  };
  return { deps, held, order, saved, most: () => most, inFlight: () => inFlight };
}

describe('running a recheck over sources', () => {
  const urls = Array.from({ length: 7 }, (_, i) => `https://s${i}.example.org/`);

  it('reads and stores the sources in order, one at a time when asked', async () => {
    const read: string[] = [];
    const saved: string[] = [];
    const told: number[] = [];
    const outcome = await runSources(
      urls,
      {
        read: async (url) => {
          read.push(url);
          return found(url);
        },
        save: async (f) => {
          saved.push(f.url);
        },
        onSaved: (_f, n) => told.push(n),
      },
      new AbortController().signal,
      1,
    );
    expect(read).toEqual(urls);
    expect(saved).toEqual(urls);
    expect(told).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(outcome).toEqual({ saved: 7, stopped: false, failed: [] });
  });

  it('has at most `atOnce` sources under way, starting them in order', async () => {
    const run = heldReads();
    const done = runSources(urls, run.deps, new AbortController().signal, 2);
    await settle();
    expect(run.order).toEqual(urls.slice(0, 2));
    for (const url of urls) {
      await settle();
      run.held.get(url)!.resolve(found(url));
      await settle();
      expect(run.inFlight()).toBeLessThanOrEqual(2);
    }
    expect(await done).toEqual({ saved: 7, stopped: false, failed: [] });
    expect(run.order).toEqual(urls);
    expect(run.most()).toBe(2);
  });

  it('reads SOURCES_AT_ONCE at a time by default, and no more workers than sources', async () => {
    const run = heldReads();
    const done = runSources(urls, run.deps, new AbortController().signal);
    await settle();
    expect(run.order).toEqual(urls.slice(0, SOURCES_AT_ONCE));
    for (const url of urls) {
      await settle();
      run.held.get(url)!.resolve(found(url));
    }
    await done;
    expect(run.most()).toBe(SOURCES_AT_ONCE);

    const few = heldReads();
    const two = runSources([A, B], few.deps, new AbortController().signal, 10);
    await settle();
    expect(few.order).toEqual([A, B]);
    few.held.get(A)!.resolve(found(A));
    few.held.get(B)!.resolve(found(B));
    expect(await two).toEqual({ saved: 2, stopped: false, failed: [] });
  });

  it('on stop, stores none of the sources under way and starts no other', async () => {
    const run = heldReads();
    const stop = new AbortController();
    const done = runSources(urls, run.deps, stop.signal, 2);
    await settle();
    run.held.get(urls[0]!)!.resolve(found(urls[0]!));
    await settle();
    expect(run.saved).toEqual([urls[0]]);
    expect(run.order).toEqual(urls.slice(0, 3));
    stop.abort();
    // The sources under way finish reading after the stop (one with its findings, one failing as it was cut short).
    run.held.get(urls[1]!)!.resolve(found(urls[1]!));
    run.held.get(urls[2]!)!.reject(new Error('The operation was aborted.'));
    const outcome = await done;
    expect(outcome).toEqual({ saved: 1, stopped: true, failed: [] });
    expect(run.saved).toEqual([urls[0]]);
    expect(run.order).toEqual(urls.slice(0, 3));
  });

  it('starts nothing when stopped before it began', async () => {
    const stop = new AbortController();
    stop.abort();
    const run = heldReads();
    expect(await runSources(urls, run.deps, stop.signal)).toEqual({ saved: 0, stopped: true, failed: [] });
    expect(run.order).toEqual([]);
  });

  it('reports a source whose reading or storing failed, and goes on with the others', async () => {
    const saved: string[] = [];
    const outcome = await runSources(
      [A, B, C],
      {
        read: async (url) => {
          if (url === A) throw new Error('HTTP 500');
          return found(url);
        },
        save: async (f) => {
          if (f.url === C) throw new Error('quota exceeded');
          saved.push(f.url);
        },
      },
      new AbortController().signal,
      1,
    );
    expect(saved).toEqual([B]);
    expect(outcome).toEqual({
      saved: 1,
      stopped: false,
      failed: [
        { url: A, message: 'HTTP 500' },
        { url: C, message: 'quota exceeded' },
      ],
    });
  });
});
