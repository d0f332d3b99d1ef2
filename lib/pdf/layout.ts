/**
 * How a PDF's text runs read as body text: which lines are page furniture
 * (running headers, footers, page numbers, stamps in the margins), which
 * line-end hyphens are dropped or kept when the word is joined again, where
 * a heading line ends (a sentence boundary that has no punctuation), and
 * small capitals in their displayed case. Pure: works on the runs pdf.js
 * reports (string, line end and, when known, transform and width).
 *
 * Furniture is found by position and repetition, never by its words. A
 * row of text at the top or bottom edge of a page that stands apart from the
 * rest of the page by a gap of almost two line pitches (a heading sits closer
 * to its text) is a candidate; it is furniture when the same row (text with
 * digits ignored) comes back at the same height on several pages (running
 * headers, footers, page numbers), or when it lies outside the text block
 * (a date or venue stamp on the first page, in type no larger than the
 * body's: a title is never furniture). The text block is where lines
 * of the body's type size sit on most pages (the tenth and ninetieth
 * percentiles of each page's highest and lowest body line, edge candidates
 * left out). A rotated line beside the block (arXiv's stamp) is furniture too.
 *
 * A line-end hyphen before a lower-case letter is decided by the document's
 * own words: the hyphenated form ("fine-tuning") or the joined word
 * ("supervised") wins when it occurs more often elsewhere; otherwise the
 * hyphen stays when the first part is an acronym or a name with a digit
 * ("RL-", "Qwen3-"), is used as a hyphenated prefix elsewhere ("multi-"), is
 * itself a word of four letters or more ("three-quarters"), or when both
 * parts are words of the document ("cost-effective"); else it was a
 * break inside a word and the word is joined ("im-provement" →
 * "improvement"). Before a capital or a digit the hyphen always stays
 * ("DeepSeek-V3", "QwQ-32B").
 */

/** A text run as the layout needs it: the string, the line end, and (when known) the transform and width. */
export interface LayoutRun {
  str: string;
  hasEOL: boolean;
  transform?: readonly number[];
  width?: number;
  fontName?: string;
}

/** One line of a page as the layout sees it. */
export interface LayoutLine {
  /** 1-based page. */
  page: number;
  /** First run of the line. */
  from: number;
  /** One past the last run of the line. */
  to: number;
  /** The line's text (runs joined, white space collapsed). */
  text: string;
  /** Baseline height in PDF units (y up), NaN when unknown. */
  y: number;
  /** Largest type size on the line (0 when unknown). */
  size: number;
  /** Leftmost and rightmost x of the line's runs (NaN when unknown). */
  left: number;
  right: number;
  upright: boolean;
}

/** A line-end hyphen and what was decided about it. */
export interface HyphenJoin {
  page: number;
  /** The run ending with the hyphen. */
  run: number;
  /** The word as read: "supervised" or "fine-tuning". */
  word: string;
  /** Whether the hyphen stays ("fine-tuning") or is dropped ("supervised"). */
  kept: boolean;
}

/** How one page reads. */
export interface PageReading {
  /** Per run: 1 when the run is page furniture (left out of the body text). */
  furniture: Uint8Array;
  /** Per run: the text as read, when it differs from the run's string (small capitals lowered, a dropped hyphen removed). */
  text: Map<number, string>;
  /** Per run: 1 when the run ends a line with a hyphen joined to the next body text: what lies between (line end, page break, furniture) reads as nothing. */
  glued: Uint8Array;
  /** Per run: 1 when a heading line ends after this run (a sentence boundary without punctuation). */
  headingEnd: Uint8Array;
  /** Per run: 1 when the run starts a new line that pdf.js did not end with a line end (the baseline jumped). */
  newLine: Uint8Array;
}

/** How a whole document reads. */
export interface DocumentReading {
  pages: PageReading[];
  /** The furniture lines found, in page order (their text as printed). */
  furniture: Array<{ page: number; text: string }>;
  /** Every line-end hyphen before a letter, and whether it was kept. */
  hyphens: HyphenJoin[];
  /** Whether anything differs from reading every run as it is (no furniture, no joins, no case changes). */
  changed: boolean;
  /**
   * The reference lists: from the run after a "References" (or "Bibliography", "参考文献") heading to the first run of
   * the next heading of its size (null: to the end of the document).
   */
  references: Array<{ from: { page: number; run: number }; to: { page: number; run: number } | null }>;
  /** The first page's title (its largest upright type, up to three lines, in the displayed case), or null. */
  title: string | null;
  /** The name the title gives the report's own work, before a colon ("AReaL" of "AReaL: A Large-Scale …"), or null. */
  ownName: string | null;
}

const HYPHENS = /[-\u2010\u00ad]$/;
/** A caption's label at the start of a line. */
const CAPTION_START = /^(?:Table|Figure|Fig\.|Algorithm|Listing)\s*\d+[:.]/;
/** The heading of a reference list. */
const REFERENCES_HEADING = /^(?:[\dIVX]{1,4}\.?\s+)?(?:References|Bibliography|参考文献)$/i;
const WORD = /[\p{L}\p{N}]+(?:[-\u2010][\p{L}\p{N}]+)*/gu;

/** Type size of a run from its transform (0 when unknown). */
export function runSize(run: LayoutRun): number {
  const t = run.transform;
  return t ? Math.hypot(t[2] ?? 0, t[3] ?? 0) : 0;
}

function isUpright(run: LayoutRun): boolean {
  const t = run.transform;
  return !t || Math.abs(t[1] ?? 0) <= Math.abs(t[0] ?? 0);
}

/** The value at quantile q (0..1) of a list of numbers (NaN for an empty list). */
function quantile(values: number[], q: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] as number;
}

/** Lines of a page: runs up to each line end; a jump of the baseline by more than a line also starts a line. */
export function layoutLines(runs: readonly LayoutRun[], page: number): LayoutLine[] {
  const lines: LayoutLine[] = [];
  let from = 0;
  let lastY = Number.NaN;
  let lastSize = 0;
  const close = (to: number) => {
    if (to > from) lines.push(describeLine(runs, page, from, to));
    from = to;
  };
  runs.forEach((run, r) => {
    if (run.str.trim() && run.transform) {
      const y = run.transform[5] ?? 0;
      const size = runSize(run);
      if (!Number.isNaN(lastY) && Math.abs(y - lastY) > 1.5 * Math.max(size, lastSize) && r > from) close(r);
      lastY = y;
      lastSize = size;
    }
    if (run.hasEOL) close(r + 1);
  });
  close(runs.length);
  return lines;
}

function describeLine(runs: readonly LayoutRun[], page: number, from: number, to: number): LayoutLine {
  let text = '';
  let size = 0;
  let upright = true;
  let left = Number.NaN;
  let right = Number.NaN;
  // The baseline of the line's largest type (superscripts and subscripts sit off it).
  let y = Number.NaN;
  for (let r = from; r < to; r++) {
    const run = runs[r]!;
    text += run.str;
    if (!run.str.trim()) continue;
    if (!isUpright(run)) upright = false;
    const t = run.transform;
    if (!t) continue;
    const s = runSize(run);
    if (s > size + 0.01) {
      size = s;
      y = t[5] ?? 0;
    }
    const x = t[4] ?? 0;
    left = Number.isNaN(left) ? x : Math.min(left, x);
    const end = x + (run.width ?? 0);
    right = Number.isNaN(right) ? end : Math.max(right, end);
  }
  return { page, from, to, text: text.replace(/\s+/g, ' ').trim(), y, size, left, right, upright };
}

/** The body's type size: the size carrying the most characters (rounded to a quarter point). */
function bodySize(lines: readonly LayoutLine[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) {
    if (!l.size || !l.upright) continue;
    const k = Math.round(l.size * 4) / 4;
    weight.set(k, (weight.get(k) ?? 0) + l.text.length);
  }
  return heaviest(weight) ?? 0;
}

/** The key with the largest weight (the first of equals), or null for an empty map. */
function heaviest<K>(weights: ReadonlyMap<K, number>): K | null {
  let best: K | null = null;
  let most = -1;
  for (const [k, w] of weights) {
    if (w > most) {
      best = k;
      most = w;
    }
  }
  return best;
}

/** A line's text for comparing across pages: lower case, digits as "#", white space collapsed. */
function repeatKey(text: string): string {
  return text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/** A gap between a page's edge row and the rest, in line pitches, from which the edge row stands apart from the body. */
const EDGE_GAP = 1.8;

/** The body's line pitch: the most common baseline step between consecutive body-size lines of a page (0 when unknown). */
function linePitch(pages: readonly LayoutLine[][], size: number): number {
  if (!size) return 0;
  const steps = new Map<number, number>();
  for (const lines of pages) {
    const body = lines.filter((l) => l.upright && l.text && !Number.isNaN(l.y) && l.size >= size * 0.85 && l.size <= size * 1.15).sort((a, b) => b.y - a.y);
    for (let i = 1; i < body.length; i++) {
      const dy = (body[i - 1] as LayoutLine).y - (body[i] as LayoutLine).y;
      if (dy < size * 0.9 || dy > size * 2.5) continue;
      const k = Math.round(dy * 4) / 4;
      steps.set(k, (steps.get(k) ?? 0) + 1);
    }
  }
  const pitch = heaviest(steps) ?? 0;
  return pitch || size * 1.2;
}

/** A row of a page: its lines on one baseline. */
interface Row {
  y: number;
  lines: LayoutLine[];
}

/** A page's upright lines grouped into rows (same baseline within a point), top first. */
function rowsOf(lines: readonly LayoutLine[]): Row[] {
  const placed = lines.filter((l) => l.upright && l.text && !Number.isNaN(l.y)).sort((a, b) => b.y - a.y);
  const rows: Row[] = [];
  for (const l of placed) {
    const last = rows[rows.length - 1];
    if (last && Math.abs(last.y - l.y) < 1) last.lines.push(l);
    else rows.push({ y: l.y, lines: [l] });
  }
  return rows;
}

/**
 * The rows at the top and bottom edge of each page that stand apart from the rest by a gap of {@link EDGE_GAP}
 * line pitches or more (up to two rows each side): where running headers, footers and page numbers sit. A heading at
 * the top of a page is set closer to its text.
 */
function separatedEdges(pages: readonly LayoutLine[][], pitch: number): Row[][][] {
  const gap = EDGE_GAP * pitch;
  return pages.map((lines) => {
    const rows = rowsOf(lines);
    const out: Row[][] = [];
    if (rows.length < 2 || !pitch) return out;
    for (const side of [rows, [...rows].reverse()]) {
      for (let k = 1; k <= 2 && k < side.length; k++) {
        if (Math.abs((side[k - 1] as Row).y - (side[k] as Row).y) >= gap) {
          out.push(side.slice(0, k));
          break;
        }
      }
    }
    return out;
  });
}

/** Of the edge rows (per page), those repeated at the same height (text compared with digits ignored) on several pages. */
function repeatedRows(edges: readonly Row[][]): Set<Row> {
  const out = new Set<Row>();
  const minPages = Math.max(2, Math.min(3, Math.ceil(edges.length * 0.2)));
  if (edges.length < 2) return out;
  const byKey = new Map<string, Array<{ page: number; row: Row }>>();
  edges.forEach((rows, p) => {
    for (const row of rows) {
      const key = repeatKey(
        [...row.lines]
          .sort((a, b) => a.left - b.left)
          .map((l) => l.text)
          .join(' '),
      );
      if (!key || key.length > 160) continue;
      const list = byKey.get(key) ?? [];
      list.push({ page: p, row });
      byKey.set(key, list);
    }
  });
  for (const list of byKey.values()) {
    if (list.length < minPages) continue;
    for (const { row } of list) {
      const pagesAtHeight = new Set(list.filter((o) => Math.abs(o.row.y - row.y) <= 2).map((o) => o.page));
      if (pagesAtHeight.size >= minPages) out.add(row);
    }
  }
  return out;
}

/** The text block: where body lines sit on most pages (baselines and x extent), with the tolerance around it. */
interface TextBlock {
  top: number;
  bottom: number;
  left: number;
  right: number;
  tolerance: number;
}

function textBlock(pages: readonly LayoutLine[][], edges: ReadonlySet<LayoutLine>, size: number): TextBlock | null {
  if (!size) return null;
  const tops: number[] = [];
  const bottoms: number[] = [];
  const lefts: number[] = [];
  const rights: number[] = [];
  for (const lines of pages) {
    const body = lines.filter((l) => l.upright && !edges.has(l) && l.size >= size * 0.85 && l.size <= size * 1.15 && !Number.isNaN(l.y));
    if (!body.length) continue;
    tops.push(Math.max(...body.map((l) => l.y)));
    bottoms.push(Math.min(...body.map((l) => l.y)));
    const withWidth = body.filter((l) => l.right > l.left);
    if (withWidth.length) {
      lefts.push(Math.min(...withWidth.map((l) => l.left)));
      rights.push(Math.max(...withWidth.map((l) => l.right)));
    }
  }
  if (!tops.length) return null;
  const few = tops.length < 3;
  return {
    top: few ? Math.max(...tops) : quantile(tops, 0.9),
    bottom: few ? Math.min(...bottoms) : quantile(bottoms, 0.1),
    left: lefts.length ? (few ? Math.min(...lefts) : quantile(lefts, 0.1)) : Number.NaN,
    right: rights.length ? (few ? Math.max(...rights) : quantile(rights, 0.9)) : Number.NaN,
    tolerance: size * 0.8,
  };
}

/** Whether a rotated line (an arXiv stamp, line numbers) stands beside the text block. */
function besideBlock(l: LayoutLine, block: TextBlock, runs: readonly LayoutRun[]): boolean {
  const first = runs.slice(l.from, l.to).find((r) => r.str.trim() && r.transform);
  const x = first?.transform?.[4];
  return x !== undefined && !Number.isNaN(block.left) && (x < block.left - block.tolerance || x > block.right + block.tolerance);
}

/**
 * Small capitals set as capitals of two sizes ("K" + smaller "IMI", "AR" + smaller "EA" + "L"): the smaller
 * all-capital runs on a line's baseline, on a line where such a run touches a larger capital, are lowered.
 * Returns run index → lowered text.
 */
export function smallCapitals(runs: readonly LayoutRun[], from = 0, to = runs.length): Map<number, string> {
  const out = new Map<number, string>();
  const small: number[] = [];
  let touching = false;
  let lineSize = 0;
  let baseline = Number.NaN;
  for (let r = from; r < to; r++) {
    const run = runs[r]!;
    if (run.str.trim() && run.transform && runSize(run) > lineSize) {
      lineSize = runSize(run);
      baseline = run.transform[5] ?? 0;
    }
  }
  if (!lineSize) return out;
  for (let r = from; r < to; r++) {
    const run = runs[r]!;
    const t = run.transform;
    if (!t || !/^[\p{Lu}\d.,:-]*\p{Lu}[\p{Lu}\d.,:-]*$/u.test(run.str)) continue;
    const ratio = runSize(run) / lineSize;
    if (ratio < 0.6 || ratio > 0.9 || Math.abs((t[5] ?? 0) - baseline) > 0.5) continue;
    small.push(r);
    const prev = runs[r - 1];
    if (prev && r - 1 >= from && /\p{Lu}$/u.test(prev.str) && runSize(prev) >= lineSize * 0.95) touching = true;
  }
  if (touching) for (const r of small) out.set(r, runs[r]!.str.toLowerCase());
  return out;
}

/** Words of the document (lower case): whole tokens, the parts of hyphenated ones, and the prefixes used before a hyphen. */
interface Vocabulary {
  whole: Map<string, number>;
  parts: Set<string>;
  prefixes: Set<string>;
}

function vocabularyOf(lines: Iterable<string>): Vocabulary {
  const whole = new Map<string, number>();
  const parts = new Set<string>();
  const prefixes = new Set<string>();
  for (const line of lines) {
    for (const m of line.matchAll(WORD)) {
      const w = m[0].toLowerCase();
      whole.set(w, (whole.get(w) ?? 0) + 1);
      const split = m[0].split(/[-\u2010]/);
      for (const p of split) parts.add(p.toLowerCase());
      // A prefix written in lower case before a hyphen ("multi-turn"), not a name ("Tai-Kadai").
      for (let k = 0; k < split.length - 1; k++) if (/^\p{Ll}+$/u.test(split[k]!)) prefixes.add(split[k]!);
    }
  }
  return { whole, parts, prefixes };
}

/** Whether a line-end hyphen between `left` and `right` (a lower-case continuation) is kept ("fine-tuning") or dropped. */
export function keepsHyphen(left: string, right: string, vocabulary: Vocabulary): boolean {
  const l = left.toLowerCase();
  const r = right.toLowerCase();
  const hyphenated = vocabulary.whole.get(`${l}-${r}`) ?? 0;
  const joined = vocabulary.whole.get(`${l}${r}`) ?? 0;
  if (hyphenated !== joined) return hyphenated > joined;
  const lastOriginal = left.split(/[-\u2010]/).pop() ?? left;
  const last = lastOriginal.toLowerCase();
  if (/\d/.test(lastOriginal) || /^.+\p{Lu}/u.test(lastOriginal)) return true; // "RL-", "Qwen3-", "LLM-"
  if (vocabulary.prefixes.has(last)) return true; // "multi-", "non-" written before a hyphen elsewhere
  if (last.length >= 4 && (vocabulary.whole.get(last) ?? 0) > 0) return true; // "three-quarters": the first part is a word
  return vocabulary.parts.has(last) && vocabulary.parts.has(r) && last.length > 1 && r.length > 2; // "cost-effective"
}

/** A heading line: short, not ending a sentence, in larger or other type than the body, followed by a capital. */
function isHeading(l: LayoutLine, runs: readonly LayoutRun[], size: number, bodyFont: string | null, next: LayoutLine | undefined): boolean {
  if (!l.text || !next || !/^[\p{Lu}\d“"([]/u.test(next.text)) return false;
  if (/[.,;:!?)]$/.test(l.text) || l.text.split(' ').length > 12 || l.text.length > 90) return false;
  if (!/\p{L}{2}/u.test(l.text)) return false;
  const own = runs.slice(l.from, l.to).filter((r) => r.str.trim());
  const larger = size > 0 && l.size > size * 1.1;
  const otherFont = bodyFont !== null && own.length > 0 && own.every((r) => r.fontName && r.fontName !== bodyFont);
  return larger || otherFont;
}

/**
 * A run-in heading ("RL for LLMs Reinforcement learning has …"): the line opens with a few words in another font
 * than the body's, not ending with punctuation, and the body text after them starts a sentence. Returns the last
 * run of the heading, or -1.
 */
function runInHeadingEnd(l: LayoutLine, runs: readonly LayoutRun[], bodyFont: string | null): number {
  if (!bodyFont) return -1;
  let r = l.from;
  while (r < l.to && !runs[r]!.str.trim()) r++;
  if (r >= l.to || !runs[r]!.fontName || runs[r]!.fontName === bodyFont) return -1;
  let heading = '';
  let last = r;
  for (; r < l.to; r++) {
    const run = runs[r]!;
    if (run.str.trim() && run.fontName === bodyFont) break;
    heading += run.str;
    if (run.str.trim()) last = r;
  }
  if (r >= l.to) return -1;
  const rest = runs
    .slice(r, l.to)
    .map((x) => x.str)
    .join('')
    .trimStart();
  const words = heading.trim().split(/\s+/);
  if (!/^[\p{Lu}“"(]/u.test(rest) || /[.,;:!?]$/.test(heading.trim()) || words.length > 10 || !/\p{L}{2}/u.test(heading)) return -1;
  return last;
}

/** The first page's title: its lines of the largest upright type at the top (up to three), as displayed. */
function titleOf(lines: readonly LayoutLine[], runs: readonly LayoutRun[], reading: PageReading | undefined): string | null {
  const candidates = lines.filter((l) => l.upright && /\p{L}{2}/u.test(l.text) && !reading?.furniture[l.from]).slice(0, 40);
  const max = Math.max(0, ...candidates.map((l) => l.size));
  if (!max) return null;
  const first = candidates.findIndex((l) => l.size >= max * 0.95);
  const picked: string[] = [];
  for (let i = first; i >= 0 && i < candidates.length && picked.length < 3; i++) {
    const l = candidates[i]!;
    if (l.size < max * 0.95) break;
    let text = '';
    for (let r = l.from; r < l.to; r++) text += reading?.text.get(r) ?? runs[r]!.str;
    picked.push(text.replace(/\s+/g, ' ').trim());
  }
  return picked.join(' ') || null;
}

/** The font carrying most of the body's characters (null when fonts are unknown). */
function bodyFontOf(pages: readonly LayoutRun[][]): string | null {
  const weight = new Map<string, number>();
  for (const runs of pages) for (const r of runs) if (r.fontName) weight.set(r.fontName, (weight.get(r.fontName) ?? 0) + r.str.length);
  return heaviest(weight);
}

/** Reads a whole document: furniture, line-end hyphens, heading ends and small capitals, page by page. */
export function readDocument(pages: ReadonlyArray<readonly LayoutRun[]>): DocumentReading {
  const lines = pages.map((runs, p) => layoutLines(runs, p + 1));
  const all = lines.flat();
  const size = bodySize(all);
  const pitch = linePitch(lines, size);
  const edgeGroups = separatedEdges(lines, pitch);
  const repeated = repeatedRows(edgeGroups.map((groups) => groups.flat()));
  const edgeLines = new Set(edgeGroups.flat(2).flatMap((r) => r.lines));
  const block = textBlock(lines, edgeLines, size);
  // Edge rows set apart from the body are furniture when every one of them repeats across pages, or when they lie
  // outside the text block (a caption's second line that repeats is not, when its first line does not).
  const furnitureLines = new Set<LayoutLine>();
  for (const group of edgeGroups.flat()) {
    // Outside the block, in type no larger than the body's (a title above the text block is not furniture).
    const outside =
      block !== null &&
      group.every((row) => (row.y > block.top + block.tolerance || row.y < block.bottom - block.tolerance) && row.lines.every((l) => l.size <= size * 1.15));
    if (outside || group.every((row) => repeated.has(row))) for (const row of group) for (const l of row.lines) furnitureLines.add(l);
  }
  const bodyFont = bodyFontOf(pages as LayoutRun[][]);
  let changed = false;
  const readings: PageReading[] = pages.map((runs) => ({
    furniture: new Uint8Array(runs.length),
    text: new Map(),
    glued: new Uint8Array(runs.length),
    headingEnd: new Uint8Array(runs.length),
    newLine: new Uint8Array(runs.length),
  }));
  for (const l of all) if (l.from > 0 && !pages[l.page - 1]![l.from - 1]!.hasEOL) readings[l.page - 1]!.newLine[l.from] = 1;
  const furniture: Array<{ page: number; text: string }> = [];
  const body: LayoutLine[] = [];
  for (const l of all) {
    const runs = pages[l.page - 1]!;
    const isFurniture = !!l.text && (furnitureLines.has(l) || (!l.upright && block !== null && besideBlock(l, block, runs)));
    if (isFurniture) {
      furniture.push({ page: l.page, text: l.text });
      readings[l.page - 1]!.furniture.fill(1, l.from, l.to);
      changed = true;
    } else if (l.text) body.push(l);
  }
  // Small capitals in their displayed case.
  for (const l of body) {
    for (const [r, lowered] of smallCapitals(pages[l.page - 1]!, l.from, l.to)) {
      readings[l.page - 1]!.text.set(r, lowered);
      changed = true;
    }
  }
  // Heading ends: heading lines, and run-in headings at the start of a paragraph.
  const headings: LayoutLine[] = [];
  body.forEach((l, i) => {
    const runs = pages[l.page - 1]!;
    if (isHeading(l, runs, size, bodyFont, body[i + 1])) {
      readings[l.page - 1]!.headingEnd[l.to - 1] = 1;
      headings.push(l);
    } else {
      const end = runInHeadingEnd(l, runs, bodyFont);
      if (end >= 0) readings[l.page - 1]!.headingEnd[end] = 1;
    }
    // A caption ("Table 9: …") interrupting a paragraph (a float at the top of a page) starts a sentence.
    const prev = body[i - 1];
    if (prev && CAPTION_START.test(l.text)) readings[prev.page - 1]!.headingEnd[prev.to - 1] = 1;
  });
  const references: DocumentReading['references'] = [];
  body.forEach((l, i) => {
    if (!REFERENCES_HEADING.test(l.text) || (size && l.size < size * 0.95)) return;
    const next = body.slice(i + 1).find((h) => headings.includes(h) && h.size >= l.size * 0.95);
    references.push({ from: { page: l.page, run: l.to }, to: next ? { page: next.page, run: next.from } : null });
  });
  // Line-end hyphens: the line's last word fragment and the next body line's first.
  const sites: Array<{ line: LayoutLine; next: LayoutLine; run: number; left: string; right: string }> = [];
  body.forEach((l, i) => {
    const next = body[i + 1];
    if (!next) return;
    const runs = pages[l.page - 1]!;
    let r = l.to - 1;
    while (r >= l.from && !runs[r]!.str.trim()) r--;
    if (r < l.from) return;
    const str = readings[l.page - 1]!.text.get(r) ?? runs[r]!.str;
    const trimmed = str.trimEnd();
    if (!HYPHENS.test(trimmed)) return;
    const left = /([\p{L}\p{N}]+(?:[-\u2010][\p{L}\p{N}]+)*)$/u.exec(trimmed.slice(0, -1))?.[1];
    const right = /^[\p{L}\p{N}]+/u.exec(next.text)?.[0];
    if (!left || !right || !/\p{L}/u.test(left)) return;
    sites.push({ line: l, next, run: r, left, right });
  });
  const hyphens: HyphenJoin[] = [];
  if (sites.length) {
    const ending = new Set(sites.map((s) => s.line));
    const continuing = new Set(sites.map((s) => s.next));
    // The document's words, without the fragments at the line ends being decided.
    const vocabulary = vocabularyOf(
      body.map((l) => {
        let t = l.text;
        if (ending.has(l)) t = t.replace(/[\p{L}\p{N}]+(?:[-\u2010][\p{L}\p{N}]+)*[-\u2010\u00ad]\s*$/u, '');
        if (continuing.has(l)) t = t.replace(/^[\p{L}\p{N}]+/u, '');
        return t;
      }),
    );
    for (const s of sites) {
      const reading = readings[s.line.page - 1]!;
      const trimmed = (reading.text.get(s.run) ?? pages[s.line.page - 1]![s.run]!.str).trimEnd();
      const kept = !/^\p{Ll}/u.test(s.right) || keepsHyphen(s.left, s.right, vocabulary);
      reading.text.set(s.run, kept ? trimmed : trimmed.slice(0, -1));
      reading.glued[s.run] = 1;
      reading.headingEnd[s.line.to - 1] = 0;
      hyphens.push({ page: s.line.page, run: s.run, word: `${s.left}${kept ? '-' : ''}${s.right}`, kept });
      changed = true;
    }
  }
  const title = titleOf(lines[0] ?? [], pages[0] ?? [], readings[0]);
  const ownName = title ? (/^([^:]{2,40}):\s/.exec(title)?.[1]?.trim() ?? null) : null;
  return { pages: readings, furniture, hyphens, changed, references, title, ownName: ownName && ownName.split(' ').length <= 3 ? ownName : null };
}
