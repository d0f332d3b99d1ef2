/**
 * The in-page half of the real-revisions benchmark (revisions.mjs), bundled
 * into one IIFE that defines `globalThis.RLRevisions`: the corpus's rendered
 * text model with a map from DOM boundary points to its offsets (so any
 * painted or returned Range is judged in the offsets of `cases.json`), the
 * position hints the peers would have stored on the old page (textContent
 * offsets), and the three peers run on the new page.
 */
import { apacheMatch, hypothesisLikeRange, readRawText, rawOffsetOf, textQuoteMatch, type PeerSelectors } from './peers';

/** The corpus's text model (cases.json → renderedText): elements skipped, elements read as a separator, white-space code units. */
export interface TextRule {
  skip: string[];
  block: string[];
  whitespace: number[];
}

/** The rendered text of the document and, per text node, the output offset before each of its code units. */
interface Rendered {
  text: string;
  nodes: Text[];
  /** For each node: out[i] = output offset of code unit i when it was emitted, else -1 (white space). */
  emitted: Int32Array[];
}

/** Walks the document as the corpus's reference function does, recording where every code unit went. */
function render(rule: TextRule): Rendered {
  const skip = new Set(rule.skip);
  const block = new Set(rule.block);
  const ws = new Set(rule.whitespace);
  const parts: string[] = [];
  let length = 0;
  let pending = false;
  const nodes: Text[] = [];
  const emitted: Int32Array[] = [];
  const visit = (node: Node): void => {
    if (node.nodeType === 3) {
      const t = node as Text;
      const map = new Int32Array(t.data.length).fill(-1);
      for (let i = 0; i < t.data.length; i++) {
        if (ws.has(t.data.charCodeAt(i))) {
          pending = true;
          continue;
        }
        if (pending && length > 0) {
          parts.push(' ');
          length++;
        }
        pending = false;
        map[i] = length;
        parts.push(t.data[i] as string);
        length++;
      }
      nodes.push(t);
      emitted.push(map);
      return;
    }
    if (node.nodeType === 1) {
      const el = node as Element;
      if (skip.has(el.localName) || el.hasAttribute('hidden')) return;
      const isBlock = block.has(el.localName);
      if (isBlock) pending = true;
      for (let c = el.firstChild; c; c = c.nextSibling) visit(c);
      if (isBlock) pending = true;
      return;
    }
    if (node.nodeType === 9 || node.nodeType === 11) for (let c = node.firstChild; c; c = c.nextSibling) visit(c);
  };
  visit(document);
  return { text: parts.join(''), nodes, emitted };
}

/** The index (in `ids`) of the first rendered text node at or after a boundary point, with the offset inside it (0 when the point is before it). */
function pointOf(ids: Map<Node, number>, container: Node, offset: number): [number, number] | null {
  if (container.nodeType === 3 && ids.has(container)) return [ids.get(container) as number, offset];
  let n: Node | null = container.nodeType === 3 ? null : (container.childNodes[offset] ?? null);
  if (!n) {
    // After the container (or its last child): the next node after the container in document order.
    let cur: Node | null = container;
    while (cur && !cur.nextSibling) cur = cur.parentNode;
    n = cur?.nextSibling ?? null;
  }
  if (!n) return null;
  const walker = document.createTreeWalker(document, NodeFilter.SHOW_TEXT);
  walker.currentNode = n;
  for (let t: Node | null = n.nodeType === 3 ? n : walker.nextNode(); t; t = walker.nextNode()) {
    const k = ids.get(t);
    if (k !== undefined) return [k, 0];
  }
  return null;
}

/** Maps a Range to [start, end) offsets of the rendered text (the emitted characters it covers), or null when it covers none. */
function offsetsOf(r: Rendered, ids: Map<Node, number>, range: Range): [number, number] | null {
  const a = pointOf(ids, range.startContainer, range.startOffset);
  const b = pointOf(ids, range.endContainer, range.endOffset) ?? [r.nodes.length, 0];
  if (!a) return null;
  let start = -1;
  // The first emitted code unit at or after the start…
  for (let k = a[0], i = a[1]; k < r.nodes.length && start < 0; k++, i = 0) {
    const map = r.emitted[k] as Int32Array;
    for (; i < map.length && start < 0; i++) if ((map[i] as number) >= 0) start = map[i] as number;
  }
  let end = -1;
  // …and the last one before the end.
  for (let k = Math.min(b[0], r.nodes.length - 1), first = true; k >= 0 && end < 0; k--, first = false) {
    const map = r.emitted[k] as Int32Array;
    for (let i = (first && b[0] < r.nodes.length ? b[1] : map.length) - 1; i >= 0 && end < 0; i--) if ((map[i] as number) >= 0) end = (map[i] as number) + 1;
  }
  if (start < 0 || end <= start) return null;
  return [start, end];
}

let cached: { rule: TextRule; rendered: Rendered; ids: Map<Node, number> } | null = null;

/** The rendered text of the current document (computed once per page). */
function rendered(rule: TextRule): { rendered: Rendered; ids: Map<Node, number> } {
  if (!cached || cached.rule !== rule) {
    const r = render(rule);
    const ids = new Map<Node, number>();
    r.nodes.forEach((n, k) => ids.set(n, k));
    cached = { rule, rendered: r, ids };
  }
  return cached;
}

/** The peers the benchmark runs. */
export type PeerName = 'hypothesis' | 'text-quote' | 'apache';

/** One peer's answer for one passage: offsets in the rendered text, null (nothing returned) or 'error'. */
export type PeerAnswer = [number, number] | null | 'error' | 'skipped';

const api = {
  /** The rendered text of this page under the corpus's rule. */
  text(rule: TextRule): string {
    cached = null;
    return rendered(rule).rendered.text;
  },

  /** The textContent offsets of rendered-text offsets on this (old) page: the position hints the peers would have stored. */
  hints(rule: TextRule, starts: number[]): Array<number | null> {
    cached = null;
    const { rendered: r } = rendered(rule);
    const raw = readRawText(document.body);
    return starts.map((s) => {
      for (let k = 0; k < r.nodes.length; k++) {
        const map = r.emitted[k] as Int32Array;
        for (let i = 0; i < map.length; i++) if (map[i] === s) return rawOffsetOf(raw, r.nodes[k] as Text, i);
      }
      return null;
    });
  },

  /** Every range painted under a highlight whose name matches `pattern`, as rendered-text offsets, by highlight name. */
  painted(rule: TextRule, pattern: string): Record<string, Array<[number, number] | null>> {
    cached = null;
    const { rendered: r, ids } = rendered(rule);
    const re = new RegExp(pattern);
    const out: Record<string, Array<[number, number] | null>> = {};
    CSS.highlights.forEach((h, name) => {
      if (!re.test(name)) return;
      out[name] = [...h].map((range) => offsetsOf(r, ids, range as Range));
    });
    return out;
  },

  /** Runs one peer on every passage (in order) on this (new) page, within `budgetMs`; answers as rendered-text offsets. */
  async run(rule: TextRule, peer: PeerName, passages: PeerSelectors[], budgetMs: number): Promise<{ answers: PeerAnswer[]; ms: number }> {
    cached = null;
    const { rendered: r, ids } = rendered(rule);
    const raw = peer === 'hypothesis' ? readRawText(document.body) : null;
    const answers: PeerAnswer[] = [];
    const t0 = performance.now();
    for (const p of passages) {
      if (performance.now() - t0 > budgetMs) {
        answers.push('skipped');
        continue;
      }
      try {
        const range =
          peer === 'hypothesis'
            ? hypothesisLikeRange(raw as ReturnType<typeof readRawText>, p)
            : peer === 'text-quote'
              ? textQuoteMatch(document.body, p)
              : await apacheMatch(document.body, p);
        answers.push(range ? offsetsOf(r, ids, range) : null);
      } catch {
        answers.push('error');
      }
    }
    return { answers, ms: performance.now() - t0 };
  },
};

(globalThis as unknown as { RLRevisions: typeof api }).RLRevisions = api;
