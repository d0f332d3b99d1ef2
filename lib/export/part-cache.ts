/**
 * JSONL export files put together from parts made ahead. A page turns a 9 MB file into a download through the
 * Blob constructor, and that costs far more than building the text (in Chromium, ~100 ms against ~13 ms for
 * 10,500 records, `scripts/bench/panel-transfer/ab-export.mjs`); a Blob made of Blobs made earlier costs ~3 ms.
 * So the file is cut into parts of whole rows — the records of one (model, recipe) sit together in the file
 * (`jsonlRows`) — of about 256 Ki code units each, and each part is made once (`make`, e.g. a Blob of the text)
 * and kept with the record objects it holds. An export uses every kept part whose rows come next in its file with
 * the very same record objects, and makes the rest then (and keeps them). Parts of single rows would not do:
 * a Blob of 500 Blobs costs 50–180 ms to make. The order of the records last given is kept too (sorting 10,500
 * records takes 10–30 ms): the same record objects in the same lists again are not sorted again.
 *
 * `warm` makes the parts of a set of records ahead, one part per idle slice. The records must be values, never
 * changed in place (a change arrives as new objects, which match no kept part). The parts joined are byte for
 * byte `toJsonl(withLinks(claims), models)`; `tests/unit/transfer/export-fast-paths.test.ts` checks it. Pure: the
 * caller says what a part is.
 */
import type { ClaimRecord, ModelRecord, SurveyRecord } from '../schema';
import { jsonlRows, type JsonlRow } from './jsonl';
import { ExportLineCache, idleSlices, type IdleWait } from './line-cache';

/** Code units of text a part is filled to (a part holds at least one row, whatever its length). */
const PART_LENGTH = 256 * 1024;
/** Kept parts hold at most this many times the text of the largest file put together; the least recently used go first. */
const KEEP_FILES = 3;

/** Claims and model records to export (the source records are not part of the cached text). */
export interface JsonlPartData {
  claims: readonly ClaimRecord[];
  models: readonly ModelRecord[];
}

/** A part kept: its rows (their keys and record objects), what `make` made of their text, the text's length, and when it was last used. */
interface Part<P> {
  rows: ReadonlyArray<{ key: string; records: readonly SurveyRecord[] }>;
  value: P;
  length: number;
  used: number;
}

/** Length of a row's text in the file (its lines and their line ends). */
function rowLength(row: JsonlRow): number {
  let n = row.lines.length;
  for (const line of row.lines) n += line.length;
  return n;
}

/** True when the two lists hold the same objects in the same order. */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The JSONL file of records as parts of whole rows, each part made once (by `make`) and kept for the next export of the same rows. */
export class JsonlPartCache<P> {
  /** The records' lines (a claim's with its default link filled in), remembered per record object. */
  readonly lines: ExportLineCache;
  private readonly make: (text: string) => P;
  private readonly partLength: number;
  /** Kept parts by the key of their first row, the most recently made first. */
  private readonly byFirstRow = new Map<string, Part<P>[]>();
  /** The records last put in order (copies of the lists given) and their rows: the same lists again need no sort. */
  private last: { claims: readonly ClaimRecord[]; models: readonly ModelRecord[]; rows: JsonlRow[] } | null = null;
  private held = 0;
  private largest = 0;
  private clock = 0;
  private made = 0;

  /** `make` turns a part's text into what the file is put together from (a Blob in a page). `partLength`: for tests. */
  constructor(make: (text: string) => P, options: { lines?: ExportLineCache; partLength?: number } = {}) {
    this.make = make;
    this.lines = options.lines ?? new ExportLineCache();
    this.partLength = Math.max(1, options.partLength ?? PART_LENGTH);
  }

  /** The claims' and model records' JSONL file as parts, in order: kept ones where they fit, the others made now (and kept). No records, no parts. */
  parts(data: JsonlPartData): P[] {
    const run = this.compose(this.rows(data));
    for (;;) {
      const step = run.next();
      if (step.done) return step.value;
    }
  }

  /**
   * Makes ahead the parts that an export of `data` would use, a part per slice, waiting for `idle` (by default a
   * macrotask) before the first slice and between slices, unless the idle moment has time left for the next one:
   * first the records' lines (`ExportLineCache.warm`), then the order of the records (one slice), then the parts.
   * Stops early when `signal` is aborted.
   */
  async warm(data: JsonlPartData, options: { signal?: AbortSignal; idle?: IdleWait } = {}): Promise<void> {
    const idle = idleSlices(options.idle);
    const stopped = () => options.signal?.aborted === true;
    await idle();
    if (stopped()) return;
    await this.lines.warm([...data.claims, ...data.models], { signal: options.signal, idle });
    if (stopped()) return;
    await idle();
    if (stopped()) return;
    const run = this.compose(this.rows(data));
    for (;;) {
      await idle();
      if (stopped() || run.next().done) return;
    }
  }

  /** Parts kept now, and parts made since the cache was created (for tests and progress). */
  stats(): { kept: number; made: number; length: number } {
    let kept = 0;
    for (const list of this.byFirstRow.values()) kept += list.length;
    return { kept, made: this.made, length: this.held };
  }

  /** The rows of the file of `data`; those of the last call when it was given the same record objects in the same order. */
  private rows(data: JsonlPartData): JsonlRow[] {
    const last = this.last;
    if (last && sameItems(last.claims, data.claims) && sameItems(last.models, data.models)) return last.rows;
    const rows = jsonlRows(data.claims, data.models, (r) => this.lines.line(r));
    this.last = { claims: [...data.claims], models: [...data.models], rows };
    return rows;
  }

  /** Puts the file of `rows` together, yielding after each part it has to make. */
  private *compose(rows: JsonlRow[]): Generator<void, P[]> {
    const stamp = ++this.clock;
    const out: P[] = [];
    let pending: JsonlRow[] = [];
    let pendingLength = 0;
    let total = 0;
    for (let i = 0; i < rows.length; ) {
      const kept = this.find(rows, i);
      if (kept) {
        if (pending.length) {
          out.push(this.keep(pending, pendingLength, stamp));
          pending = [];
          pendingLength = 0;
          yield;
        }
        kept.used = stamp;
        out.push(kept.value);
        total += kept.length;
        i += kept.rows.length;
        continue;
      }
      const row = rows[i]!;
      const length = rowLength(row);
      if (pending.length && pendingLength + length > this.partLength) {
        out.push(this.keep(pending, pendingLength, stamp));
        pending = [];
        pendingLength = 0;
        yield;
      }
      pending.push(row);
      pendingLength += length;
      total += length;
      i += 1;
    }
    if (pending.length) out.push(this.keep(pending, pendingLength, stamp));
    this.largest = Math.max(this.largest, total);
    this.evict(stamp);
    return out;
  }

  /** A kept part whose rows are `rows[at…]`, with the same record objects. */
  private find(rows: readonly JsonlRow[], at: number): Part<P> | undefined {
    return this.byFirstRow.get(rows[at]!.key)?.find(
      (part) =>
        part.rows.length <= rows.length - at &&
        part.rows.every((kept, j) => {
          const row = rows[at + j]!;
          return kept.key === row.key && sameItems(kept.records, row.records);
        }),
    );
  }

  /** Makes the part of these rows and keeps it. */
  private keep(rows: readonly JsonlRow[], length: number, stamp: number): P {
    let text = '';
    for (const row of rows) for (const line of row.lines) text += `${line}\n`;
    const part: Part<P> = { rows: rows.map((r) => ({ key: r.key, records: r.records })), value: this.make(text), length, used: stamp };
    const key = rows[0]!.key;
    const list = this.byFirstRow.get(key);
    if (list) list.unshift(part);
    else this.byFirstRow.set(key, [part]);
    this.held += length;
    this.made += 1;
    return part.value;
  }

  /** Drops the least recently used parts (never one the export `stamp` used) while the kept text is over its limit. */
  private evict(stamp: number): void {
    const limit = KEEP_FILES * this.largest;
    if (this.held <= limit) return;
    const all = [...this.byFirstRow.values()].flat().filter((p) => p.used < stamp);
    all.sort((a, b) => a.used - b.used);
    const dropped = new Set<Part<P>>();
    for (const part of all) {
      if (this.held <= limit) break;
      dropped.add(part);
      this.held -= part.length;
    }
    for (const [key, list] of this.byFirstRow) {
      const left = list.filter((p) => !dropped.has(p));
      if (left.length) this.byFirstRow.set(key, left);
      else this.byFirstRow.delete(key);
    }
  }
}
