/**
 * How much of a quote's wording survives in a stretch of page text, at the
 * level of words: the longest common subsequence of the two word lists
 * (punctuation marks and CJK characters count as words of their own),
 * weighted by word length. Edit distance punishes a reworded sentence for
 * every inserted character, so a sentence that kept its words but gained a
 * clause looks as far from its old self as unrelated text does; the words it
 * kept, in order, tell them apart. Matches that are coincidences (a lone
 * "the" or "a" between unrelated words) are not counted.
 */

/** A word of a text: its comparison form and its [start, end) offsets. */
interface Word {
  key: string;
  start: number;
  end: number;
}

/** A word, a single punctuation mark or symbol, or a single CJK character. */
const WORD_RE = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]|[^\s\p{P}\p{S}\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]+|[\p{P}\p{S}]/gu;

/** A matched word shorter than this counts only inside a run of at least two matched words. */
const LONE_WORD_MIN = 4;

/** Most words of a quote and of a text stretch compared (bounds the work to about 120 × 240 cells). */
const MAX_QUOTE_WORDS = 120;
const MAX_TEXT_WORDS = 240;

/** The words of `text[from, to)`, lower-cased for comparison, with their offsets in `text`. */
function wordsOf(text: string, from: number, to: number): Word[] {
  const out: Word[] = [];
  const slice = text.slice(from, to);
  WORD_RE.lastIndex = 0;
  for (let m = WORD_RE.exec(slice); m; m = WORD_RE.exec(slice)) {
    out.push({ key: m[0].toLowerCase(), start: from + m.index, end: from + m.index + m[0].length });
  }
  return out;
}

/** How a quote's words were found in a stretch of text. */
export interface WordOverlap {
  /** Share of the quote's word characters found, in order, in the stretch (coincidental lone short words left out). */
  kept: number;
  /**
   * Kept characters against the size of both sides, 2·kept / (quote + the
   * text spanned by the matches): high only when the quote's words are found
   * close together, not scattered over a long stretch.
   */
  similarity: number;
  /** The stretch from the first to the last matched word (offsets of the searched text), or null when nothing matched. */
  start: number | null;
  end: number | null;
}

/** The words of a quote, split once and compared with many stretches of text. */
export class QuoteWords {
  readonly words: readonly Word[];
  readonly total: number;
  constructor(quote: string) {
    this.words = wordsOf(quote, 0, quote.length).slice(0, MAX_QUOTE_WORDS);
    this.total = this.words.reduce((n, w) => n + w.key.length, 0);
  }
}

/** Scratch table reused by `wordOverlap` (grown on demand). */
let table = new Float64Array(4096);

/** The word overlap of a quote (its text, or its words split once) with `text[from, to)`. */
export function wordOverlap(quote: string | QuoteWords, text: string, from: number, to: number): WordOverlap {
  const q = typeof quote === 'string' ? new QuoteWords(quote) : quote;
  const a = q.words;
  const total = q.total;
  const b = wordsOf(text, Math.max(0, from), Math.min(text.length, to)).slice(0, MAX_TEXT_WORDS);
  const none: WordOverlap = { kept: 0, similarity: 0, start: null, end: null };
  if (total === 0 || b.length === 0) return none;
  // Weighted LCS table, (a.length + 1) × (b.length + 1), row-major.
  const cols = b.length + 1;
  const cells = (a.length + 1) * cols;
  if (table.length < cells) table = new Float64Array(cells);
  const dp = table;
  dp.fill(0, 0, cells);
  for (let i = 1; i <= a.length; i++) {
    const ka = (a[i - 1] as Word).key;
    for (let j = 1; j <= b.length; j++) {
      const diag = ka === (b[j - 1] as Word).key ? (dp[(i - 1) * cols + j - 1] as number) + ka.length : 0;
      const up = dp[(i - 1) * cols + j] as number;
      const left = dp[i * cols + j - 1] as number;
      dp[i * cols + j] = diag > up && diag > left ? diag : up > left ? up : left;
    }
  }
  // Walk back to the matched pairs (in reverse order).
  const pairs: Array<[number, number]> = [];
  for (let i = a.length, j = b.length; i > 0 && j > 0; ) {
    const here = dp[i * cols + j] as number;
    const ka = (a[i - 1] as Word).key;
    if (ka === (b[j - 1] as Word).key && here === (dp[(i - 1) * cols + j - 1] as number) + ka.length) {
      pairs.push([i - 1, j - 1]);
      i--;
      j--;
    } else if (here === (dp[(i - 1) * cols + j] as number)) i--;
    else j--;
  }
  pairs.reverse();
  // Keep a match when its word is long enough to mean something alone, or when it has a matched neighbour on both sides' lists.
  const kept = pairs.filter(([i, j], x) => {
    if ((a[i] as Word).key.length >= LONE_WORD_MIN) return true;
    const prev = pairs[x - 1];
    const next = pairs[x + 1];
    return (prev !== undefined && prev[0] === i - 1 && prev[1] === j - 1) || (next !== undefined && next[0] === i + 1 && next[1] === j + 1);
  });
  if (kept.length === 0) return none;
  const keptChars = kept.reduce((n, [i]) => n + (a[i] as Word).key.length, 0);
  const first = (kept[0] as [number, number])[1];
  const last = (kept[kept.length - 1] as [number, number])[1];
  let spanned = 0;
  for (let j = first; j <= last; j++) spanned += (b[j] as Word).key.length;
  return {
    kept: keptChars / total,
    similarity: (2 * keptChars) / (total + spanned),
    start: (b[first] as Word).start,
    end: (b[last] as Word).end,
  };
}
