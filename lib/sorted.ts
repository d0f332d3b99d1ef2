/**
 * Searching sorted things: the binary searches of the code base, here and nowhere else. Pure.
 *
 * {@link partitionPoint} takes any predicate; {@link countBelow} and {@link countAtMost} are its case for an ascending
 * array of numbers, with no predicate to allocate per call (text offsets, page starts: hot paths).
 */

/**
 * The first index `i` in `[0, n)` at which `before(i)` is false, for a predicate that is true on a prefix of the range
 * and false after it (`n` when it is true everywhere). `before(i)` is "item `i` comes before what is looked for".
 */
export function partitionPoint(n: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** {@link partitionPoint} of "entry below `value`" (or "at most `value`" with `orEqual`) on an ascending array's first `n` entries. */
function bound(sorted: ArrayLike<number>, value: number, n: number, orEqual: boolean): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const entry = sorted[mid] as number;
    if (orEqual ? entry <= value : entry < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * How many of the first `n` entries (default: all) of an ascending array are below `value`: the index of the first
 * entry at or after `value` (`n` when there is none).
 */
export function countBelow(sorted: ArrayLike<number>, value: number, n: number = sorted.length): number {
  return bound(sorted, value, n, false);
}

/**
 * How many of the first `n` entries (default: all) of an ascending array are at most `value`: the index of the first
 * entry after `value`, so one past the last entry at or before it.
 */
export function countAtMost(sorted: ArrayLike<number>, value: number, n: number = sorted.length): number {
  return bound(sorted, value, n, true);
}

/** Whether a sorted array of numbers holds `value`. (Through {@link partitionPoint}: the page script needs no other search.) */
export function sortedIncludes(sorted: readonly number[], value: number): boolean {
  const i = partitionPoint(sorted.length, (k) => sorted[k]! < value);
  return i < sorted.length && sorted[i] === value;
}
