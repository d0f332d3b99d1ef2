/**
 * Describing: turning a DOM Range (usually the curator's selection) into the
 * W3C selectors stored with a claim — TextQuoteSelector (exact + 32
 * characters of context each side) and TextPositionSelector — over the same
 * rendered-text model the anchorer searches.
 */
import type { Position, Quote } from '../schema';
import { buildTextIndex, offsetsOfRange, trimOffsets, type TextIndex } from './text-index';

/** Characters of prefix/suffix context captured on each side of a quote. */
export const CONTEXT_LENGTH = 32;

/** Selectors describing one passage: its quote with context, and its offsets in the normalised text. */
export interface PassageSelectors {
  quote: Quote;
  position: Position;
}

/** The document a range lives in, used as the default root. */
function defaultRoot(range: Range): Document | Element {
  const c = range.startContainer;
  return c.nodeType === 9 ? (c as Document) : (c.ownerDocument as Document);
}

/** Describes a Range as stored selectors (quote with 32-character context, position) over the rendered text of `root` (default: the range's document). */
export function describe(range: Range, root?: Document | Element, index?: TextIndex): PassageSelectors {
  // `quote.exact` comes back empty when the range covers no visible text;
  // callers should reject such a selection.
  const idx = index ?? buildTextIndex(root ?? defaultRoot(range));
  const raw = offsetsOfRange(range, idx);
  const { start, end } = trimOffsets(idx.text, raw.start, raw.end);
  return selectorsAt(idx.text, start, end);
}

/** The selectors of the passage at `[start, end)` of a rendered text: its quote with 32-character context, and its position. */
export function selectorsAt(text: string, start: number, end: number): PassageSelectors {
  return {
    quote: {
      exact: text.slice(start, end),
      prefix: text.slice(Math.max(0, start - CONTEXT_LENGTH), start),
      suffix: text.slice(end, end + CONTEXT_LENGTH),
    },
    position: { start, end },
  };
}
