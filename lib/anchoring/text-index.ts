/**
 * The rendered-text model: the text of a DOM subtree as a curator sees and
 * copies it, with white space collapsed, plus a map from every offset of that
 * text back to a (text node, offset) pair. Built once per page and shared by
 * every anchor/describe call. Reading only: the DOM is never modified.
 */
import { countAtMost, partitionPoint } from '../sorted';
import { foldForComparison, forgetLastSubject, isCollapsibleSpace } from './normalize';

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const DOCUMENT_NODE = 9;

/** Elements whose content is never rendered as page text. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'title',
  'meta',
  'link',
  'base',
  'iframe',
  'textarea',
  'select',
  'datalist',
  'video',
  'audio',
  'canvas',
  'rp',
]);

/** Elements whose start and end read as white space (block boxes, table cells, line breaks). */
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'br',
  'caption',
  'center',
  'col',
  'colgroup',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'frameset',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'legend',
  'li',
  'listing',
  'main',
  'menu',
  'nav',
  'ol',
  'optgroup',
  'option',
  'p',
  'plaintext',
  'pre',
  'search',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
  'xmp',
]);

/** The normalised text of a root plus the offset map back into its text nodes; rebuild it after the DOM changes. */
export interface TextIndex {
  /** The root the index was built from. */
  readonly root: Document | Element;
  /** Rendered text: white space collapsed to single spaces, no leading or trailing space. */
  readonly text: string;
  /** `text` after comparison folding (same length, same offsets; computed on first use). */
  readonly folded: string;
  /** The text nodes that contributed, in document order. */
  readonly nodes: readonly Text[];
  /** For each offset of `text`: index into `nodes`, or -1 for a space that stands for a block boundary (computed on first use). */
  readonly charNode: Int32Array;
  /** For each offset of `text`: the offset inside its text node (-1 for a block-boundary space; computed on first use). */
  readonly charOffset: Int32Array;
  /** For each node: the first offset of `text` produced while reading it (computed on first use). */
  readonly nodeStart: Int32Array;
  /** For each node: the offset of `text` reached when it was fully read (computed on first use). */
  readonly nodeEnd: Int32Array;
  /** Position of each indexed text node in `nodes`. */
  readonly nodeIds: ReadonlyMap<Node, number>;
}

/** Whether an element's content is left out of the rendered text. */
function isSkipped(el: Element): boolean {
  return SKIPPED.has(el.localName) || el.hasAttribute('hidden');
}

/** Whether an element's boundaries read as white space. */
function isBlock(el: Element): boolean {
  return BLOCKS.has(el.localName);
}

/** Growable Int32 buffer used while building the index. */
class IntBuffer {
  data: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  done(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/** Two arrays of `n` entries each, entry `i` of both from `pair(i)`. */
function pairsOf(n: number, pair: (i: number) => [number, number]): [Int32Array, Int32Array] {
  const first = new Int32Array(n);
  const second = new Int32Array(n);
  for (let i = 0; i < n; i++) [first[i], second[i]] = pair(i);
  return [first, second];
}

/** A run of white space that the text model collapses to one space, or a white-space character other than a space. */
const TO_COLLAPSE = /[ \t\n\r\f\v\u00a0]{2,}|[\t\n\r\f\v\u00a0]/g;
/** A run of two or more white-space characters (each shortens the text by its length minus one). */
const LONG_RUN = /[ \t\n\r\f\v\u00a0]{2,}/g;

/** What a block element's start or end adds to the raw text: one white-space character that belongs to no node. */
const BLOCK_MARK = '\n';

/**
 * The text index proper. It keeps the raw text's layout (where each text
 * node's data starts, where the block marks are, where the runs of white
 * space are), not a map per character: a character's node is found by
 * binary search and its offset by arithmetic, so building stays fast and
 * small on megabyte pages.
 *
 * The raw text is every indexed text node's data in document order with one
 * mark at each block element's start and end. The rendered text is the raw
 * text with each run of white space collapsed to one space and trimmed;
 * a collapsed space comes from the first character of its run that a text
 * node holds (a run of marks alone comes from no node).
 */
class Index implements TextIndex {
  private charNodeCache: Int32Array | null = null;
  private charOffsetCache: Int32Array | null = null;
  private nodeStartCache: Int32Array | null = null;
  private nodeEndCache: Int32Array | null = null;
  private nodeIdsCache: Map<Node, number> | null = null;
  private foldedCache: string | null = null;

  constructor(
    readonly root: Document | Element,
    readonly text: string,
    readonly nodes: readonly Text[],
    /** For each node: where its data starts in the raw text. */
    private readonly rawStart: Int32Array,
    /** The raw offsets of the block marks, ascending. */
    private readonly marks: Int32Array,
    /** The runs of two or more white-space characters: raw start, length, and offset in the collapsed text. */
    private readonly runRaw: Int32Array,
    private readonly runLength: Int32Array,
    private readonly runAt: Int32Array,
    /** 1 when the collapsed text began with a space that trimming dropped, else 0. */
    private readonly lead: number,
  ) {}

  /** The folded text, made on first use: a page whose passages all stand where they were stored never needs it. */
  get folded(): string {
    this.foldedCache ??= foldForComparison(this.text);
    return this.foldedCache;
  }

  /** Position of each text node in `nodes` (built on first use: anchoring never needs it, describing does). */
  get nodeIds(): ReadonlyMap<Node, number> {
    if (!this.nodeIdsCache) {
      const ids = new Map<Node, number>();
      this.nodes.forEach((n, k) => ids.set(n, k));
      this.nodeIdsCache = ids;
    }
    return this.nodeIdsCache;
  }

  get charNode(): Int32Array {
    if (!this.charNodeCache) this.fillCharMaps();
    return this.charNodeCache as Int32Array;
  }

  get charOffset(): Int32Array {
    if (!this.charOffsetCache) this.fillCharMaps();
    return this.charOffsetCache as Int32Array;
  }

  get nodeStart(): Int32Array {
    if (!this.nodeStartCache) this.fillNodeSpans();
    return this.nodeStartCache as Int32Array;
  }

  get nodeEnd(): Int32Array {
    if (!this.nodeEndCache) this.fillNodeSpans();
    return this.nodeEndCache as Int32Array;
  }

  /** Computes the full per-character maps (only for callers that read them). */
  private fillCharMaps(): void {
    [this.charNodeCache, this.charOffsetCache] = pairsOf(this.text.length, (x) => {
      const at = this.locate(x);
      return [at.node, at.offset];
    });
  }

  /** Computes every node's span of produced offsets (only for callers that read them). */
  private fillNodeSpans(): void {
    [this.nodeStartCache, this.nodeEndCache] = pairsOf(this.nodes.length, (k) => {
      const span = this.spanOf(k);
      return [span.start, span.end];
    });
  }

  /** Whether raw offset `p` is a block mark. */
  private isMark(p: number): boolean {
    const i = countAtMost(this.marks, p) - 1;
    return i >= 0 && this.marks[i] === p;
  }

  /** The node whose data holds raw offset `p` (which must not be a mark). */
  private nodeAt(p: number): number {
    return countAtMost(this.rawStart, p) - 1;
  }

  /** Whether raw offset `p` is white space (a mark, or a white-space character of a node); false outside the raw text. */
  private isSpaceAt(p: number): boolean {
    if (p < 0) return false;
    if (this.isMark(p)) return true;
    const k = this.nodeAt(p);
    if (k < 0) return false;
    const data = (this.nodes[k] as Text).data;
    const i = p - (this.rawStart[k] as number);
    return i < data.length && isCollapsibleSpace(data.charCodeAt(i));
  }

  /** The long run (two or more characters) holding raw offset `p`, or -1. */
  private longRunAt(p: number): number {
    const i = countAtMost(this.runRaw, p) - 1;
    return i >= 0 && p < (this.runRaw[i] as number) + (this.runLength[i] as number) ? i : -1;
  }

  /** The offset of the rendered text produced from raw offset `p` (a run's first character gives its space). */
  private produced(p: number): number {
    const i = countAtMost(this.runRaw, p) - 1;
    let c = p;
    if (i >= 0) {
      const start = this.runRaw[i] as number;
      const end = start + (this.runLength[i] as number);
      const at = this.runAt[i] as number;
      c = p < end ? at : p - (end - 1 - at);
    }
    return Math.max(0, Math.min(this.text.length, c - this.lead));
  }

  /** The node character (node, offset) a run's collapsed space comes from: the run's first character a node holds. */
  private spaceSource(start: number, length: number): { node: number; offset: number } {
    for (let p = start; p < start + length; p++) {
      if (this.isMark(p)) continue;
      const k = this.nodeAt(p);
      return { node: k, offset: p - (this.rawStart[k] as number) };
    }
    return { node: -1, offset: -1 };
  }

  /** The (node index, offset in node) rendered offset `x` comes from; node -1 for a block-boundary space. */
  locate(x: number): { node: number; offset: number } {
    const c = x + this.lead;
    const i = countAtMost(this.runAt, c) - 1;
    let p = c;
    if (i >= 0) {
      const at = this.runAt[i] as number;
      const start = this.runRaw[i] as number;
      const length = this.runLength[i] as number;
      if (at === c) return this.spaceSource(start, length);
      p = c + (start - at) + length - 1;
    }
    if (this.isMark(p)) return { node: -1, offset: -1 };
    const k = this.nodeAt(p);
    return { node: k, offset: p - (this.rawStart[k] as number) };
  }

  /** The first and last visible characters of node `k` (offsets in its data), or null when it has none. */
  private visibleOf(k: number): { first: number; last: number } | null {
    const data = (this.nodes[k] as Text).data;
    let first = 0;
    while (first < data.length && isCollapsibleSpace(data.charCodeAt(first))) first++;
    if (first === data.length) return null;
    let last = data.length - 1;
    while (isCollapsibleSpace(data.charCodeAt(last))) last--;
    return { first, last };
  }

  /**
   * The rendered offsets produced while node `k` was read: `start` is where the text stood when it was reached (its
   * leading space, if one was produced, included), `end` where it stood after its last visible character.
   */
  private spanOf(k: number): { start: number; end: number; spaced: boolean; visible: { first: number; last: number } | null } {
    const a = this.rawStart[k] as number;
    const visible = this.visibleOf(k);
    if (!visible) {
      // Nothing of its own: the text stands where the next produced character goes (the pending space of a run
      // this node is in or just after, else the next visible character).
      const q = this.isSpaceAt(a - 1) ? a - 1 : a;
      const i = this.longRunAt(q);
      const at = this.produced(i >= 0 ? (this.runRaw[i] as number) : q);
      return { start: at, end: at, spaced: false, visible };
    }
    const first = this.produced(a + visible.first);
    const spaced = (visible.first > 0 || this.isSpaceAt(a - 1)) && first > 0;
    return { start: spaced ? first - 1 : first, end: this.produced(a + visible.last) + 1, spaced, visible };
  }

  /**
   * Offset in the rendered text of offset `offset` inside node `k`: the first character produced while reading the
   * node whose own offset in it is at or after `offset` (a leading space that came from elsewhere counts as before
   * every offset), else where the node's reading ended.
   */
  offsetInNode(k: number, offset: number): number {
    const { start, end, spaced, visible } = this.spanOf(k);
    if (!visible) return start;
    const a = this.rawStart[k] as number;
    const p = a + offset;
    if (offset <= visible.first) {
      if (spaced) {
        // The leading space counts when it came from this node at or after `offset`.
        const i = this.longRunAt(a + visible.first - 1);
        const source = i >= 0 ? this.spaceSource(this.runRaw[i] as number, this.runLength[i] as number) : this.spaceSource(a + visible.first - 1, 1);
        if (source.node === k && source.offset >= offset) return start;
      }
      return this.produced(a + visible.first);
    }
    if (offset > visible.last) return end;
    const data = (this.nodes[k] as Text).data;
    if (!isCollapsibleSpace(data.charCodeAt(offset))) return this.produced(p);
    // Inside a run between two visible characters of this node: its space counts when the run starts here.
    const i = this.longRunAt(p);
    if (i < 0 || this.runRaw[i] === p) return this.produced(p);
    return this.produced((this.runRaw[i] as number) + (this.runLength[i] as number));
  }
}

/** The (node index, offset in node) a normalised offset comes from; node -1 for a block-boundary space, null out of range. */
function locate(index: TextIndex, x: number): { node: number; offset: number } | null {
  if (x < 0 || x >= index.text.length) return null;
  if (index instanceof Index) return index.locate(x);
  return { node: index.charNode[x] ?? -1, offset: index.charOffset[x] ?? -1 };
}

/**
 * Walks a root in document order and accumulates its raw text: the text
 * nodes' data and the block marks, nothing read per character. The walk
 * can be paused after any number of nodes and resumed later, so large
 * pages can be read in slices between other main-thread work; the DOM must
 * not change between slices. `joinStep` then collapses the white space.
 */
export class TextIndexBuilder {
  private readonly nodes: Text[] = [];
  private parts: string[] = [];
  private readonly rawStart = new IntBuffer(256);
  private readonly marks = new IntBuffer(256);
  private rawLength = 0;
  /** The raw text once joined, and the rendered text once its white space is collapsed. */
  private raw: string | null = null;
  private text: string | null = null;
  private lead = 0;
  private runs: { raw: Int32Array; length: Int32Array; at: Int32Array } | null = null;
  /** The next node to visit, or null once the walk is over. */
  private next: Node | null;

  /** Starts a walk of `root` (nothing is read until `step`). */
  constructor(readonly root: Document | Element) {
    this.next = root.firstChild;
  }

  /** Whether the whole root has been read. */
  get done(): boolean {
    return this.next === null;
  }

  /** A block's start or end: one mark, none right after another (two add nothing one does not). */
  private mark(): void {
    const n = this.marks.length;
    if (n > 0 && this.marks.data[n - 1] === this.rawLength - 1) return;
    this.marks.push(this.rawLength);
    this.parts.push(BLOCK_MARK);
    this.rawLength++;
  }

  /** Reads up to `maxNodes` more nodes; returns true when the walk is complete. */
  step(maxNodes = Infinity): boolean {
    const root = this.root;
    let node = this.next;
    let budget = maxNodes;
    walk: while (node && budget-- > 0) {
      let descend = false;
      if (node.nodeType === TEXT_NODE) {
        const data = (node as Text).data;
        this.nodes.push(node as Text);
        this.rawStart.push(this.rawLength);
        this.parts.push(data);
        this.rawLength += data.length;
      } else if (node.nodeType === ELEMENT_NODE) {
        const el = node as Element;
        if (!isSkipped(el)) {
          if (isBlock(el)) this.mark();
          descend = el.firstChild !== null;
        }
      }
      if (descend && node.firstChild) {
        node = node.firstChild;
        continue;
      }
      // Move on: next sibling, or climb out of finished elements (closing their blocks).
      let cur: Node = node;
      for (;;) {
        if (cur === root) {
          node = null;
          break walk;
        }
        if (cur.nextSibling) {
          node = cur.nextSibling;
          continue walk;
        }
        const parent: Node | null = cur.parentNode;
        if (!parent || parent === root) {
          node = null;
          break walk;
        }
        if (parent.nodeType === ELEMENT_NODE && isBlock(parent as Element)) this.mark();
        cur = parent;
      }
    }
    this.next = node;
    return node === null;
  }

  /**
   * Does one piece of the work that remains once the walk is done (joining
   * the raw text; finding its runs of white space; collapsing them),
   * so a caller working in slices can yield between them; returns true when
   * nothing is left for `finish`.
   */
  joinStep(): boolean {
    if (!this.done) return this.step() && false;
    if (this.raw === null) {
      this.raw = this.parts.join('');
      this.parts = [];
      return false;
    }
    if (this.runs === null) {
      const raw = new IntBuffer(64);
      const length = new IntBuffer(64);
      const at = new IntBuffer(64);
      let shift = 0;
      LONG_RUN.lastIndex = 0;
      for (let m = LONG_RUN.exec(this.raw); m; m = LONG_RUN.exec(this.raw)) {
        raw.push(m.index);
        length.push(m[0].length);
        at.push(m.index - shift);
        shift += m[0].length - 1;
      }
      this.runs = { raw: raw.done(), length: length.done(), at: at.done() };
      return false;
    }
    if (this.text === null) {
      const collapsed = this.raw.replace(TO_COLLAPSE, ' ');
      this.raw = '';
      forgetLastSubject();
      this.lead = collapsed.charCodeAt(0) === 0x20 ? 1 : 0;
      const end = collapsed.length > this.lead && collapsed.charCodeAt(collapsed.length - 1) === 0x20 ? collapsed.length - 1 : collapsed.length;
      this.text = this.lead === 0 && end === collapsed.length ? collapsed : collapsed.slice(this.lead, end);
    }
    return true;
  }

  /** The finished index (reads and joins whatever is left first). */
  finish(): TextIndex {
    while (!this.joinStep());
    const runs = this.runs as { raw: Int32Array; length: Int32Array; at: Int32Array };
    return new Index(this.root, this.text as string, this.nodes, this.rawStart.done(), this.marks.done(), runs.raw, runs.length, runs.at, this.lead);
  }
}

/** Walks `root` once and builds its rendered text and offset map. */
export function buildTextIndex(root: Document | Element): TextIndex {
  return new TextIndexBuilder(root).finish();
}

/** Offset in the normalised text of offset `offset` inside indexed text node number `k`. */
function offsetInNode(index: TextIndex, k: number, offset: number): number {
  if (index instanceof Index) return index.offsetInNode(k, offset);
  const from = index.nodeStart[k] ?? 0;
  const to = index.nodeEnd[k] ?? from;
  // The first character whose own offset in node k is at or after `offset` (one of another node counts as before it).
  return (
    from +
    partitionPoint(to - from, (i) => {
      const x = from + i;
      return (index.charNode[x] === k ? (index.charOffset[x] ?? -1) : -1) < offset;
    })
  );
}

/** Next node in document order (optionally not entering `node`'s children), or null past the end of the tree. */
function nextInOrder(node: Node, root: Node, skipChildren: boolean): Node | null {
  if (!skipChildren && node.firstChild) return node.firstChild;
  let cur: Node | null = node;
  while (cur) {
    if (cur === root) return null;
    if (cur.nextSibling) return cur.nextSibling;
    cur = cur.parentNode;
  }
  return null;
}

/** Maps a DOM boundary point (as in a Range) to an offset of the index's normalised text. */
export function offsetOfBoundary(index: TextIndex, container: Node, offset: number): number {
  const own = index.nodeIds.get(container);
  if (own !== undefined) return offsetInNode(index, own, offset);
  let n: Node | null;
  if (container.nodeType === ELEMENT_NODE || container.nodeType === DOCUMENT_NODE || container.nodeType === 11) {
    n = container.childNodes[offset] ?? nextInOrder(container, index.root, true);
  } else {
    // A text node outside the index (skipped content), a comment or similar.
    n = nextInOrder(container, index.root, true);
  }
  while (n) {
    const k = index.nodeIds.get(n);
    if (k !== undefined) return offsetInNode(index, k, 0);
    n = nextInOrder(n, index.root, n.nodeType === ELEMENT_NODE && isSkipped(n as Element));
  }
  return index.text.length;
}

/** The [start, end) offsets of a Range in the index's normalised text, untrimmed. */
export function offsetsOfRange(range: Range, index: TextIndex): { start: number; end: number } {
  const start = offsetOfBoundary(index, range.startContainer, range.startOffset);
  const end = offsetOfBoundary(index, range.endContainer, range.endOffset);
  return { start, end: Math.max(start, end) };
}

/** Narrows [start, end) so it neither starts nor ends with a space. */
export function trimOffsets(text: string, start: number, end: number): { start: number; end: number } {
  let s = start;
  let e = end;
  while (s < e && text.charCodeAt(s) === 0x20) s++;
  while (e > s && text.charCodeAt(e - 1) === 0x20) e--;
  return { start: s, end: e };
}

/** The normalised, trimmed text a Range covers. */
export function textOfRange(range: Range, index: TextIndex): string {
  const { start, end } = offsetsOfRange(range, index);
  const t = trimOffsets(index.text, start, end);
  return index.text.slice(t.start, t.end);
}

/** The document that owns a root. */
export function ownerDocumentOf(root: Document | Element): Document {
  return root.nodeType === DOCUMENT_NODE ? (root as Document) : (root as Element).ownerDocument;
}

/** Builds a DOM Range covering normalised offsets [start, end), or null when they cover no character of a text node. */
export function rangeFromOffsets(index: TextIndex, start: number, end: number): Range | null {
  const n = index.text.length;
  const s0 = Math.max(0, Math.min(start, n));
  const e0 = Math.max(s0, Math.min(end, n));
  let s = s0;
  let first = locate(index, s);
  while (s < e0 && (!first || first.node < 0)) first = locate(index, ++s);
  let e = e0 - 1;
  let last = locate(index, e);
  while (e >= s && (!last || last.node < 0)) last = locate(index, --e);
  if (s >= e0 || e < s || !first || !last) return null;
  const startNode = index.nodes[first.node];
  const endNode = index.nodes[last.node];
  if (!startNode || !endNode) return null;
  const range = ownerDocumentOf(index.root).createRange();
  range.setStart(startNode, first.offset);
  range.setEnd(endNode, last.offset + 1);
  return range;
}
