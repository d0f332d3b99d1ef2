/**
 * Bit-parallel edit distance (Myers 1999, in Hyyrö's block formulation):
 * the pattern's rows are packed 32 per machine word, so one text character
 * costs ⌈m/32⌉ word operations instead of m cell updates.
 */

const WORD = 32;
const HIGH_BIT = 0x80000000 | 0;

/** How the top row of the DP table is initialised when scanning. */
export type ScanMode =
  /** The match may start anywhere: D[0][j] = 0 (approximate substring search). */
  | 'infix'
  /** The match starts at the first scanned character: D[0][j] = j. */
  | 'anchored';

/** A pattern prepared for bit-parallel approximate matching against any text. */
export class ApproxPattern {
  /** The pattern's length m. */
  readonly length: number;
  /** Number of 32-bit blocks, ⌈m/32⌉. */
  readonly blocks: number;
  private readonly peq = new Map<number, Int32Array>();
  /** The match vectors of the first 256 code units, looked up without hashing (most page text is Latin). */
  private readonly low: Int32Array[];
  private readonly none: Int32Array;
  private readonly lastMask: number;

  /** Prepares the match-bit vectors of `pattern` (must not be empty). */
  constructor(pattern: string) {
    if (pattern.length === 0) throw new Error('ApproxPattern: empty pattern');
    this.length = pattern.length;
    this.blocks = Math.ceil(pattern.length / WORD);
    this.none = new Int32Array(this.blocks);
    for (let i = 0; i < pattern.length; i++) {
      const c = pattern.charCodeAt(i);
      let v = this.peq.get(c);
      if (!v) {
        v = new Int32Array(this.blocks);
        this.peq.set(c, v);
      }
      const b = (i / WORD) | 0;
      v[b] = (v[b] ?? 0) | (1 << (i % WORD));
    }
    this.lastMask = 1 << ((pattern.length - 1) % WORD);
    this.low = Array.from({ length: 256 }, (_, c) => this.peq.get(c) ?? this.none);
  }

  /** Edit-distance scores of the pattern against `count` characters of `text` read from `from` by `step` (see below). */
  // scores[i] is the distance between the pattern and the best span ending at
  // the i-th scanned character ('infix'), or the span from the first scanned
  // character to it ('anchored'). With step -1, pass a reversed pattern.
  scan(text: string, from: number, count: number, step: 1 | -1, mode: ScanMode): Int32Array {
    const B = this.blocks;
    const pv = new Int32Array(B).fill(-1);
    const mv = new Int32Array(B);
    const scores = new Int32Array(Math.max(0, count));
    const topIn = mode === 'anchored' ? 1 : 0;
    const last = B - 1;
    let score = this.length;
    let pos = from;
    for (let i = 0; i < count; i++, pos += step) {
      const code = text.charCodeAt(pos);
      const eqv = code < 256 ? (this.low[code] as Int32Array) : (this.peq.get(code) ?? this.none);
      let hin = topIn;
      for (let b = 0; b < B; b++) {
        const p = pv[b] as number;
        const m = mv[b] as number;
        let eq = eqv[b] as number;
        const xv = eq | m;
        if (hin < 0) eq |= 1;
        const xh = (((eq & p) + p) ^ p) | eq;
        let ph = m | ~(xh | p);
        let mh = p & xh;
        const high = b === last ? this.lastMask : HIGH_BIT;
        const hout = (ph & high) !== 0 ? 1 : (mh & high) !== 0 ? -1 : 0;
        ph <<= 1;
        mh <<= 1;
        if (hin < 0) mh |= 1;
        else if (hin > 0) ph |= 1;
        pv[b] = mh | ~(xv | ph);
        mv[b] = ph & xv;
        hin = hout;
      }
      score += hin;
      scores[i] = score;
    }
    return scores;
  }
}

/** Scratch rows reused by `levenshtein` (it is called for every candidate's context). */
let rowA = new Int32Array(80);
let rowB = new Int32Array(80);

/** Plain O(|a|·|b|) Levenshtein distance, meant for short strings such as prefix/suffix context. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  if (rowA.length < b.length + 1) {
    rowA = new Int32Array(b.length + 1);
    rowB = new Int32Array(b.length + 1);
  }
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const sub = (prev[j - 1] as number) + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const del = (prev[j] as number) + 1;
      const ins = (cur[j - 1] as number) + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[b.length] as number;
}

/** Similarity in [0,1] of two strings: 1 − edit distance / longer length (1 for two empty strings). */
export function similarity(a: string, b: string): number {
  const n = Math.max(a.length, b.length);
  return n === 0 ? 1 : 1 - levenshtein(a, b) / n;
}
