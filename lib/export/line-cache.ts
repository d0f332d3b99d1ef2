/**
 * Each record's JSONL line, remembered per record object, so an export of records a page already holds costs
 * their sort, the join and the download, not serialising 10,000 records again on every click. The lines can be
 * computed ahead, in idle slices, once the records arrive (`warm`).
 *
 * The records must be values: a page that holds them never changes one in place (a change arrives as new objects
 * from the store, and those get new lines). The file is byte-identical to `toJsonl(withLinks(claims), models)`;
 * `tests/unit/transfer/export-fast-paths.test.ts` checks it.
 */
import { CLAIM_SCHEMA, type ClaimRecord, type SurveyRecord } from '../schema';
import { serializeRecord } from './jsonl';
import { withLink } from './links';

/** Records serialised per idle slice by `warm`. */
const WARM_SLICE = 400;
/** Milliseconds of an idle moment below which no further slice is started in it. */
const SLICE_MS = 8;

/** Waits for an idle moment; may resolve with a clock of the milliseconds left in it (`IdleDeadline.timeRemaining`), a function. */
export type IdleWait = () => Promise<unknown>;

/**
 * A pause between slices of work done ahead: none while the idle moment last waited for has time left for another
 * slice, else a wait for the next one (`idle`, by default a macrotask).
 */
export function idleSlices(idle: IdleWait = () => new Promise<void>((resolve) => setTimeout(resolve, 0))): () => Promise<void> {
  let left: (() => number) | undefined;
  return async () => {
    if (left && left() >= SLICE_MS) return;
    const clock = await idle();
    left = typeof clock === 'function' ? (clock as () => number) : undefined;
  };
}

/** The JSONL line of each record as the export writes it (a claim with its default link filled in). */
export class ExportLineCache {
  private readonly lines = new WeakMap<object, string>();

  /** The record's line (no line end), computed once per record object. */
  line(record: SurveyRecord): string {
    let line = this.lines.get(record);
    if (line === undefined) {
      line = serializeRecord(record.schema === CLAIM_SCHEMA ? withLink(record as ClaimRecord) : record);
      this.lines.set(record, line);
    }
    return line;
  }

  /** Lines already computed for `record`'s object (for tests and progress). */
  has(record: SurveyRecord): boolean {
    return this.lines.has(record);
  }

  /**
   * Computes the lines of `records` ahead, a slice at a time, yielding between slices (`idle` waits for the
   * browser's next idle moment, by default a macrotask; while the moment has time left, the next slice goes on in
   * it). Stops early when `signal` is aborted.
   */
  async warm(records: Iterable<SurveyRecord>, options: { signal?: AbortSignal; idle?: IdleWait } = {}): Promise<void> {
    const idle = idleSlices(options.idle);
    let inSlice = 0;
    for (const record of records) {
      if (options.signal?.aborted) return;
      this.line(record);
      inSlice += 1;
      if (inSlice === WARM_SLICE) {
        inSlice = 0;
        await idle();
      }
    }
  }
}
