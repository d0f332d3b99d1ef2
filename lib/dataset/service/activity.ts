/** The operation under way, as the progress line shows it: which, its step, and the bytes of its transfer. */
import type { SyncStep } from '../git';
import type { DatasetActivity } from '../link';

/** The step that follows one that ended (a pull ends with its plan: the store's write is not the engine's). */
const NEXT_STEP: Partial<Record<SyncStep, SyncStep>> = { clone: 'fetch', fetch: 'read', read: 'plan', plan: 'write', write: 'push', merge: 'push' };

/** The one operation under way (or none), updated as the engine reports its steps and its transfer. */
export class ActivityLine {
  private running: DatasetActivity | null = null;

  /** The operation under way, or null. */
  get current(): DatasetActivity | null {
    return this.running;
  }

  /** An operation starts, at `step`. */
  start(op: DatasetActivity['op'], step: SyncStep | null, startedAt: string): void {
    this.running = { op, step, loaded: null, total: null, startedAt };
  }

  /** The engine ended `done`: the line moves to the step after it. */
  stepDone(done: SyncStep): void {
    if (!this.running) return;
    const next = this.running.op === 'pull' && done === 'plan' ? null : (NEXT_STEP[done] ?? null);
    this.running = { ...this.running, step: next, loaded: null, total: null };
  }

  /** Bytes of the transfer under way. */
  progress(loaded: number, total: number | undefined): void {
    if (this.running) this.running = { ...this.running, loaded, total: total ?? null };
  }

  /** The operation ended. */
  end(): void {
    this.running = null;
  }
}
