import { describe, expect, it } from 'vitest';
import {
  ENGINE_HELLO,
  ENGINE_KEEP_MS,
  ENGINE_PING_MS,
  ENGINE_STATUS_QUERY,
  EngineKeeper,
  isEngineHello,
  isEnginePing,
  isEngineStatusQuery,
  VIEWER_LOCK_PREFIX,
  type KeeperTimers,
} from '../../../lib/pdf/engine-keeper';

/** A clock whose timers run only when the test moves it. */
function fakeTimers(): KeeperTimers & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let next = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  return {
    set(callback, ms) {
      const id = next++;
      timers.set(id, { at: now + ms, callback });
      return id;
    },
    clear(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      now += ms;
      for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
        if (timer.at > now) continue;
        timers.delete(id);
        timer.callback();
      }
    },
    pending: () => timers.size,
  };
}

describe('the engine keeper', () => {
  it('lets the engine go once no viewer has said it is open for the whole keeping time, and not before', () => {
    const timers = fakeTimers();
    let released = 0;
    const keeper = new EngineKeeper(() => released++, timers, 1000);
    timers.advance(999);
    expect(released).toBe(0);
    expect(keeper.done).toBe(false);
    timers.advance(1);
    expect(released).toBe(1);
    expect(keeper.done).toBe(true);
  });

  it('keeps the engine while viewers keep saying they are open, counting the time again from each', () => {
    const timers = fakeTimers();
    let released = 0;
    const keeper = new EngineKeeper(() => released++, timers, 1000);
    for (let i = 0; i < 10; i++) {
      timers.advance(900);
      keeper.heard();
    }
    expect(released).toBe(0);
    expect(timers.pending()).toBe(1);
    timers.advance(1000);
    expect(released).toBe(1);
  });

  it('lets the engine go once only: a ping heard after that changes nothing', () => {
    const timers = fakeTimers();
    let released = 0;
    const keeper = new EngineKeeper(() => released++, timers, 1000);
    timers.advance(1000);
    keeper.heard();
    timers.advance(5000);
    expect(released).toBe(1);
    expect(timers.pending()).toBe(0);
  });

  it('keeps the engine ten minutes, and an open viewer says so often enough to keep it', () => {
    expect(ENGINE_KEEP_MS).toBe(600_000);
    expect(ENGINE_PING_MS * 5).toBeLessThanOrEqual(ENGINE_KEEP_MS);
  });

  it('acts only on its own messages: a viewer ping, a status query', () => {
    expect(isEnginePing({ type: 'viewer' })).toBe(true);
    for (const other of [null, undefined, 'viewer', { type: 'Viewer' }, { action: 'GetDocRequest' }, []]) expect(isEnginePing(other)).toBe(false);
    expect(isEngineStatusQuery(ENGINE_STATUS_QUERY)).toBe(true);
    // pdf.js's own messages to its worker are never taken for a query.
    for (const other of [null, { sourceName: 'main', targetName: 'worker', action: 'test', data: null }, { type: 'recipe-lens:engine-status' }])
      expect(isEngineStatusQuery(other)).toBe(false);
  });

  it("waits only on a viewer's own lock: a hello naming another lock, or none, is not acted on", () => {
    expect(isEngineHello({ type: ENGINE_HELLO, lock: `${VIEWER_LOCK_PREFIX}4b7c0c1e-8f2a-4f4e-9d1c-2a6b1f0e9c33` })).toBe(true);
    for (const other of [
      { type: ENGINE_HELLO, lock: 'recipe-lens:dataset' },
      { type: ENGINE_HELLO, lock: 42 },
      { type: ENGINE_HELLO },
      { type: ENGINE_HELLO, lock: `${VIEWER_LOCK_PREFIX}${'x'.repeat(200)}` },
      { type: 'viewer', lock: `${VIEWER_LOCK_PREFIX}a` },
      null,
    ])
      expect(isEngineHello(other)).toBe(false);
  });
});
