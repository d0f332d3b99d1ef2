/**
 * Text-fragment links (`#:~:text=`, WICG Text Fragments): a URL that reopens
 * a page scrolled to a quoted passage. Pure: uses only `Intl.Segmenter`, no
 * DOM, no browser APIs.
 *
 * How the directive is built:
 * - The passage (`quote.exact`, white space collapsed) is first widened to
 *   whole words: browsers only match a directive at word boundaries, so a
 *   selection that starts or ends inside a word takes in the rest of that
 *   word from the prefix / suffix. Word boundaries are `Intl.Segmenter`'s
 *   (ICU's, as in the browser), so CJK text is cut between words, not
 *   between arbitrary characters.
 * - A passage longer than 300 characters becomes `textStart,textEnd`: whole
 *   words from each end, at least 40 characters each, textEnd widened while
 *   it also occurs earlier inside the passage (else the match would stop
 *   short); when the two would meet, the whole passage is used.
 * - Context (`prefix-,` and `,-suffix`) is added only when needed: with
 *   `pageText`, when the passage is not the first and only match of the
 *   directive in that text (or not found in it at all); without `pageText`,
 *   when the passage is shorter than 20 characters. Context is whole words
 *   taken from the edge next to the passage, at most about 30 characters
 *   (at least one word); when the stored context is 32 characters or more it
 *   was probably cut from longer text, so its far word is dropped as partial.
 * - Each part is percent-encoded with `encodeURIComponent`, plus `-` as
 *   `%2D` (the spec requires `&`, `,` and `-` encoded; encoding more is
 *   allowed). Any existing `:~:` directive in the URL is replaced; another
 *   fragment is kept before it.
 */

/** The W3C TextQuoteSelector fields a link is built from. */
export interface QuoteParts {
  exact: string;
  prefix?: string;
  suffix?: string;
}

const LONG = 300;
const EDGE = 40;
const CONTEXT = 30;
const SHORT = 20;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

interface Segment {
  text: string;
  start: number;
  end: number;
  word: boolean;
}

function segments(text: string): Segment[] {
  return [...segmenter.segment(text)].map((s) => ({
    text: s.segment,
    start: s.index,
    end: s.index + s.segment.length,
    word: s.isWordLike ?? false,
  }));
}

/** White space other than a single space: the only text `collapse` changes. */
const UNCOLLAPSED = /[^\S ]| {2}/;

/** Runs of white space as one space (text without any comes back as it is, uncopied). */
function collapse(text: string): string {
  return UNCOLLAPSED.test(text) ? text.replace(/\s+/g, ' ') : text;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Replaces lone surrogates with U+FFFD so encoding cannot throw (text without surrogates comes back as it is). */
function wellFormed(text: string): string {
  if (!SURROGATE.test(text)) return text;
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Percent-encodes one text-directive part: `encodeURIComponent` plus `-` → `%2D`. */
export function encodeTextDirectivePart(text: string): string {
  return encodeURIComponent(wellFormed(text)).replace(/-/g, '%2D');
}

/**
 * The word segment of `text` that holds code unit `index` (0 ≤ index < text.length): its start and end.
 * ICU finds the boundaries on either side of `index` without segmenting the whole text, and they are
 * the boundaries a walk over every segment would meet. (Exported for its tests.)
 */
export function segmentAt(text: string, index: number): { start: number; end: number } {
  const seg = segmenter.segment(text).containing(index)!;
  return { start: seg.index, end: seg.index + seg.segment.length };
}

/** True when `index` is a word boundary of `text` (or its start or end). */
function isBoundary(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return true;
  return segmentAt(text, index).start === index;
}

/** Widens the passage to whole words using the context on either side. */
function widen(prefix: string, exact: string, suffix: string): { prefix: string; exact: string; suffix: string } {
  let p = prefix;
  let e = exact;
  let s = suffix;
  if (p !== '' && !/\s$/.test(p) && !/^\s/.test(e)) {
    const joined = p + e;
    if (!isBoundary(joined, p.length)) {
      // The passage starts inside a word: take in that word's start (the segment holding the passage's first character).
      const cut = segmentAt(joined, p.length).start;
      e = joined.slice(cut);
      p = p.slice(0, cut);
    }
  }
  if (s !== '' && !/^\s/.test(s) && !/\s$/.test(e)) {
    const joined = e + s;
    if (!isBoundary(joined, e.length)) {
      // The passage ends inside a word: take in the rest of it (the segment holding the suffix's first character).
      const cut = segmentAt(joined, e.length).end;
      s = joined.slice(cut);
      e = joined.slice(0, cut);
    }
  }
  return { prefix: p, exact: e, suffix: s };
}

/** Whole words from the start of `text`, at least `min` characters (all of it when shorter). */
function leadingWords(text: string, min: number): string {
  let end = 0;
  for (const seg of segments(text)) {
    end = seg.end;
    if (seg.word && text.slice(0, end).trim().length >= min) break;
  }
  return text.slice(0, end).trim();
}

/** Whole words from the end of `text`, at least `min` characters (all of it when shorter). */
function trailingWords(text: string, min: number): string {
  let start = text.length;
  for (const seg of segments(text).reverse()) {
    start = seg.start;
    if (seg.word && text.slice(start).trim().length >= min) break;
  }
  return text.slice(start).trim();
}

/** Stored context at least this long was probably cut from longer text, so its far word may be partial. */
const CUT_CONTEXT = 32;

/** The context next to the passage: whole words from the passage's side, about `max` characters, a cut-off far word dropped. */
function contextWords(context: string, side: 'before' | 'after', max: number, cut: boolean): string {
  let segs = segments(context);
  if (side === 'before') segs.reverse();
  // segs now run from the passage outwards.
  if (cut && segs.length > 1 && segs[segs.length - 1]!.word) segs = segs.slice(0, -1);
  const chosen: Segment[] = [];
  let words = 0;
  let length = 0;
  for (const seg of segs) {
    if (words > 0 && length + seg.text.length > max) break;
    chosen.push(seg);
    length += seg.text.length;
    if (seg.word) words += 1;
  }
  // Never end the context on white space or punctuation at its far edge.
  while (chosen.length > 0 && !chosen[chosen.length - 1]!.word) chosen.pop();
  if (words === 0 || chosen.length === 0) return '';
  if (side === 'before') chosen.reverse();
  return chosen
    .map((seg) => seg.text)
    .join('')
    .trim();
}

function occurrences(haystack: string, needle: string): number[] {
  const out: number[] = [];
  if (needle === '') return out;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** Where a context-free directive would land in `page`: [start, end) of its first match, or null. */
function firstMatch(page: string, start: string, end: string | null): [number, number] | null {
  const i = page.indexOf(start);
  if (i === -1) return null;
  if (end === null) return [i, i + start.length];
  const j = page.indexOf(end, i + start.length);
  return j === -1 ? null : [i, j + end.length];
}

/**
 * A link to `url` that scrolls to and highlights the quoted passage, per the
 * Text Fragments spec (see the module comment for every rule).
 */
export function textFragmentLink(url: string, quote: QuoteParts, pageText?: string): string {
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  let fragment = hash === -1 ? '' : url.slice(hash + 1);
  const directive = fragment.indexOf(':~:');
  if (directive !== -1) fragment = fragment.slice(0, directive);

  const storedPrefix = collapse(quote.prefix ?? '');
  const storedSuffix = collapse(quote.suffix ?? '');
  const widened = widen(storedPrefix, collapse(quote.exact), storedSuffix);
  const exact = widened.exact.trim();

  let start = exact;
  let end: string | null = null;
  if (exact.length > LONG) {
    const head = leadingWords(exact, EDGE);
    let tail = trailingWords(exact, EDGE);
    // Widen textEnd while it also occurs earlier in the passage (the match would stop there).
    for (let min = EDGE; exact.indexOf(tail, head.length) !== exact.length - tail.length; ) {
      min += EDGE;
      tail = trailingWords(exact, min);
      if (tail.length + head.length >= exact.length) break;
    }
    if (head.length + tail.length < exact.length && exact.indexOf(tail, head.length) === exact.length - tail.length) {
      start = head;
      end = tail;
    }
  }

  let needContext: boolean;
  if (pageText !== undefined) {
    const page = collapse(pageText);
    const found = occurrences(page, exact);
    const match = firstMatch(page, start, end);
    needContext = found.length !== 1 || match === null || match[0] !== found[0] || match[1] !== found[0]! + exact.length;
  } else {
    needContext = exact.length < SHORT;
  }

  const parts: string[] = [];
  const prefix = needContext ? contextWords(widened.prefix, 'before', CONTEXT, storedPrefix.length >= CUT_CONTEXT) : '';
  const suffix = needContext ? contextWords(widened.suffix, 'after', CONTEXT, storedSuffix.length >= CUT_CONTEXT) : '';
  if (prefix) parts.push(`${encodeTextDirectivePart(prefix)}-`);
  parts.push(encodeTextDirectivePart(start));
  if (end !== null) parts.push(encodeTextDirectivePart(end));
  if (suffix) parts.push(`-${encodeTextDirectivePart(suffix)}`);
  return `${base}#${fragment}:~:text=${parts.join(',')}`;
}
