/**
 * Scoring helpers shared by exact and approximate anchoring: how well the
 * stored prefix/suffix agree with the text around a candidate, and how close
 * a candidate is to the stored position hint.
 */
import { similarity } from './myers';

/** Stored context, already whitespace-collapsed and folded for comparison. */
export interface FoldedContext {
  prefix: string;
  suffix: string;
}

/** Agreement in [0,1] of the stored prefix/suffix with the folded text around [start, end); null when none is stored. */
export function contextAgreement(folded: string, start: number, end: number, ctx: FoldedContext): number | null {
  const sides: number[] = [];
  if (ctx.prefix.length > 0) {
    sides.push(similarity(ctx.prefix, folded.slice(Math.max(0, start - ctx.prefix.length), start)));
  }
  if (ctx.suffix.length > 0) {
    sides.push(similarity(ctx.suffix, folded.slice(end, end + ctx.suffix.length)));
  }
  if (sides.length === 0) return null;
  return sides.reduce((a, b) => a + b, 0) / sides.length;
}

/** Closeness in (0,1] of a candidate start to the position hint; the scale grows with the quote length. */
export function proximity(start: number, hint: number, quoteLength: number): number {
  const scale = Math.max(256, 2 * quoteLength);
  return 1 / (1 + Math.abs(start - hint) / scale);
}

/** Agreement of each side of the stored context with the text around [start, end): prefix and suffix similarity, null for a side not stored. */
export function sideAgreement(folded: string, start: number, end: number, ctx: FoldedContext): { prefix: number | null; suffix: number | null } {
  return {
    prefix: ctx.prefix.length > 0 ? similarity(ctx.prefix, folded.slice(Math.max(0, start - ctx.prefix.length), start)) : null,
    suffix: ctx.suffix.length > 0 ? similarity(ctx.suffix, folded.slice(end, end + ctx.suffix.length)) : null,
  };
}

/** A side whose similarity reaches this is taken as unchanged. */
export const SIDE_INTACT = 0.95;

/**
 * One agreement figure from both sides. An edit right before or after a
 * passage changes one side only and leaves the other verbatim, while a chance
 * occurrence elsewhere rarely keeps either side verbatim: so a place with an
 * intact side scores at least 0.75 (more as the other side agrees too), and
 * a place with none is capped at 0.75 of its average-like agreement. Null
 * when no context is stored.
 */
export function combineSides(sides: { prefix: number | null; suffix: number | null }): number | null {
  const { prefix, suffix } = sides;
  if (prefix === null && suffix === null) return null;
  if (prefix === null || suffix === null) {
    const one = (prefix ?? suffix) as number;
    return one >= SIDE_INTACT ? one : 0.75 * one;
  }
  const hi = Math.max(prefix, suffix);
  const lo = Math.min(prefix, suffix);
  return hi >= SIDE_INTACT ? 0.75 + 0.25 * lo : 0.75 * (0.6 * hi + 0.4 * lo);
}
