/** A seeded pseudo-random generator (see prng.mjs). */
export interface Random {
  /** Next float in [0, 1). */
  next(): number;
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  /** One element of a non-empty array. */
  pick<T>(list: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
}

/** A seeded generator: the same seed always yields the same sequence. */
export declare function createRandom(seed: number): Random;
