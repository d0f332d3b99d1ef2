/**
 * Sentence boundaries in collapsed page text, found locally around a
 * position (the finder never splits a whole page).
 *
 * English: ".", "!", "?" or ";" followed by white space (a lower-case next
 * word only after a point that ends a real word: names like "slime" and
 * "verl" start sentences in lower case); not after abbreviations ("e.g.", "i.e.",
 * "et al.", "Fig.", "vs."), initials ("J. Smith") or list numbers ("1. ");
 * decimals and versions ("Qwen3.5", "0.6") have no space after the point and
 * never split. Chinese: "。", "！", "？", "；" (closing quotes stay with their
 * sentence). A blank line (PDF text) also ends a sentence. Collapsed list
 * items and table rows have no punctuation, so a "sentence" is capped at
 * {@link MAX_SENTENCE} characters around the mention that asked for it.
 */

import { countBelow } from '../sorted';

/** Longest span a candidate sentence may have. */
export const MAX_SENTENCE = 400;
/** How far before a mention a capped sentence starts when no boundary is near. */
const LEAD = 150;

/** Words whose trailing point does not end a sentence (lower-cased, without the point). */
const ABBREVIATIONS = new Set(
  (
    'e.g i.e eg ie al fig figs eq eqs sec secs sect tab vs cf no nos vol vols approx ca dr mr mrs ms prof resp ' +
    'ref refs ch pp p st jr sr incl esp viz a.k.a aka w.r.t wrt cit op ed eds est approx avg dept univ u.s'
  ).split(' '),
);

/**
 * A number for a short token made of ASCII letters (case folded) and points,
 * so abbreviations are looked up without building strings; -1 for other tokens.
 */
function abbreviationKey(text: string, from: number, to: number): number {
  if (to - from > 6) return -1;
  let key = 0;
  for (let k = from; k < to; k++) {
    let c = text.charCodeAt(k);
    if (c >= 65 && c <= 90) c += 32;
    let v: number;
    if (c >= 97 && c <= 122) v = c - 96;
    else if (c === 46) v = 27;
    else return -1;
    key = key * 32 + v;
  }
  return key;
}

function keyOf(word: string): number {
  return abbreviationKey(word, 0, word.length);
}

const ABBREVIATION_KEYS = new Set([...ABBREVIATIONS].map(keyOf).filter((k) => k !== -1));
const ETC_KEY = keyOf('etc');

/** 。！？； */
function isCjkEnd(c: number): boolean {
  return c === 0x3002 || c === 0xff01 || c === 0xff1f || c === 0xff1b;
}

/** Closing quotes and brackets that stay with their sentence: " ' ” ’ ) ] ） 」 』 》 】 */
function isCloser(c: number): boolean {
  return (
    c === 34 || c === 39 || c === 41 || c === 93 || c === 0x201d || c === 0x2019 || c === 0xff09 || c === 0x300d || c === 0x300f || c === 0x300b || c === 0x3011
  );
}

const OPENERS = new Set([40, 91, 34, 39, 0x201c, 0x2018]);

/** The characters that may end a sentence: . ! ? ; newline 。！？； */
export const MAY_END_CODES: readonly number[] = [46, 33, 63, 59, 10, 0x3002, 0xff01, 0xff1f, 0xff1b];
/** MAY_END[c] = 1 for a character that may end a sentence (the cheap test before {@link boundaryAfter}). */
export const MAY_END = new Uint8Array(65536);
for (const c of MAY_END_CODES) MAY_END[c] = 1;

/** Whether text[from, to) is all ASCII digits. */
function isDigits(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 160 || c === 0x3000;
}

/** Whether the code unit at `p` is a lower-case letter (false past the end). */
function isLowerAt(text: string, p: number): boolean {
  const c = text.charCodeAt(p);
  if (c < 128) return c >= 97 && c <= 122;
  if (Number.isNaN(c)) return false;
  const ch = String.fromCharCode(c);
  return ch !== ch.toUpperCase() && ch === ch.toLowerCase();
}

/**
 * If a sentence ends with the character at `p`, the offset where the next
 * sentence starts (after closing quotes and white space); otherwise -1.
 */
export function boundaryAfter(text: string, p: number): number {
  const n = text.length;
  if (p < 0 || p >= n) return -1;
  const ch = text.charCodeAt(p);
  if (isCjkEnd(ch)) {
    let q = p + 1;
    while (q < n && isCloser(text.charCodeAt(q))) q++;
    while (q < n && isSpace(text.charCodeAt(q))) q++;
    return q;
  }
  if (ch === 10) {
    // A blank line.
    let q = p + 1;
    while (q < n) {
      const c = text.charCodeAt(q);
      if (c !== 32 && c !== 9 && c !== 13) break;
      q++;
    }
    if (text.charCodeAt(q) !== 10) return -1;
    while (q < n && isSpace(text.charCodeAt(q))) q++;
    return q;
  }
  // . ! ? ;
  if (ch !== 46 && ch !== 33 && ch !== 63 && ch !== 59) return -1;
  let q = p + 1;
  while (q < n && isCloser(text.charCodeAt(q))) q++;
  if (q < n && !isSpace(text.charCodeAt(q))) return -1;
  while (q < n && isSpace(text.charCodeAt(q))) q++;
  if (ch === 59) return q;
  if (ch === 46) {
    // Fast path: a lower-case ASCII word of 7+ letters before the point is no abbreviation.
    let k = p - 1;
    while (k >= 0 && p - k <= 7) {
      const c = text.charCodeAt(k);
      if (c < 97 || c > 122) break;
      k--;
    }
    if (p - k > 7) return q;
    // The token before the point, without opening brackets or quotes.
    let b = p;
    while (b > 0 && !isSpace(text.charCodeAt(b - 1)) && p - b < 24) b--;
    const atWordStart = b === 0 || isSpace(text.charCodeAt(b - 1));
    while (b < p && OPENERS.has(text.charCodeAt(b))) b++;
    const len = p - b;
    if (len === 0) return q;
    const key = abbreviationKey(text, b, p);
    if (key !== -1 && ABBREVIATION_KEYS.has(key)) return -1;
    const first = text.charCodeAt(b);
    if (len === 1 && first >= 65 && first <= 90) return -1; // an initial
    // "2. Model Summary" (a list number), but not "… in Table 1. For most …" (a number ending a sentence).
    if (len <= 2 && atWordStart && isDigits(text, b, p) && !afterWord(text, b)) return -1;
    if (len >= 3 && len <= 12 && text.charCodeAt(b + 1) === 46 && /^(?:\p{L}\.)+\p{L}$/u.test(text.slice(b, p))) return -1; // "U.S", "a.k.a"
    // Lower case after a point: only after a real word ("… engines. slime instead …"), not "etc. and".
    if (isLowerAt(text, q) && (key === ETC_KEY || !/^[\p{L}\d'’-]{3,}[)\]”’"']*$/u.test(text.slice(b, p)))) return -1;
  } else if (isLowerAt(text, q)) {
    return -1;
  }
  return q;
}

/** Whether the sentence goes on right before offset `at` ("in Table 1.", "set γ = 1."): the number is part of it, not a list number. */
function afterWord(text: string, at: number): boolean {
  let p = at - 1;
  while (p >= 0 && isSpace(text.charCodeAt(p))) p--;
  return p >= 0 && !/[.!?:;。！？；：)\]]/.test(text[p] as string);
}

/** Offsets of the characters of a text that may end a sentence (see {@link MAY_END}), ascending. */
export interface Stops {
  /** The offsets (the first `count` entries are used). */
  at: Int32Array;
  /** How many offsets. */
  count: number;
}

/**
 * The sentence around the mention [`from`, `to`): its start and end offsets
 * (trimmed), never starting before `floor`, capped at {@link MAX_SENTENCE};
 * `capped` tells that a side had no sentence boundary (a run-on). With
 * `stops` (collected by the finder's scan), only those offsets are tested
 * instead of every character. `breaks` (ascending offsets, e.g. a PDF's
 * heading ends) are sentence boundaries too: a sentence never runs across one.
 */
export function sentenceAround(
  text: string,
  from: number,
  to: number,
  floor = 0,
  stops?: Stops,
  breaks?: ArrayLike<number>,
): { start: number; end: number; capped: boolean } {
  return spanAround(text, from, to, floor, stops, breaks, { start: 0, end: 0, capped: false });
}

/** A sentence's span, as {@link sentenceAround} gives it. */
export interface Span {
  /** Start offset (trimmed). */
  start: number;
  /** End offset (exclusive, trimmed). */
  end: number;
  /** A side had no sentence boundary (a run-on). */
  capped: boolean;
}

/** {@link sentenceAround} written into `out` (the finder's scratch: no object per sentence); returns `out`. */
export function spanAround(
  text: string,
  from: number,
  to: number,
  floor: number,
  stops: Stops | undefined,
  breaks: ArrayLike<number> | undefined,
  out: Span,
): Span {
  let n = text.length;
  let breakFloor = -1;
  if (breaks && breaks.length) {
    const k = countBelow(breaks, from + 1);
    const before = k > 0 ? (breaks[k - 1] as number) : -1;
    if (before >= 0) {
      if (before > floor) floor = before;
      // The floor (a previous sentence's end) right at a break starts a sentence cleanly too.
      let p = before;
      while (p < floor && isSpace(text.charCodeAt(p))) p++;
      if (p >= floor) breakFloor = floor;
    }
    const after = countBelow(breaks, to);
    if (after < breaks.length) n = Math.max(to, Math.min(n, breaks[after] as number));
  }
  const whole = text.length;
  // Backwards: the nearest boundary before the mention.
  let start = -1;
  let startsClean = true;
  const lo = Math.max(floor, from - (MAX_SENTENCE - (to - from)));
  if (stops) {
    for (let k = countBelow(stops.at, from, stops.count) - 1; k >= 0; k--) {
      const p = stops.at[k] as number;
      if (p < lo) break;
      const next = boundaryAfter(text, p);
      if (next !== -1 && next <= from) {
        start = next;
        break;
      }
    }
  } else {
    for (let p = from - 1; p >= lo; p--) {
      // Cheap filter before the full test.
      if (MAY_END[text.charCodeAt(p)] === 0) continue;
      const next = boundaryAfter(text, p);
      if (next !== -1 && next <= from) {
        start = next;
        break;
      }
    }
  }
  if (start === -1) {
    if (lo <= floor) {
      start = floor;
      startsClean = floor === 0 || floor === breakFloor || endsSentence(text, floor);
    } else {
      start = wordStart(text, Math.max(floor, from - LEAD), from);
      startsClean = false;
    }
  }
  while (start < from && isSpace(text.charCodeAt(start))) start++;
  // Forwards: the first boundary after the mention (a break ends the sentence cleanly).
  let end = firstBoundary(text, Math.max(to - 1, start), Math.min(n, start + MAX_SENTENCE), stops);
  let endsClean = true;
  if (end === -1) {
    // A run-on: keep the mention near the front of a capped window.
    if (from - start > LEAD) {
      start = wordStart(text, from - LEAD, from);
      startsClean = false;
    }
    const hi = Math.min(n, start + MAX_SENTENCE);
    end = firstBoundary(text, Math.max(to - 1, start), hi, stops);
    if (end === -1) {
      end = hi < n ? wordEnd(text, hi, to) : n;
      endsClean = end === n;
    }
  }
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  out.start = start;
  out.end = Math.max(end, Math.min(to, whole));
  out.capped = !startsClean || !endsClean;
  return out;
}

/** Whether a sentence ends just before `at` (ignoring white space). */
function endsSentence(text: string, at: number): boolean {
  let p = at - 1;
  while (p >= 0 && isSpace(text.charCodeAt(p))) p--;
  while (p >= 0 && isCloser(text.charCodeAt(p))) p--;
  return p < 0 || boundaryAfter(text, p) !== -1;
}

/** The end (after closing quotes) of the first sentence ending in [`from`, `hi`), or -1. */
function firstBoundary(text: string, from: number, hi: number, stops?: Stops): number {
  if (stops) {
    for (let k = countBelow(stops.at, from, stops.count); k < stops.count; k++) {
      const p = stops.at[k] as number;
      if (p >= hi) break;
      if (boundaryAfter(text, p) !== -1) return endAfterClosers(text, p);
    }
    return -1;
  }
  for (let p = from; p < hi; p++) {
    if (MAY_END[text.charCodeAt(p)] === 0) continue;
    if (boundaryAfter(text, p) !== -1) return endAfterClosers(text, p);
  }
  return -1;
}

/** The offset after the terminator at `p` and any closing quotes or brackets. */
function endAfterClosers(text: string, p: number): number {
  let end = p + 1;
  while (end < text.length && isCloser(text.charCodeAt(end))) end++;
  return end;
}

/** `at` moved forward to the start of a word (at most 30 characters, never past `limit`; CJK text has no spaces). */
function wordStart(text: string, at: number, limit: number): number {
  for (let p = at; p < Math.min(limit, at + 30); p++) if (p === 0 || isSpace(text.charCodeAt(p - 1))) return p;
  return at;
}

/** `at` moved back to the end of a word (at most 30 characters, never before `limit`). */
function wordEnd(text: string, at: number, limit: number): number {
  for (let p = at; p > Math.max(limit, at - 30); p--) if (isSpace(text.charCodeAt(p))) return p;
  return at;
}

/** Splits a whole text into sentences (offsets and text) with the finder's rules; long run-ons are cut at {@link MAX_SENTENCE}. */
export function splitSentences(text: string): Array<{ start: number; end: number; text: string }> {
  const out: Array<{ start: number; end: number; text: string }> = [];
  let at = 0;
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  while (at < text.length) {
    const { start, end } = sentenceAround(text, at, Math.min(at + 1, text.length), at);
    if (end <= start) break;
    out.push({ start, end, text: text.slice(start, end) });
    at = end;
    while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  }
  return out;
}
