/**
 * How long pdf.js's shared engine is kept warm once no viewer is open. The engine (pdf.js's worker, shared by every
 * viewer page: `components/pdf/engine.worker.ts`) lives while a page is connected to it; a small keeper page connects
 * too, so a report opened after another, or a minute after the last one closed, finds pdf.js's code loaded,
 * compiled and warm instead of booting a new worker. Viewers say they are open on a broadcast channel when they open,
 * then every minute and when they close; the keeper closes (and lets the engine go) once it has heard nothing for
 * `ENGINE_KEEP_MS`. Pure: the clock and the timer are passed in.
 */

/** The broadcast channel on which viewers tell the keeper they are open. */
export const ENGINE_CHANNEL = 'recipe-lens:pdf-engine';

/** How long the engine is kept after the last sign of an open viewer: 10 minutes. */
export const ENGINE_KEEP_MS = 10 * 60_000;

/** How often an open viewer says so. */
export const ENGINE_PING_MS = 60_000;

/** The message a viewer posts on {@link ENGINE_CHANNEL}. */
export interface EnginePing {
  readonly type: 'viewer';
}

/** Whether a message heard on the channel is a viewer's ping (nothing else on it is trusted or acted on). */
export function isEnginePing(data: unknown): data is EnginePing {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'viewer';
}

/** The type of the engine's answer to a status query. */
export const ENGINE_STATUS = 'recipe-lens:engine-status';

/** The engine's answer: how many documents are open in it. */
export interface EngineStatus {
  readonly type: typeof ENGINE_STATUS;
  readonly documents: number;
}

/** Whether a message sent to the engine asks for its {@link EngineStatus} (pdf.js's own messages never do). */
export function isEngineStatusQuery(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'recipe-lens:engine-status-query';
}

/** The query {@link isEngineStatusQuery} recognises. */
export const ENGINE_STATUS_QUERY = { type: 'recipe-lens:engine-status-query' } as const;

/** The prefix of the Web Lock each viewer holds while it lives (the engine waits on it to learn the viewer is gone). */
export const VIEWER_LOCK_PREFIX = 'recipe-lens:pdf-viewer:';

/** The type of a connection's first message: the name of the lock its page holds while it lives. */
export const ENGINE_HELLO = 'recipe-lens:engine-hello';

/** A connection's first message to the engine. */
export interface EngineHello {
  readonly type: typeof ENGINE_HELLO;
  readonly lock: string;
}

/** Whether a message sent to the engine is a connection's {@link EngineHello} naming a viewer's lock. */
export function isEngineHello(data: unknown): data is EngineHello {
  if (typeof data !== 'object' || data === null) return false;
  const { type, lock } = data as { type?: unknown; lock?: unknown };
  return type === ENGINE_HELLO && typeof lock === 'string' && lock.startsWith(VIEWER_LOCK_PREFIX) && lock.length <= 100;
}

/** A timer the keeper can start and stop (`setTimeout` / `clearTimeout` in a page). */
export interface KeeperTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Calls `onIdle` once `keepMs` pass without {@link EngineKeeper.heard}; a keeper that went idle stays idle. */
export class EngineKeeper {
  private handle: unknown = null;
  private idle = false;

  constructor(
    private readonly onIdle: () => void,
    private readonly timers: KeeperTimers,
    private readonly keepMs: number = ENGINE_KEEP_MS,
  ) {
    this.arm();
  }

  /** A viewer said it is open: the engine is kept `keepMs` from now. */
  heard(): void {
    if (this.idle) return;
    this.timers.clear(this.handle);
    this.arm();
  }

  /** Whether the keeper has let the engine go. */
  get done(): boolean {
    return this.idle;
  }

  private arm(): void {
    this.handle = this.timers.set(() => {
      this.idle = true;
      this.onIdle();
    }, this.keepMs);
  }
}
