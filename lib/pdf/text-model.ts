/**
 * The text model of a whole PDF: every page's text runs (as pdf.js's
 * `getTextContent` reports them) laid out once in a detached document so
 * that the anchoring library reads it exactly as it reads an HTML page
 * (white space collapsed, line breaks as spaces). Selectors (TextQuote +
 * TextPosition) are offsets into this one text, whichever pages happen to be
 * rendered; a place in the text maps back to (page, run, offset), which the
 * viewer's text layers turn into live DOM Ranges page by page.
 *
 * The text is the body a reader sees (lib/pdf/layout.ts): page furniture
 * (running headers, footers, page numbers, margin stamps) is left out, a
 * line-end hyphen inside a word is dropped and the word joined ("super- vised"
 * → "supervised", "fine-tuning" kept), and small capitals read in their
 * displayed case. Every character still comes from one run, so offsets map
 * back to the glyphs. Claims described before (line ends and page breaks as
 * spaces, furniture and hyphens included) are anchored against that earlier
 * form when they do not match the body text exactly.
 */
import {
  anchorAll,
  buildTextIndex,
  collapseWhiteSpace,
  describe,
  foldForComparison,
  offsetOfBoundary,
  rangeFromOffsets,
  trimOffsets,
  type AnchorResult,
  type AnchorSelectors,
  type PassageSelectors,
  type TextIndex,
} from '../anchoring';
import { countAtMost } from '../sorted';
import { readDocument, type DocumentReading } from './layout';

/** One run of text: its string, whether a line ends after it, and (when known) where it is drawn and in which font. */
export interface TextRun {
  str: string;
  hasEOL: boolean;
  /** pdf.js's transform of the run (size and baseline); furniture and small capitals need it. */
  transform?: readonly number[];
  /** Width in PDF units. */
  width?: number;
  /** pdf.js's font name (headings are told by their font). */
  fontName?: string;
}

/** A place in the document: 1-based page, run index on that page, UTF-16 offset in the run's string. */
export interface RunPoint {
  page: number;
  run: number;
  offset: number;
}

/** The part of a passage on one page: from one run point to another (exclusive end), both on `page`. */
export interface PageSegment {
  page: number;
  start: RunPoint;
  end: RunPoint;
}

/** A passage found in the model: its normalised offsets and the page segments that show it. */
export interface PlacedPassage {
  start: number;
  end: number;
  /** 1-based page where the passage starts. */
  page: number;
  segments: PageSegment[];
}

/** Options of {@link PdfTextModel.build}. */
export interface TextModelOptions {
  /**
   * Read the body as a reader sees it (furniture out, line-end hyphens joined, small capitals lowered): the
   * default. `false` gives the earlier form: every run, line ends and page breaks as spaces.
   */
  reading?: boolean;
}

/** One laid-out form of the document: the detached DOM, its text index, and the maps between nodes and runs. */
class LaidOut {
  readonly root: HTMLElement;
  readonly index: TextIndex;
  readonly pageStart: Int32Array;
  /** Per page, per run: the text node showing the run in this form (null: empty, or left out). */
  readonly nodes: Array<Array<Text | null>> = [];
  readonly where = new Map<Node, [number, number]>();

  constructor(doc: Document, pages: ReadonlyArray<readonly TextRun[]>, reading: DocumentReading | null) {
    this.root = doc.createElement('div');
    // The earlier form: a block per page, a line break after each line end. The reading form: pages inline, a line
    // break at each line end and page end unless a line-end hyphen joins the word across it, nothing for furniture.
    let gluing = false;
    const separator = (into: HTMLElement) => {
      if (!gluing) into.append(doc.createElement('br'));
    };
    pages.forEach((runs, p) => {
      const read = reading?.pages[p];
      const block = doc.createElement(read ? 'span' : 'div');
      const row: Array<Text | null> = [];
      runs.forEach((run, r) => {
        const furniture = read ? read.furniture[r] === 1 : false;
        const str = furniture ? '' : (read?.text.get(r) ?? run.str);
        if (read?.newLine[r]) separator(block);
        if (str && !(gluing && !str.trim())) {
          const node = doc.createTextNode(str);
          block.append(node);
          row.push(node);
          this.where.set(node, [p + 1, r]);
          if (str.trim()) gluing = false;
        } else row.push(null);
        if (read?.glued[r]) gluing = true;
        else if (run.hasEOL || (furniture && read)) separator(block);
      });
      if (read) separator(block);
      this.nodes.push(row);
      this.root.append(block);
    });
    // In its (detached) document, so that Ranges over it behave as over any page.
    (doc.body ?? doc.documentElement).append(this.root);
    this.index = buildTextIndex(this.root);
    this.pageStart = new Int32Array(pages.length);
    for (let p = 0; p < pages.length; p++) this.pageStart[p] = offsetOfBoundary(this.index, this.root.children[p]!, 0);
  }

  /** The (page, run, offset) of a text-node boundary of this form; null for nodes outside it. */
  pointOf(node: Node, offset: number): RunPoint | null {
    const at = this.where.get(node);
    return at ? { page: at[0], run: at[1], offset } : null;
  }

  /** A DOM boundary of this form for a run point: the run's text node, or (for a run not shown) the place before the next run shown. */
  boundary(point: RunPoint): [Node, number] {
    const row = this.nodes[point.page - 1];
    if (!row) return point.page < 1 ? [this.root, 0] : [this.root, this.root.childNodes.length];
    const node = row[point.run];
    if (node) return [node, Math.max(0, Math.min(point.offset, node.data.length))];
    for (let r = point.run + 1; r < row.length; r++) {
      const next = row[r];
      if (next) return [next, 0];
    }
    return [this.root.children[point.page - 1]!, this.root.children[point.page - 1]!.childNodes.length];
  }

  /** The normalised offset of a run point in this form. */
  offsetOf(point: RunPoint): number {
    const [node, offset] = this.boundary(point);
    return offsetOfBoundary(this.index, node, offset);
  }
}

/** The whole-document text and its maps between offsets, runs and pages. */
export class PdfTextModel {
  /** The detached element holding the document's text. */
  readonly root: HTMLElement;
  /** The anchoring library's index over `root`. */
  readonly index: TextIndex;
  /** For each page (index page-1): the offset in `text` where the page's text starts. */
  readonly pageStart: Int32Array;
  /** How the document reads (furniture, line-end hyphens, headings, small capitals); null for the earlier form. */
  readonly reading: DocumentReading | null;
  private readonly runs: ReadonlyArray<readonly TextRun[]>;
  private readonly form: LaidOut;
  private earlier: LaidOut | null = null;
  private readonly doc: Document;
  private breaksCache: Int32Array | null = null;

  private constructor(doc: Document, pages: ReadonlyArray<readonly TextRun[]>, options: TextModelOptions) {
    this.runs = pages;
    this.doc = doc;
    const reading = options.reading === false ? null : readDocument(pages);
    this.reading = reading;
    this.form = new LaidOut(doc, pages, reading);
    if (!reading?.changed) this.earlier = this.form;
    this.root = this.form.root;
    this.index = this.form.index;
    this.pageStart = this.form.pageStart;
  }

  /** Builds the model of a document from its pages' runs (page 1 first); `doc` makes the detached nodes. */
  static build(pages: ReadonlyArray<readonly TextRun[]>, doc: Document, options: TextModelOptions = {}): PdfTextModel {
    return new PdfTextModel(doc, pages, options);
  }

  /** The normalised text of the whole document (the body as read). */
  get text(): string {
    return this.index.text;
  }

  /** The document's text in the earlier form (every run; line ends and page breaks as spaces), as claims were described before. */
  get earlierText(): string {
    return this.earlierForm().index.text;
  }

  /**
   * Offsets of `text` where a heading line ends: sentence boundaries that have no punctuation (the claim finder
   * does not run a sentence across them). Ascending.
   */
  get breaks(): Int32Array {
    if (!this.breaksCache) {
      const out: number[] = [];
      this.reading?.pages.forEach((page, p) => {
        page.headingEnd.forEach((flag, r) => {
          if (flag) out.push(this.form.offsetOf({ page: p + 1, run: r + 1, offset: 0 }));
        });
      });
      this.breaksCache = Int32Array.from([...new Set(out)].sort((a, b) => a - b));
    }
    return this.breaksCache;
  }

  /** The reference lists, as offset ranges of `text` (the claim finder skips them). */
  get references(): Array<{ start: number; end: number }> {
    return (this.reading?.references ?? []).map((r) => ({
      start: this.form.offsetOf({ page: r.from.page, run: r.from.run, offset: 0 }),
      end: r.to ? this.form.offsetOf({ page: r.to.page, run: r.to.run, offset: 0 }) : this.text.length,
    }));
  }

  /**
   * What the claim finder should know of the document: heading ends (`breaks`), reference lists (`skip`) and the
   * name its title gives its own work (`own`, e.g. "AReaL").
   */
  finderHints(): { breaks: Int32Array; skip: Array<{ start: number; end: number }>; own: string[] } {
    return { breaks: this.breaks, skip: this.references, own: this.reading?.ownName ? [this.reading.ownName] : [] };
  }

  /** Number of pages. */
  get pageCount(): number {
    return this.runs.length;
  }

  /** The runs of a page (1-based). */
  runsOf(page: number): readonly TextRun[] {
    return this.runs[page - 1] ?? [];
  }

  /** Whether a run is page furniture (a running header, footer, page number or margin stamp), left out of the text. */
  isFurniture(page: number, run: number): boolean {
    return this.reading?.pages[page - 1]?.furniture[run] === 1;
  }

  /** The 1-based page an offset of the text falls on. */
  pageAt(offset: number): number {
    // The last page starting at or before the offset (the first page for an offset before every start).
    return Math.max(1, countAtMost(this.pageStart, offset));
  }

  /** The normalised offset of a run point. */
  offsetOf(point: RunPoint): number {
    return this.form.offsetOf(point);
  }

  /** Selectors for the passage between two run points (as a curator selected it), and the page it starts on. */
  describe(start: RunPoint, end: RunPoint): PassageSelectors & { page: number } {
    const range = this.root.ownerDocument.createRange();
    const [a, ao] = this.form.boundary(start);
    const [b, bo] = this.form.boundary(end);
    range.setStart(a, ao);
    range.setEnd(b, bo);
    if (range.collapsed && (a !== b || ao !== bo)) range.setStart(b, bo); // reversed points: nothing selected
    const selectors = describe(range, this.root, this.index);
    return { ...selectors, page: this.pageAt(selectors.position.start) };
  }

  /** Selectors for normalised offsets [start, end) (a passage already placed, e.g. drifted text being confirmed). */
  describeOffsets(start: number, end: number): PassageSelectors & { page: number } {
    const t = trimOffsets(this.text, start, end);
    const range = rangeFromOffsets(this.index, t.start, t.end);
    if (!range) {
      return { quote: { exact: '', prefix: '', suffix: '' }, position: { start: t.start, end: t.start }, page: this.pageAt(t.start) };
    }
    const selectors = describe(range, this.root, this.index);
    return { ...selectors, page: this.pageAt(selectors.position.start) };
  }

  /**
   * Anchors stored selectors against the whole document (the anchoring library's exact and fuzzy rules, orphans
   * included). A passage that does not match the body text exactly is anchored against the earlier form too (claims
   * described before furniture and hyphens were taken out); found there verbatim, it is placed on the same glyphs and
   * counts as exact.
   */
  anchorAll(list: readonly AnchorSelectors[]): Array<{ result: AnchorResult; placed: PlacedPassage | null }> {
    const out = anchorAll(this.root, list, this.index).map((result) => ({
      result,
      placed: result.status === 'anchored' ? this.placeRange(this.form, result.range, result.start, result.end) : null,
    }));
    const retry = out.map((o, i) => (o.result.status !== 'anchored' || !o.result.exact ? i : -1)).filter((i) => i >= 0);
    if (!retry.length) return out;
    const earlier = this.earlierForm();
    if (earlier === this.form) return out;
    const again = anchorAll(
      earlier.root,
      retry.map((i) => list[i]!),
      earlier.index,
    );
    again.forEach((result, k) => {
      if (result.status !== 'anchored' || !result.exact) return;
      const a = earlier.pointOf(result.range.startContainer, result.range.startOffset);
      const b = earlier.pointOf(result.range.endContainer, result.range.endOffset);
      if (!a || !b) return;
      // The same glyphs, in the body text's offsets (a passage that began or ended on furniture starts or ends next to it).
      const t = trimOffsets(this.text, this.form.offsetOf(a), this.form.offsetOf(b));
      const end = Math.max(t.start, t.end);
      const placed = this.placeRange(earlier, result.range, t.start, end);
      if (!placed) return;
      const range = rangeFromOffsets(this.index, t.start, end) ?? result.range;
      out[retry[k]!] = { result: { ...result, range, start: t.start, end, text: this.text.slice(t.start, end) }, placed };
    });
    return out;
  }

  /** Places normalised offsets [start, end) on pages; null when they cover no text. */
  place(start: number, end: number): PlacedPassage | null {
    const t = trimOffsets(this.text, start, end);
    const range = rangeFromOffsets(this.index, t.start, t.end);
    return range ? this.placeRange(this.form, range, t.start, t.end) : null;
  }

  /** Occurrences of a query in the text (case and white space ignored, quotes and dashes folded), at most `limit`. */
  find(query: string, limit = 1000): Array<{ start: number; end: number }> {
    const needle = foldQuery(query);
    if (!needle) return [];
    const hay = this.lowerFolded();
    const out: Array<{ start: number; end: number }> = [];
    for (let at = hay.indexOf(needle); at >= 0 && out.length < limit; at = hay.indexOf(needle, at + Math.max(1, needle.length))) {
      out.push({ start: at, end: at + needle.length });
    }
    return out;
  }

  private lowerCache: string | null = null;

  /** The folded text lower-cased (same length as long as lower-casing keeps lengths, which is checked). */
  private lowerFolded(): string {
    if (this.lowerCache === null) {
      const lower = this.index.folded.toLowerCase();
      this.lowerCache = lower.length === this.index.folded.length ? lower : this.index.folded;
    }
    return this.lowerCache;
  }

  /** The earlier form, laid out on first use (only claims that do not match the body text need it). */
  private earlierForm(): LaidOut {
    this.earlier ??= new LaidOut(this.doc, this.runs, null);
    return this.earlier;
  }

  /** First and last runs of a page shown in the text, as points (start of the first, end of the last); null for a page without text. */
  private pageEdges(page: number): { first: RunPoint; last: RunPoint } | null {
    const row = this.form.nodes[page - 1] ?? [];
    let first = -1;
    let last = -1;
    row.forEach((n, r) => {
      if (!n) return;
      if (first < 0) first = r;
      last = r;
    });
    if (first < 0) return null;
    // The whole run, a line-end hyphen included: painting covers every glyph of the passage.
    return { first: { page, run: first, offset: 0 }, last: { page, run: last, offset: this.runs[page - 1]?.[last]?.str.length ?? row[last]!.data.length } };
  }

  /** Splits a range of a form into page segments. */
  private placeRange(form: LaidOut, range: Range, start: number, end: number): PlacedPassage | null {
    const a = form.pointOf(range.startContainer, range.startOffset);
    const b = form.pointOf(range.endContainer, range.endOffset);
    if (!a || !b) return null;
    const segments: PageSegment[] = [];
    for (let page = a.page; page <= b.page; page++) {
      const edges = page === a.page && page === b.page ? { first: a, last: b } : this.pageEdges(page);
      if (!edges) continue;
      segments.push({ page, start: page === a.page ? a : edges.first, end: page === b.page ? b : edges.last });
    }
    return { start, end, page: a.page, segments };
  }
}

/** A find query as it is compared: white space collapsed, trimmed, folded, lower-cased. */
function foldQuery(query: string): string {
  return foldForComparison(collapseWhiteSpace(query).trim()).toLowerCase();
}
