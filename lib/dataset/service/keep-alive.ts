/**
 * Keeping a worker alive while it waits on the network: a browser stops an
 * extension's service worker after 30 s without extension events, and a
 * transfer is not one. A cheap call every few seconds is.
 */

/** The interval timers the keep-alive uses (the global ones unless a test passes its own). */
export interface IntervalTimers {
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** How to keep the worker alive: the cheap call to make, and how often. */
export interface KeepAlive {
  ping: () => Promise<unknown>;
  everyMs: number;
  timers?: IntervalTimers;
}

const GLOBAL_TIMERS: IntervalTimers = {
  setInterval: (run, ms) => globalThis.setInterval(run, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof globalThis.setInterval>),
};

/** Runs `work` with `ping` called every `everyMs` until it settles (a failed ping is ignored). */
export async function keptAlive<T>(keepAlive: KeepAlive, work: () => Promise<T>): Promise<T> {
  const timers = keepAlive.timers ?? GLOBAL_TIMERS;
  const handle = timers.setInterval(() => void keepAlive.ping().catch(() => undefined), keepAlive.everyMs);
  try {
    return await work();
  } finally {
    timers.clearInterval(handle);
  }
}
