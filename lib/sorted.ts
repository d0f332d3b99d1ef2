/** Searching sorted things: one binary search for every place that needs one. Pure. */

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

/** Whether a sorted array of numbers holds `value`. */
export function sortedIncludes(sorted: readonly number[], value: number): boolean {
  const i = partitionPoint(sorted.length, (k) => sorted[k]! < value);
  return i < sorted.length && sorted[i] === value;
}
