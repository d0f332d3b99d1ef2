// Deterministic pseudo-random numbers for the benchmark corpus (mulberry32-style 32-bit mixer).

/**
 * A seeded generator: the same seed always yields the same sequence, in Node
 * and in the browser alike.
 * @param {number} seed
 */
export function createRandom(seed) {
  let state = seed >>> 0;
  /** Next float in [0, 1). */
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    /** Integer in [lo, hi]. */
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    /** One element of a non-empty array. */
    pick: (list) => list[Math.floor(next() * list.length)],
    /** True with probability p. */
    chance: (p) => next() < p,
  };
}
