// The one binary search (lib/sorted): its numeric cases at their edges (empty, before and after every entry, runs of
// equal entries, a limit below the length) and, on seeded random arrays, against a linear scan and against the
// "last entry at or before" search the text index and the PDF text model wrote by hand before.
import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../scripts/bench/harness/prng.mjs';
import { countAtMost, countBelow, partitionPoint, sortedIncludes } from '../../../lib/sorted';

/** The search the text index, the PDF text model and the page stack each wrote before: the last index at or before `x`, 0 when none. */
function lastAtOrBeforeByHand(starts: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((starts[mid] as number) <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

describe('countBelow and countAtMost', () => {
  it('count the entries below, or at most, a value', () => {
    const sorted = Int32Array.of(1, 3, 3, 3, 7, 10);
    expect(countBelow(sorted, 3)).toBe(1);
    expect(countAtMost(sorted, 3)).toBe(4);
    expect(countBelow(sorted, 4)).toBe(4);
    expect(countAtMost(sorted, 4)).toBe(4);
    expect(countBelow(sorted, 10)).toBe(5);
    expect(countAtMost(sorted, 10)).toBe(6);
  });

  it('give 0 before every entry and the length after every entry', () => {
    const sorted = [2, 4, 6];
    expect(countBelow(sorted, -1)).toBe(0);
    expect(countAtMost(sorted, 1)).toBe(0);
    expect(countBelow(sorted, 2)).toBe(0);
    expect(countBelow(sorted, 7)).toBe(3);
    expect(countAtMost(sorted, 6)).toBe(3);
  });

  it('give 0 on an empty array', () => {
    expect(countBelow([], 5)).toBe(0);
    expect(countAtMost(new Int32Array(0), 5)).toBe(0);
    expect(sortedIncludes([], 5)).toBe(false);
  });

  it('look only at the first n entries when told (a buffer filled part way)', () => {
    const buffer = Int32Array.of(1, 5, 9, 0, 0, 0);
    expect(countBelow(buffer, 100, 3)).toBe(3);
    expect(countAtMost(buffer, 5, 3)).toBe(2);
    expect(countBelow(buffer, 100, 0)).toBe(0);
  });

  it('agree with a linear scan, partitionPoint and the former hand-written search on random arrays', () => {
    const random = createRandom(28);
    for (let round = 0; round < 200; round++) {
      const length = random.int(0, 40);
      const sorted: number[] = [];
      for (let i = 0, at = random.int(-5, 5); i < length; i++, at += random.int(0, 3)) sorted.push(at);
      const n = random.chance(0.3) ? random.int(0, length) : length;
      const values: number[] = [];
      for (let value = -8; value <= (sorted[length - 1] ?? 0) + 3; value++) values.push(value);
      const head = sorted.slice(0, n);
      const searched = values.map((value) => [
        countBelow(sorted, value, n),
        countAtMost(sorted, value, n),
        partitionPoint(n, (i) => sorted[i]! < value),
        Math.max(0, countAtMost(sorted, value) - 1),
        sortedIncludes(sorted, value),
      ]);
      const scanned = values.map((value) => [
        head.filter((v) => v < value).length,
        head.filter((v) => v <= value).length,
        head.filter((v) => v < value).length,
        lastAtOrBeforeByHand(sorted, value),
        sorted.includes(value),
      ]);
      expect(searched).toEqual(scanned);
    }
  });
});

describe('partitionPoint', () => {
  it('searches any predicate over a range, true on a prefix', () => {
    const pairs: [number, number][] = [
      [1, 10],
      [4, 40],
      [4, 41],
      [9, 90],
    ];
    expect(partitionPoint(pairs.length, (i) => pairs[i]![0] < 4)).toBe(1);
    expect(partitionPoint(pairs.length, (i) => pairs[i]![0] <= 4)).toBe(3);
    expect(partitionPoint(pairs.length, () => false)).toBe(0);
    expect(partitionPoint(pairs.length, () => true)).toBe(4);
  });
});
