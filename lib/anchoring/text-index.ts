/**
 * The rendered-text model: the text of a DOM subtree as a curator sees and
 * copies it, with white space collapsed, plus a map from every offset of that
 * text back to a (text node, offset) pair. Built once per page and shared by
 * every anchor/describe call. Reading only: the DOM is never modified.
 */
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
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'center', 'col', 'colgroup',
  'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer',
  'form', 'frameset', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html', 'legend',
  'li', 'listing', 'main', 'menu', 'nav', 'ol', 'optgroup', 'option', 'p', 'plaintext', 'pre',
  'search', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'xmp',
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
  /** For each offset of `text`: index into `nodes`, or -1 for a space that stands for a block boundary. */
  readonly charNode: Int32Array;
  /** For each offset of `text`: the offset inside its text node (-1 for a block-boundary space). */
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

/** Walks `root` once and builds its rendered text and offset map. */
export function buildTextIndex(root: Document | Element): TextIndex {
  const nodes: Text[] = [];
  const nodeIds = new Map<Node, number>();
  const parts: string[] = [];
  const charNode = new IntBuffer(4096);
  const charOffset = new IntBuffer(4096);
  const nodeStart = new IntBuffer(256);
  const nodeEnd = new IntBuffer(256);
  let length = 0;
  // A pending collapsed space: emitted lazily before the next visible character,
  // mapped to the first real white-space character of its run when there is one.
  let pending = false;
  let pendingNode = -1;
  let pendingOffset = -1;

  const boundary = (): void => {
    pending = true;
  };

  const readText = (node: Text): void => {
    const k = nodes.length;
    nodes.push(node);
    nodeIds.set(node, k);
    nodeStart.push(length);
    const s = node.data;
    let runStart = -1;
    for (let i = 0; i < s.length; i++) {
      const code = s.charCodeAt(i);
      if (isCollapsibleSpace(code)) {
        if (runStart >= 0) {
          parts.push(s.slice(runStart, i));
          runStart = -1;
        }
        if (!pending || pendingNode < 0) {
          pendingNode = k;
          pendingOffset = i;
        }
        pending = true;
        continue;
      }
      if (pending) {
        if (length > 0) {
          if (runStart >= 0) {
            parts.push(s.slice(runStart, i));
            runStart = -1;
          }
          parts.push(' ');
          charNode.push(pendingNode);
          charOffset.push(pendingOffset);
          length++;
        }
        pending = false;
        pendingNode = -1;
        pendingOffset = -1;
      }
      if (runStart < 0) runStart = i;
      charNode.push(k);
      charOffset.push(i);
      length++;
    }
    if (runStart >= 0) parts.push(s.slice(runStart));
    nodeEnd.push(length);
  };

  let node: Node | null = root.firstChild;
  walk: while (node) {
    let descend = false;
    if (node.nodeType === TEXT_NODE) {
      readText(node as Text);
    } else if (node.nodeType === ELEMENT_NODE) {
      const el = node as Element;
      if (!isSkipped(el)) {
        if (isBlock(el)) boundary();
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
      if (cur === root) break walk;
      if (cur.nextSibling) {
        node = cur.nextSibling;
        continue walk;
      }
      const parent: Node | null = cur.parentNode;
      if (!parent || parent === root) break walk;
      if (parent.nodeType === ELEMENT_NODE && isBlock(parent as Element)) boundary();
      cur = parent;
    }
  }

  const text = parts.join('');
  return {
    root,
    text,
    folded: foldForComparison(text),
    nodes,
    charNode: charNode.done(),
    charOffset: charOffset.done(),
    nodeStart: nodeStart.done(),
    nodeEnd: nodeEnd.done(),
    nodeIds,
  };
}

/** Offset in the normalised text of offset `offset` inside indexed text node number `k`. */
function offsetInNode(index: TextIndex, k: number, offset: number): number {
  let lo = index.nodeStart[k] ?? 0;
  let hi = index.nodeEnd[k] ?? lo;
  // Characters of this node have increasing offsets; characters from earlier
  // nodes (a pending space) can only come first, so treat them as "before".
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const own = index.charNode[mid] === k ? (index.charOffset[mid] ?? -1) : -1;
    if (own < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
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
  while (s < e0 && (index.charNode[s] ?? -1) < 0) s++;
  let e = e0 - 1;
  while (e >= s && (index.charNode[e] ?? -1) < 0) e--;
  if (s >= e0 || e < s) return null;
  const startNode = index.nodes[index.charNode[s] ?? -1];
  const endNode = index.nodes[index.charNode[e] ?? -1];
  if (!startNode || !endNode) return null;
  const range = ownerDocumentOf(index.root).createRange();
  range.setStart(startNode, index.charOffset[s] ?? 0);
  range.setEnd(endNode, (index.charOffset[e] ?? 0) + 1);
  return range;
}
