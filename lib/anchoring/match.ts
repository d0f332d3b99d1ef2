/**
 * String-level search used by the anchorer: every exact occurrence of a
 * quote, and an approximate (edit-distance) search whose work is bounded on
 * long texts by only looking at windows suggested by exact "seed" chunks of
 * the quote and by the position hint.
 */
import { ApproxPattern } from './myers';

/** A span [start, end) of the searched text and its edit distance to the pattern. */
export interface Span {
  start: number;
  end: number;
  distance: number;
}

/** Most exact occurrences collected for one quote. */
export const MAX_OCCURRENCES = 1000;

/** Start offsets of the exact occurrences of `needle` in `haystack` (overlapping ones included), at most `limit`. */
export function findExact(haystack: string, needle: string, limit = MAX_OCCURRENCES): number[] {
  const out: number[] = [];
  if (needle.length === 0) return out;
  let p = haystack.indexOf(needle);
  while (p >= 0 && out.length < limit) {
    out.push(p);
    p = haystack.indexOf(needle, p + 1);
  }
  return out;
}

/** Edit budget for a quote of length m: max(2, 25% of m). */
export function maxErrorsFor(m: number): number {
  return Math.max(2, Math.floor(m * 0.25));
}

/** Options of the approximate search. */
export interface FuzzyOptions {
  /** Most edits allowed (default `maxErrorsFor(pattern.length)`). */
  maxErrors?: number;
  /** Expected start offset (position hint), searched around in addition to the seeds. */
  hint?: number | null;
  /** Most candidates returned (best distance first). */
  maxCandidates?: number;
}

/** Word-steps (text chars × pattern blocks) below which the whole text is scanned instead of seeded windows. */
const FULL_SCAN_BUDGET = 6_000_000;
/** Most seed chunks taken from one quote. */
const MAX_SEEDS = 24;
/** A seed occurring more often than this is too common to say where the quote is. */
const MAX_SEED_HITS = 16;
/** Most seeded windows verified with the bit-parallel matcher. */
const MAX_WINDOWS = 8;
/** Slack added around each window. */
const WINDOW_PAD = 16;

/** Approximate substring search: non-overlapping spans of `text` within `maxErrors` edits of `pattern`, fewest edits first. */
export function findFuzzy(text: string, pattern: string, options: FuzzyOptions = {}): Span[] {
  const m = pattern.length;
  const n = text.length;
  if (m === 0 || n === 0) return [];
  const k = options.maxErrors ?? maxErrorsFor(m);
  const maxCandidates = options.maxCandidates ?? 16;
  const forward = new ApproxPattern(pattern);
  // Short patterns or small texts are scanned whole, in O(n·⌈m/32⌉); otherwise
  // only windows around seed hits and around the position hint are.
  const windows: Array<[number, number]> = [];
  if (n * forward.blocks <= FULL_SCAN_BUDGET) {
    windows.push([0, n]);
  } else {
    windows.push(...seedWindows(text, pattern, k));
    const hint = options.hint;
    if (hint !== null && hint !== undefined && Number.isFinite(hint)) {
      windows.push([hint - k - 4 * WINDOW_PAD, hint + m + k + 4 * WINDOW_PAD]);
    }
  }
  return spansInWindows(text, pattern, windows, k, maxCandidates, options.hint ?? null, forward);
}

/**
 * Approximate matches of `pattern` (within `k` edits) inside the given
 * windows of `text` only: the bit-parallel scan finds where matches end, a
 * backward scan where each starts. Non-overlapping spans, fewest edits first;
 * with a `hint`, the candidates nearest it are kept as well. With a
 * `separation` above 1, a long run of ends within `k` edits (a generous `k`
 * on similar text) yields every local best at least that far from a better
 * one, not only the run's single best, so a look-alike next to the best
 * match is still seen.
 */
export function spansInWindows(
  text: string,
  pattern: string,
  windows: Array<[number, number]>,
  k: number,
  maxCandidates = 16,
  hint: number | null = null,
  prepared?: ApproxPattern,
  separation = 1,
): Span[] {
  const m = pattern.length;
  const n = text.length;
  if (m === 0 || n === 0) return [];
  const forward = prepared ?? new ApproxPattern(pattern);
  const ends = new Map<number, number>();
  for (const [a, b] of mergeWindows(windows, n)) {
    for (const [end, score] of bestEnds(forward.scan(text, a, b - a, 1, 'infix'), a, k, separation)) {
      const seen = ends.get(end);
      if (seen === undefined || score < seen) ends.set(end, score);
    }
  }
  if (ends.size === 0) return [];
  const all = [...ends];
  const ranked = all.sort((x, y) => x[1] - y[1] || x[0] - y[0]).slice(0, maxCandidates);
  if (hint !== null && Number.isFinite(hint)) {
    // Also keep the candidates nearest the hint, which may have lost on distance alone.
    const expectedEnd = hint + m;
    const near = [...all].sort((x, y) => Math.abs(x[0] - expectedEnd) - Math.abs(y[0] - expectedEnd)).slice(0, 4);
    for (const c of near) if (!ranked.includes(c)) ranked.push(c);
  }
  const backward = new ApproxPattern(reverse(pattern));
  const spans: Span[] = [];
  for (const [end] of ranked) {
    const span = startOf(backward, text, end, k);
    if (span && span.distance <= k) spans.push(span);
  }
  spans.sort((x, y) => x.distance - y.distance || x.start - y.start);
  return dedupe(spans);
}

/** The string reversed by UTF-16 code unit (matching works per code unit). */
function reverse(s: string): string {
  let out = '';
  for (let i = s.length - 1; i >= 0; i--) out += s[i];
  return out;
}

/**
 * The ends worth a backward scan, as [end offset, score]: in each run of
 * columns scoring ≤ k, the column with the lowest score (separation ≤ 1), or
 * every column that is the lowest (leftmost on ties) within `separation`
 * columns on either side.
 */
function bestEnds(scores: Int32Array, offset: number, k: number, separation = 1): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let runStart = -1;
  for (let i = 0; i <= scores.length; i++) {
    const inRun = i < scores.length && (scores[i] as number) <= k;
    if (inRun && runStart < 0) runStart = i;
    if (!inRun && runStart >= 0) {
      if (separation <= 1) {
        let bestAt = runStart;
        for (let j = runStart + 1; j < i; j++) if ((scores[j] as number) < (scores[bestAt] as number)) bestAt = j;
        out.push([offset + bestAt + 1, scores[bestAt] as number]);
      } else localMinima(scores, runStart, i, separation, (at) => out.push([offset + at + 1, scores[at] as number]));
      runStart = -1;
    }
  }
  return out;
}

/** Calls `emit` for each column of [from, to) whose score is the lowest within `w` columns either side (leftmost on ties), by a sliding-window minimum. */
function localMinima(scores: Int32Array, from: number, to: number, w: number, emit: (at: number) => void): void {
  // deque holds column indices with increasing scores (ties: the earlier kept first) over the window [j - 2w, j].
  const deque: number[] = [];
  let head = 0;
  let lastEmitted = -Infinity;
  for (let j = from; j < to + w; j++) {
    if (j < to) {
      const s = scores[j] as number;
      while (deque.length > head && (scores[deque[deque.length - 1] as number] as number) > s) deque.pop();
      deque.push(j);
    }
    const center = j - w;
    if (center < from) continue;
    while ((deque[head] as number) < center - w) head++;
    const min = deque[head] as number;
    if (min === center && center - lastEmitted > w) {
      emit(center);
      lastEmitted = center;
    }
  }
}

/** Finds where the best match ending at `end` starts, by scanning backwards with the reversed pattern. */
function startOf(backward: ApproxPattern, text: string, end: number, k: number): Span | null {
  const m = backward.length;
  const count = Math.min(end, m + k + 1);
  if (count <= 0) return null;
  const scores = backward.scan(text, end - 1, count, -1, 'anchored');
  let bestLen = -1;
  let best = Infinity;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i] as number;
    const len = i + 1;
    if (s < best || (s === best && Math.abs(len - m) < Math.abs(bestLen - m))) {
      best = s;
      bestLen = len;
    }
  }
  if (bestLen < 0) return null;
  return { start: end - bestLen, end, distance: best };
}

/** Drops spans that overlap a better one already kept. */
function dedupe(spans: Span[]): Span[] {
  const kept: Span[] = [];
  for (const s of spans) {
    if (!kept.some((t) => s.start < t.end && t.start < s.end)) kept.push(s);
  }
  return kept;
}

/** Sorts, clamps and merges overlapping windows. */
function mergeWindows(windows: Array<[number, number]>, n: number): Array<[number, number]> {
  const clamped = windows
    .map(([a, b]): [number, number] => [Math.max(0, Math.floor(a)), Math.min(n, Math.ceil(b))])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  const out: Array<[number, number]> = [];
  for (const w of clamped) {
    const last = out[out.length - 1];
    if (last && w[0] <= last[1]) last[1] = Math.max(last[1], w[1]);
    else out.push([w[0], w[1]]);
  }
  return out;
}

/**
 * Candidate windows from exact hits of chunks ("seeds") of the pattern: each
 * hit predicts where the whole pattern would start; hits that agree on that
 * start vote together, and the best-voted groups become windows.
 */
function seedWindows(text: string, pattern: string, k: number): Array<[number, number]> {
  const m = pattern.length;
  const L = Math.max(8, Math.min(32, Math.floor(m / 8)));
  if (m < L) return [];
  const offsets: number[] = [];
  for (let q = 0; q + L <= m; q += L) offsets.push(q);
  if (offsets[offsets.length - 1] !== m - L) offsets.push(m - L);
  const chosen: number[] = [];
  if (offsets.length <= MAX_SEEDS) chosen.push(...offsets);
  else {
    for (let i = 0; i < MAX_SEEDS; i++) {
      const q = offsets[Math.round((i * (offsets.length - 1)) / (MAX_SEEDS - 1))];
      if (q !== undefined && chosen[chosen.length - 1] !== q) chosen.push(q);
    }
  }
  const votes: Array<{ diag: number; seed: number }> = [];
  chosen.forEach((q, seed) => {
    const hits = findExact(text, pattern.slice(q, q + L), MAX_SEED_HITS + 1);
    if (hits.length > MAX_SEED_HITS) return;
    for (const h of hits) votes.push({ diag: h - q, seed });
  });
  votes.sort((a, b) => a.diag - b.diag);
  const groups: Array<{ lo: number; hi: number; seeds: Set<number> }> = [];
  const band = 2 * k + L;
  for (const v of votes) {
    const g = groups[groups.length - 1];
    if (g && v.diag - g.lo <= band) {
      g.hi = v.diag;
      g.seeds.add(v.seed);
    } else groups.push({ lo: v.diag, hi: v.diag, seeds: new Set([v.seed]) });
  }
  return groups
    .sort((a, b) => b.seeds.size - a.seeds.size || a.lo - b.lo)
    .slice(0, MAX_WINDOWS)
    .map((g): [number, number] => [g.lo - k - WINDOW_PAD, g.hi + m + k + WINDOW_PAD]);
}
