/** One dataset operation at a time: each waits for the one before it, and a failure does not stop the next. */

/** Runs operations one after another, in the order they were asked for. */
export class OperationQueue {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `work` once every operation asked for before it has settled; its result (or failure) is the caller's. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work);
    this.tail = next.catch(() => undefined);
    return next;
  }

  /** Settles once every operation asked for so far has (never rejects). */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }
}
