/**
 * A q-gram index of a page's folded text, for large pages: every position is
 * filed under a hash of the q characters starting there, so exact
 * occurrences of a quote and the likely places of an edited one are found by
 * looking up a few of its q-grams instead of scanning megabytes per quote.
 * Built once per text index (lazily, and in slices when asked), then shared
 * by every passage anchored against it.
 */

/** Characters per gram. */
export const Q = 8;
/** Only every STRIDE-th position of the text is indexed (a sparse index: a quarter of the work and memory). */
export const STRIDE = 4;
/** Shortest needle the index can find exactly (one of its first STRIDE grams starts at an indexed position). */
export const MIN_INDEXED_NEEDLE = Q + STRIDE - 1;
/** Texts shorter than this are searched by plain scanning (an index would not pay for itself). */
export const QGRAM_MIN_TEXT = 4096;
/**
 * Fewest passages anchored together for which the exact pass builds the index rather than scanning the text. Both
 * find the same occurrences; the build costs as much as about this many passages' scans (on the 2 MB benchmark page,
 * 50–75 ms against 0.35 ms per passage), so a page with a handful of claims is anchored without it, unless some
 * passage needs the approximate search, which always uses it.
 */
export const QGRAM_MIN_PASSAGES = 160;
/** Positions handled per `step` slice (a few milliseconds of work). */
const POSITIONS_PER_STEP = 16_384;
/** Hash base. */
const BASE = 0x01000193;

/** The hash of `text[at, at + Q)` (UTF-16 code units), not yet reduced to a bucket. */
function gramHash(text: string, at: number): number {
  let h = 0;
  for (let i = 0; i < Q; i++) h = (Math.imul(h, BASE) + text.charCodeAt(at + i)) | 0;
  return h;
}

/** Whether `text` holds `gram` (length Q) at `at`. */
function gramAt(text: string, at: number, gram: string): boolean {
  for (let i = 0; i < Q; i++) if (text.charCodeAt(at + i) !== gram.charCodeAt(i)) return false;
  return true;
}

/** An index from q-gram hash buckets to the (every STRIDE-th) positions of `text` where a gram of that bucket starts. */
export class QGramIndex {
  /** The indexed text (the folded text of a TextIndex). */
  readonly text: string;
  private readonly bits: number;
  private readonly mask: number;
  /** heads[b]..heads[b+1] delimit bucket b in `positions` (after the build). */
  private heads: Int32Array;
  private positions: Int32Array;
  /** Bucket of each indexed position, kept between the counting and the filling pass (dropped after). */
  private buckets: Int32Array | null;
  private phase: 0 | 1 | 2 = 0;
  private cursor = 0;
  /** Number of indexed positions (0, STRIDE, 2·STRIDE, …). */
  private readonly count: number;

  /** Prepares an index of `text`; call `step()` until it returns true (or `build()`) before querying. */
  constructor(text: string) {
    this.text = text;
    this.count = text.length < Q ? 0 : Math.floor((text.length - Q) / STRIDE) + 1;
    let bits = 10;
    while (1 << bits < this.count && bits < 22) bits++;
    this.bits = bits;
    this.mask = (1 << bits) - 1;
    this.heads = new Int32Array((1 << bits) + 1);
    this.positions = new Int32Array(this.count);
    this.buckets = new Int32Array(this.count);
  }

  /** The bucket of a full hash. */
  private bucket(h: number): number {
    return (Math.imul(h ^ (h >>> 16), 0x45d9f3b) >>> (32 - this.bits)) & this.mask;
  }

  /** Whether the index is ready for queries. */
  get ready(): boolean {
    return this.phase === 2;
  }

  /** Does one slice of the build (two passes: count buckets, then fill them); true when finished. */
  step(): boolean {
    if (this.phase === 2) return true;
    const text = this.text;
    const end = Math.min(this.count, this.cursor + POSITIONS_PER_STEP);
    const heads = this.heads;
    let i = this.cursor;
    const buckets = this.buckets as Int32Array;
    if (this.phase === 0) {
      for (; i < end; i++) {
        const b = this.bucket(gramHash(text, i * STRIDE));
        buckets[i] = b;
        heads[b + 1] = (heads[b + 1] as number) + 1;
      }
    } else {
      const positions = this.positions;
      for (; i < end; i++) {
        const b = buckets[i] as number;
        const at = heads[b] as number;
        positions[at] = i * STRIDE;
        heads[b] = at + 1;
      }
    }
    this.cursor = i;
    if (i < this.count) return false;
    if (this.phase === 0) {
      // Counts → starting offsets.
      for (let b = 1; b < heads.length; b++) heads[b] = (heads[b] as number) + (heads[b - 1] as number);
      this.phase = 1;
    } else {
      // The fill advanced every head to its bucket's end: shift back to starts.
      for (let b = heads.length - 1; b > 0; b--) heads[b] = heads[b - 1] as number;
      heads[0] = 0;
      this.phase = 2;
      this.buckets = null;
    }
    this.cursor = 0;
    return this.phase === 2;
  }

  /** Finishes the build in one go. */
  build(): this {
    while (!this.step());
    return this;
  }

  /** How many positions share the bucket of `gram` (an upper bound of its occurrences). */
  bucketSize(gram: string): number {
    const b = this.bucket(gramHash(gram, 0));
    return this.heads[b + 1]! - this.heads[b]!;
  }

  /** Positions where `gram` (length Q) occurs, in increasing order; null when more than `limit` share its bucket. */
  lookup(gram: string, limit = Infinity): number[] | null {
    const b = this.bucket(gramHash(gram, 0));
    const from = this.heads[b]!;
    const to = this.heads[b + 1]!;
    if (to - from > limit) return null;
    const out: number[] = [];
    for (let k = from; k < to; k++) {
      const p = this.positions[k]!;
      if (gramAt(this.text, p, gram)) out.push(p);
    }
    return out;
  }

  /**
   * Start offsets of the exact occurrences of `needle` (at least
   * MIN_INDEXED_NEEDLE long), in order, at most `limit`: every occurrence has
   * one of STRIDE consecutive grams of the needle at an indexed position, so
   * the rarest such run of grams gives the candidates, each verified in full.
   */
  findExact(needle: string, limit: number): number[] {
    const m = needle.length;
    const span = m - Q - STRIDE + 1;
    let bestAt = 0;
    let bestSize = Infinity;
    const probes = Math.min(6, span + 1);
    for (let t = 0; t < probes; t++) {
      const j = probes === 1 ? 0 : Math.round((t * span) / (probes - 1));
      let size = 0;
      for (let u = 0; u < STRIDE; u++) size += this.bucketSize(needle.slice(j + u, j + u + Q));
      if (size < bestSize) {
        bestSize = size;
        bestAt = j;
      }
    }
    const out: number[] = [];
    for (let u = 0; u < STRIDE; u++) {
      const off = bestAt + u;
      for (const h of this.lookup(needle.slice(off, off + Q)) ?? []) {
        const start = h - off;
        if (start >= 0 && this.text.startsWith(needle, start)) out.push(start);
      }
    }
    out.sort((a, b) => a - b);
    return out.length > limit ? out.slice(0, limit) : out;
  }

  /**
   * Where a pattern probably is, by q-gram voting: each gram of `pattern`
   * found in the text votes for the pattern start it implies; grams that
   * occur too often are ignored. Returns the implied starts with the most
   * votes (votes within `band` of each other pooled), best first.
   */
  vote(pattern: string, band: number, options: { maxGrams?: number; maxHits?: number; top?: number } = {}): Array<{ lo: number; hi: number; votes: number }> {
    const m = pattern.length;
    if (m < Q) return [];
    const maxGrams = options.maxGrams ?? 96;
    const maxHits = options.maxHits ?? 48;
    const total = m - Q + 1;
    // An odd step: the text is indexed at every STRIDE-th position only, so an even step would see no gram of a
    // match whose start has the other parity.
    const stride = Math.max(1, Math.floor(total / maxGrams)) | 1;
    const diags: number[] = [];
    const seen = new Set<string>();
    for (let j = 0; j < total; j += stride) {
      const gram = pattern.slice(j, j + Q);
      if (seen.has(gram)) continue;
      seen.add(gram);
      const hits = this.lookup(gram, maxHits * 2);
      if (!hits || hits.length > maxHits) continue;
      for (const h of hits) diags.push(h - j);
    }
    if (diags.length === 0) return [];
    diags.sort((a, b) => a - b);
    const groups: Array<{ lo: number; hi: number; votes: number }> = [];
    for (const d of diags) {
      const g = groups[groups.length - 1];
      if (g && d - g.lo <= band) {
        g.hi = d;
        g.votes++;
      } else groups.push({ lo: d, hi: d, votes: 1 });
    }
    return groups.sort((a, b) => b.votes - a.votes || a.lo - b.lo).slice(0, options.top ?? 8);
  }
}

/** One index per folded text, built on first use. */
const cache = new WeakMap<object, QGramIndex>();

/** The q-gram index of a text index's folded text (created unbuilt; `owner` keys the cache). */
export function qgramIndexOf(owner: object, folded: string): QGramIndex {
  let q = cache.get(owner);
  if (!q) {
    q = new QGramIndex(folded);
    cache.set(owner, q);
  }
  return q;
}

/** The q-gram index kept for `owner` if it is built, else null (nothing is created: an unbuilt index holds megabytes of arrays on a large page). */
export function builtQGramIndexOf(owner: object): QGramIndex | null {
  const q = cache.get(owner);
  return q?.ready ? q : null;
}

/** Whether a text is long enough to be searched through a q-gram index. */
export function wantsQGramIndex(textLength: number): boolean {
  return textLength >= QGRAM_MIN_TEXT;
}
