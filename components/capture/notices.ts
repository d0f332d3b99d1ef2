/** The capture UI's notices (toasts): at most three at a time, each gone after a while, a deletion's with its undo. */
import type { ClaimRecord } from '../../lib/schema';
import type { Store } from '../common/store';
import type { CaptureState } from './state';

const TOAST_MS = 8000;

/** Shows and takes away the notices of one capture UI. */
export class Notices {
  private readonly undoable = new Map<number, ClaimRecord[]>();
  private seq = 0;

  constructor(
    private readonly store: Store<CaptureState>,
    private readonly ui: () => Promise<void>,
    private readonly later: (callback: () => void, ms: number) => number,
  ) {}

  /** Shows a notice (with `undo`, the deleted claims it can put back); errors stay twice as long. */
  show(text: string, tone: 'info' | 'error' = 'info', undo?: ClaimRecord[]): void {
    const id = ++this.seq;
    if (undo) this.undoable.set(id, undo);
    void this.ui().then(() => {
      this.store.set((s) => ({ ...s, toasts: [...s.toasts, { id, text, tone, undo: !!undo }].slice(-3) }));
      this.later(() => this.dismiss(id), tone === 'error' ? TOAST_MS * 2 : TOAST_MS);
    });
  }

  /** Takes a notice away. */
  dismiss(id: number): void {
    this.undoable.delete(id);
    this.store.set((s) => ({ ...s, toasts: s.toasts.filter((x) => x.id !== id) }));
  }

  /** Takes a notice away and hands over the claims its undo puts back (none when it had no undo). */
  takeUndo(id: number): ClaimRecord[] {
    const claims = this.undoable.get(id) ?? [];
    this.dismiss(id);
    return claims;
  }
}
