/**
 * Landmarks: passages already placed on the page, as (stored position →
 * found position) pairs. The text around a passage still to be placed has
 * moved about as far as its placed neighbours did, so they tell where to
 * expect it: one estimate from the nearest landmark before it and one from
 * the nearest after it (an edit between two neighbours moves one of them and
 * not the other; a moved block moves both).
 */
import { partitionPoint } from '../sorted';
import type { AnchorResult, Neighbour, PreparedSelectors } from './types';

export type { Neighbour } from './types';

/** An exact result at least this confident is a landmark. */
export const EXACT_LANDMARK = 0.9;
/** An approximate result at least this confident is a landmark too (for the passages placed after it). */
export const APPROXIMATE_LANDMARK = 0.5;

/** Placed passages, by stored position. */
export class Landmarks {
  private readonly pairs: Array<[number, number]> = [];
  private sorted = true;

  /** How many landmarks there are. */
  get size(): number {
    return this.pairs.length;
  }

  /** Records a placed passage: exact ones at EXACT_LANDMARK confidence or more, approximate ones at APPROXIMATE_LANDMARK or more; only with a stored position. */
  add(prepared: PreparedSelectors, result: AnchorResult): void {
    if (prepared.hint === null || result.status !== 'anchored') return;
    if (result.confidence < (result.exact ? EXACT_LANDMARK : APPROXIMATE_LANDMARK)) return;
    this.pairs.push([prepared.hint, result.start]);
    this.sorted = false;
  }

  /** The nearest landmarks before and after a stored position (the same pair twice when they are equally near). */
  neighboursOf(hint: number): Neighbour[] {
    if (this.pairs.length === 0) return [];
    if (!this.sorted) {
      this.pairs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      this.sorted = true;
    }
    const pairs = this.pairs;
    const lo = partitionPoint(pairs.length, (i) => (pairs[i] as [number, number])[0] < hint);
    const out: Neighbour[] = [];
    const before = this.pairs[lo - 1];
    const after = this.pairs[lo];
    if (before) out.push({ shift: before[1] - before[0], gap: hint - before[0], side: 'before', found: before[1] });
    if (after) out.push({ shift: after[1] - after[0], gap: after[0] - hint, side: 'after', found: after[1] });
    // Nearest first.
    return out.sort((a, b) => a.gap - b.gap);
  }

  /** Sets a passage's expected place from its neighbours (the nearest one also as `shift`); returns it. */
  correct(prepared: PreparedSelectors): PreparedSelectors {
    const hint = prepared.hint;
    if (hint === null || this.pairs.length === 0) return prepared;
    const neighbours = this.neighboursOf(hint);
    const nearest = neighbours[0] as Neighbour;
    prepared.shift = nearest.shift;
    prepared.corrected = true;
    prepared.gap = nearest.gap;
    prepared.neighbours = neighbours;
    return prepared;
  }
}
