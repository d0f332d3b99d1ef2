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
