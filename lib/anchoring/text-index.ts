/**
 * The rendered-text model: the text of a DOM subtree as a curator sees and
 * copies it, with white space collapsed, plus a map from every offset of that
 * text back to a (text node, offset) pair. Built once per page and shared by
 * every anchor/describe call. Reading only: the DOM is never modified.
 */
import { countAtMost, partitionPoint } from '../sorted';
import { foldForComparison, isCollapsibleSpace } from './normalize';

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
  /** `text` after comparison folding (same length, same offsets). */
  readonly folded: string;
  /** The text nodes that contributed, in document order. */
  readonly nodes: readonly Text[];
  /** For each offset of `text`: index into `nodes`, or -1 for a space that stands for a block boundary (computed on first use). */
  readonly charNode: Int32Array;
  /** For each offset of `text`: the offset inside its text node (-1 for a block-boundary space; computed on first use). */
  readonly charOffset: Int32Array;
  /** For each node: the first offset of `text` produced while reading it. */
  readonly nodeStart: Int32Array;
  /** For each node: the offset of `text` reached when it was fully read. */
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

/** Runs of collapsible white space. */
const SPACE_RUN = /[ \t\n\r\f\v\u00a0]+/g;
/** White space other than a single ordinary space between two visible characters. */
const NEEDS_COLLAPSE = /[\t\n\r\f\v\u00a0]| {2}/;

/** Pieces of text joined (and folded) into one chunk at a time while building: small enough that no single join or fold is long. */
const PARTS_PER_CHUNK = 4096;

/** No leading space was produced for a node (its first produced character is its own). */
const NO_LEAD = -2;

/**
 * The text index proper. The per-character map back to text nodes is not
 * stored: a character's node is found by binary search over the nodes'
 * offsets and its offset inside the node by re-reading that node, so
 * building stays fast and small on megabyte pages.
 */
class Index implements TextIndex {
  private charNodeCache: Int32Array | null = null;
  private charOffsetCache: Int32Array | null = null;
  private nodeIdsCache: Map<Node, number> | null = null;

  constructor(
    readonly root: Document | Element,
    readonly text: string,
    readonly folded: string,
    readonly nodes: readonly Text[],
    readonly nodeStart: Int32Array,
    readonly nodeEnd: Int32Array,
    /** For each node: the node the space produced before its first character maps to (-1 block boundary, NO_LEAD none). */
    readonly leadNode: Int32Array,
    /** For each node: the offset inside `leadNode` of that space. */
    readonly leadOffset: Int32Array,
  ) {}

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

  /** Computes the full per-character maps (only for callers that read them). */
  private fillCharMaps(): void {
    const cn = new Int32Array(this.text.length);
    const co = new Int32Array(this.text.length);
    for (let k = 0; k < this.nodes.length; k++) {
      eachProduced(this, k, (x, node, offset) => {
        cn[x] = node;
        co[x] = offset;
        return false;
      });
    }
    this.charNodeCache = cn;
    this.charOffsetCache = co;
  }
}

/**
 * Calls `visit(x, node, offset)` for each character node `k` produced, in
 * order: x is the offset in the normalised text, (node, offset) where the
 * character came from (node -1 for a block-boundary space). Stops early when
 * `visit` returns true; returns the x it stopped at, or the node's end.
 */
function eachProduced(index: Index, k: number, visit: (x: number, node: number, offset: number) => boolean): number {
  let x = index.nodeStart[k] as number;
  const end = index.nodeEnd[k] as number;
  if (x >= end) return end;
  const s = (index.nodes[k] as Text).data;
  let i = 0;
  while (i < s.length && isCollapsibleSpace(s.charCodeAt(i))) i++;
  const lead = index.leadNode[k] as number;
  if (lead !== NO_LEAD) {
    if (visit(x, lead, index.leadOffset[k] as number)) return x;
    x++;
  }
  let runStart = -1;
  for (; i < s.length && x < end; i++) {
    if (isCollapsibleSpace(s.charCodeAt(i))) {
      if (runStart < 0) runStart = i;
      continue;
    }
    if (runStart >= 0) {
      if (visit(x, k, runStart)) return x;
      x++;
      runStart = -1;
    }
    if (visit(x, k, i)) return x;
    x++;
  }
  return x;
}

/** The (node index, offset in node) a normalised offset comes from; node -1 for a block-boundary space, null out of range. */
function locate(index: TextIndex, x: number): { node: number; offset: number } | null {
  if (x < 0 || x >= index.text.length) return null;
  if (!(index instanceof Index)) {
    return { node: index.charNode[x] ?? -1, offset: index.charOffset[x] ?? -1 };
  }
  // The last node starting at or before x (the first node when none does).
  const first = Math.max(0, countAtMost(index.nodeStart, x) - 1);
  let found: { node: number; offset: number } | null = null;
  eachProduced(index, first, (at, node, offset) => {
    if (at !== x) return false;
    found = { node, offset };
    return true;
  });
  return found;
}

/**
 * Walks a root in document order and accumulates its rendered text and offset
 * map. The walk can be paused after any number of nodes and resumed later, so
 * large pages can be read in slices between other main-thread work; the DOM
 * must not change between slices.
 */
export class TextIndexBuilder {
  private readonly nodes: Text[] = [];
  private readonly parts: string[] = [];
  /** Joined runs of `parts` (comparison folding is per character, so chunks fold independently). */
  private readonly chunks: string[] = [];
  private readonly foldedChunks: string[] = [];
  /** The joined text and folded text, once `joinStep` has made them. */
  private text: string | null = null;
  private folded: string | null = null;
  private readonly nodeStart = new IntBuffer(256);
  private readonly nodeEnd = new IntBuffer(256);
  private readonly leadNode = new IntBuffer(256);
  private readonly leadOffset = new IntBuffer(256);
  private length = 0;
  // A pending collapsed space: emitted lazily before the next visible character,
  // mapped to the first real white-space character of its run when there is one.
  private pending = false;
  private pendingNode = -1;
  private pendingOffset = -1;
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

  /** Characters of rendered text read so far. */
  get textLength(): number {
    return this.length;
  }

  /** Reads up to `maxNodes` more nodes; returns true when the walk is complete. */
  step(maxNodes = Infinity): boolean {
    const root = this.root;
    let node = this.next;
    let budget = maxNodes;
    walk: while (node && budget-- > 0) {
      let descend = false;
      if (node.nodeType === TEXT_NODE) {
        this.readText(node as Text);
        if (this.parts.length >= PARTS_PER_CHUNK) this.flush(false);
      } else if (node.nodeType === ELEMENT_NODE) {
        const el = node as Element;
        if (!isSkipped(el)) {
          if (isBlock(el)) this.pending = true;
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
        if (parent.nodeType === ELEMENT_NODE && isBlock(parent as Element)) this.pending = true;
        cur = parent;
      }
    }
    this.next = node;
    return node === null;
  }

  /** Joins the pieces read so far into one chunk (and its folded twin) once there are enough, so no single join gets large. */
  private flush(force: boolean): void {
    if (this.parts.length === 0 || (!force && this.parts.length < PARTS_PER_CHUNK)) return;
    const chunk = this.parts.join('');
    this.parts.length = 0;
    this.chunks.push(chunk);
    this.foldedChunks.push(foldForComparison(chunk));
  }

  /**
   * Does one piece of the work that remains once the walk is done (joining
   * the text, then its folded twin), so a caller working in slices can yield
   * between them; returns true when nothing is left for `finish`.
   */
  joinStep(): boolean {
    if (!this.done) return this.step() && false;
    if (this.text === null) {
      this.flush(true);
      this.text = this.chunks.length === 1 ? (this.chunks[0] as string) : this.chunks.join('');
      return false;
    }
    if (this.folded === null) this.folded = this.foldedChunks.length === 1 ? (this.foldedChunks[0] as string) : this.foldedChunks.join('');
    return true;
  }

  /** The finished index (reads and joins whatever is left first). */
  finish(): TextIndex {
    while (!this.joinStep());
    const text = this.text as string;
    const folded = this.folded as string;
    return new Index(this.root, text, folded, this.nodes, this.nodeStart.done(), this.nodeEnd.done(), this.leadNode.done(), this.leadOffset.done());
  }

  /** Appends one text node's characters: white-space runs become one space, produced lazily before the next visible character. */
  private readText(node: Text): void {
    const k = this.nodes.length;
    this.nodes.push(node);
    this.nodeStart.push(this.length);
    const s = node.data;
    const n = s.length;
    let first = 0;
    while (first < n && isCollapsibleSpace(s.charCodeAt(first))) first++;
    if (first > 0 && (!this.pending || this.pendingNode < 0)) {
      this.pendingNode = k;
      this.pendingOffset = 0;
    }
    if (first > 0) this.pending = true;
    if (first === n) {
      this.leadNode.push(NO_LEAD);
      this.leadOffset.push(-1);
      this.nodeEnd.push(this.length);
      return;
    }
    if (this.pending && this.length > 0) {
      this.parts.push(' ');
      this.length++;
      this.leadNode.push(this.pendingNode);
      this.leadOffset.push(this.pendingOffset);
    } else {
      this.leadNode.push(NO_LEAD);
      this.leadOffset.push(-1);
    }
    this.pending = false;
    this.pendingNode = -1;
    this.pendingOffset = -1;
    let last = n - 1;
    while (isCollapsibleSpace(s.charCodeAt(last))) last--;
    const body = first === 0 && last === n - 1 ? s : s.slice(first, last + 1);
    const produced = NEEDS_COLLAPSE.test(body) ? body.replace(SPACE_RUN, ' ') : body;
    this.parts.push(produced);
    this.length += produced.length;
    if (last < n - 1) {
      this.pending = true;
      this.pendingNode = k;
      this.pendingOffset = last + 1;
    }
    this.nodeEnd.push(this.length);
  }
}

/** Walks `root` once and builds its rendered text and offset map. */
export function buildTextIndex(root: Document | Element): TextIndex {
  return new TextIndexBuilder(root).finish();
}

/** Offset in the normalised text of offset `offset` inside indexed text node number `k`. */
function offsetInNode(index: TextIndex, k: number, offset: number): number {
  if (index instanceof Index) {
    // The first produced character whose own offset in this node is at or after `offset`
    // (a leading space from an earlier node counts as before every offset).
    return eachProduced(index, k, (_x, node, own) => (node === k ? own : -1) >= offset);
  }
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
