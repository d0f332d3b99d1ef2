/**
 * The text model of a whole PDF: every page's text runs (as pdf.js's
 * `getTextContent` reports them) laid out once in a detached document — a
 * block per page, a line break after each run that ends a line — so that the
 * anchoring library reads it exactly as it reads an HTML page (white space
 * collapsed, blocks as spaces). Selectors (TextQuote + TextPosition) are
 * offsets into this one text, whichever pages happen to be rendered; a place
 * in the text maps back to (page, run, offset), which the viewer's text
 * layers turn into live DOM Ranges page by page.
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

/** One run of text: its string and whether a line ends after it. */
export interface TextRun {
  str: string;
  hasEOL: boolean;
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

/** The whole-document text and its maps between offsets, runs and pages. */
export class PdfTextModel {
  /** The detached element holding one block per page. */
  readonly root: HTMLElement;
  /** The anchoring library's index over `root`. */
  readonly index: TextIndex;
  /** For each page (index page-1): the offset in `text` where the page's text starts. */
  readonly pageStart: Int32Array;
  private readonly runs: ReadonlyArray<readonly TextRun[]>;
  private readonly nodes: Array<Array<Text | null>>;
  private readonly where = new Map<Node, [number, number]>();

  private constructor(doc: Document, pages: ReadonlyArray<readonly TextRun[]>) {
    this.runs = pages;
    this.root = doc.createElement('div');
    this.nodes = [];
    pages.forEach((runs, p) => {
      const block = doc.createElement('div');
      const row: Array<Text | null> = [];
      runs.forEach((run, r) => {
        if (run.str) {
          const node = doc.createTextNode(run.str);
          block.append(node);
          row.push(node);
          this.where.set(node, [p + 1, r]);
        } else row.push(null);
        if (run.hasEOL) block.append(doc.createElement('br'));
      });
      this.nodes.push(row);
      this.root.append(block);
    });
    // In its (detached) document, so that Ranges over it behave as over any page.
    (doc.body ?? doc.documentElement).append(this.root);
    this.index = buildTextIndex(this.root);
    this.pageStart = new Int32Array(pages.length);
    for (let p = 0; p < pages.length; p++) this.pageStart[p] = offsetOfBoundary(this.index, this.root.children[p]!, 0);
  }

  /** Builds the model of a document from its pages' runs (page 1 first); `doc` makes the detached nodes. */
  static build(pages: ReadonlyArray<readonly TextRun[]>, doc: Document): PdfTextModel {
    return new PdfTextModel(doc, pages);
  }

  /** The normalised text of the whole document. */
  get text(): string {
    return this.index.text;
  }

  /** Number of pages. */
  get pageCount(): number {
    return this.runs.length;
  }

  /** The runs of a page (1-based). */
  runsOf(page: number): readonly TextRun[] {
    return this.runs[page - 1] ?? [];
  }

  /** The 1-based page an offset of the text falls on. */
  pageAt(offset: number): number {
    const starts = this.pageStart;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** The normalised offset of a run point. */
  offsetOf(point: RunPoint): number {
    const [node, offset] = this.boundary(point);
    return offsetOfBoundary(this.index, node, offset);
  }

  /** Selectors for the passage between two run points (as a curator selected it), and the page it starts on. */
  describe(start: RunPoint, end: RunPoint): PassageSelectors & { page: number } {
    const range = this.root.ownerDocument.createRange();
    const [a, ao] = this.boundary(start);
    const [b, bo] = this.boundary(end);
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

  /** Anchors stored selectors against the whole document (the anchoring library's exact and fuzzy rules, orphans included). */
  anchorAll(list: readonly AnchorSelectors[]): Array<{ result: AnchorResult; placed: PlacedPassage | null }> {
    return anchorAll(this.root, list, this.index).map((result) => ({
      result,
      placed: result.status === 'anchored' ? this.placeRange(result.range, result.start, result.end) : null,
    }));
  }

  /** Places normalised offsets [start, end) on pages; null when they cover no text. */
  place(start: number, end: number): PlacedPassage | null {
    const t = trimOffsets(this.text, start, end);
    const range = rangeFromOffsets(this.index, t.start, t.end);
    return range ? this.placeRange(range, t.start, t.end) : null;
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

  /** The (page, run, offset) of a model text-node boundary; null for nodes outside the model. */
  private pointOf(node: Node, offset: number): RunPoint | null {
    const at = this.where.get(node);
    return at ? { page: at[0], run: at[1], offset } : null;
  }

  /** A model DOM boundary for a run point: the run's text node, or (for an empty run) the place before the next run. */
  private boundary(point: RunPoint): [Node, number] {
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

  /** First and last non-empty runs of a page, as points (start of the first, end of the last); null for a page without text. */
  private pageEdges(page: number): { first: RunPoint; last: RunPoint } | null {
    const row = this.nodes[page - 1] ?? [];
    let first = -1;
    let last = -1;
    row.forEach((n, r) => {
      if (!n) return;
      if (first < 0) first = r;
      last = r;
    });
    if (first < 0) return null;
    return { first: { page, run: first, offset: 0 }, last: { page, run: last, offset: row[last]!.data.length } };
  }

  /** Splits a model range into page segments. */
  private placeRange(range: Range, start: number, end: number): PlacedPassage | null {
    const a = this.pointOf(range.startContainer, range.startOffset);
    const b = this.pointOf(range.endContainer, range.endOffset);
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
