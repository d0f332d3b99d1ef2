/**
 * The benchmark's peers, used as published on npm, behind one small adapter
 * each: `@apache-annotator/dom` (exact TextQuote matching),
 * `dom-anchor-text-quote` (diff-match-patch), and a matcher written here
 * around `approx-string-match` that scores candidates the way the Hypothesis
 * client describes its quote matching (quote 50, prefix 20, suffix 20,
 * position 2). All of them work on `root.textContent`, not on our rendered
 * text model.
 */
import * as apacheDom from '@apache-annotator/dom';
import search from 'approx-string-match';
import { toRange as textQuoteToRange } from 'dom-anchor-text-quote';
import { countAtMost, countBelow } from '../../lib/sorted';

/** The selectors a peer is given: the quote with its context, and a position hint in textContent offsets (null: none). */
export interface PeerSelectors {
  exact: string;
  prefix: string;
  suffix: string;
  hint: number | null;
}

/** A root's textContent with the map from its offsets back to text nodes. */
export interface RawText {
  readonly text: string;
  readonly nodes: readonly Text[];
  /** textContent offset at which each node of `nodes` starts. */
  readonly starts: Int32Array;
  /** Position of each text node in `nodes`. */
  readonly ids: ReadonlyMap<Node, number>;
}

/** Reads `root.textContent` as the peers see it (every Text descendant, script and style included), with its node map. */
export function readRawText(root: Node): RawText {
  const walker = (root.ownerDocument ?? (root as Document)).createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  const starts: number[] = [];
  const parts: string[] = [];
  const ids = new Map<Node, number>();
  let at = 0;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = n as Text;
    ids.set(t, nodes.length);
    nodes.push(t);
    starts.push(at);
    parts.push(t.data);
    at += t.data.length;
  }
  return { text: parts.join(''), nodes, starts: Int32Array.from(starts), ids };
}

/** The textContent offset of a boundary point that lies in a text node of `raw` (null otherwise). */
export function rawOffsetOf(raw: RawText, node: Node, offset: number): number | null {
  const k = raw.ids.get(node);
  return k === undefined ? null : (raw.starts[k] as number) + offset;
}

/** Index of the text node holding textContent offset `offset` (the last node starting at or before it). */
function nodeAt(raw: RawText, offset: number, isEnd: boolean): number {
  const n = raw.nodes.length;
  return Math.max(0, (isEnd ? countBelow(raw.starts, offset, n) : countAtMost(raw.starts, offset, n)) - 1);
}

/** A Range over textContent offsets [start, end), or null when empty or out of bounds. */
export function rangeFromRaw(raw: RawText, start: number, end: number): Range | null {
  if (!(end > start) || start < 0 || end > raw.text.length || raw.nodes.length === 0) return null;
  const a = nodeAt(raw, start, false);
  const b = nodeAt(raw, end, true);
  const sNode = raw.nodes[a] as Text;
  const eNode = raw.nodes[b] as Text;
  const range = (sNode.ownerDocument as Document).createRange();
  range.setStart(sNode, start - (raw.starts[a] as number));
  range.setEnd(eNode, end - (raw.starts[b] as number));
  return range;
}

// ── @apache-annotator/dom ──────────────────────────────────────────────────

/** The package's matcher factory, or undefined when the package could not be bundled (see `apacheUnavailable`). */
const createMatcher = (apacheDom as unknown as { createTextQuoteSelectorMatcher?: (s: object) => (scope: Node) => AsyncIterable<Range> })
  .createTextQuoteSelectorMatcher;

/** Why the Apache Annotator peer cannot run in this build, or null when it can. */
export function apacheUnavailable(): string | null {
  return typeof createMatcher === 'function' ? null : 'its runtime dependency @apache-annotator/selector is not installed';
}

/** `@apache-annotator/dom`: the first exact match of prefix+exact+suffix (the matcher yields matches in text order); null when none. */
export async function apacheMatch(root: Node, s: PeerSelectors): Promise<Range | null> {
  if (typeof createMatcher !== 'function') return null;
  const selector = { type: 'TextQuoteSelector', exact: s.exact, prefix: s.prefix || undefined, suffix: s.suffix || undefined };
  for await (const range of createMatcher(selector)(root)) return range;
  return null;
}

// ── dom-anchor-text-quote ──────────────────────────────────────────────────

/** `dom-anchor-text-quote`'s `toRange` with the stored context and the position hint; null when it finds nothing. */
export function textQuoteMatch(root: Node, s: PeerSelectors): Range | null {
  const options = s.hint === null ? {} : { hint: s.hint };
  return textQuoteToRange(root, { exact: s.exact, prefix: s.prefix || undefined, suffix: s.suffix || undefined }, options);
}

// ── approx-string-match, scored like the Hypothesis client ─────────────────

/** Weights of the Hypothesis-style score. */
const WEIGHTS = { quote: 50, prefix: 20, suffix: 20, position: 2 };

/** A located quote and its normalised score in [0, 1]. */
export interface ScoredMatch {
  start: number;
  end: number;
  score: number;
}

/** Every exact occurrence of `needle` as zero-error matches (the exact pass tried before the approximate one). */
function exactMatches(text: string, needle: string): Array<{ start: number; end: number; errors: number }> {
  const out: Array<{ start: number; end: number; errors: number }> = [];
  for (let p = text.indexOf(needle); p >= 0; p = text.indexOf(needle, p + 1)) out.push({ start: p, end: p + needle.length, errors: 0 });
  return out;
}

/** 1 − (edits to find `needle` in `window`) / |needle|; 0 when either is empty. */
function contextScore(window: string, needle: string): number {
  if (needle.length === 0 || window.length === 0) return 0;
  const found = search(window, needle, needle.length);
  const errors = found.length ? Math.min(...found.map((m) => m.errors)) : needle.length;
  return 1 - errors / needle.length;
}

/**
 * The Hypothesis-style quote search over a text: exact occurrences first,
 * else approximate ones with up to min(256, |quote|/2) edits; each candidate
 * is scored 50·quote + 20·prefix + 20·suffix + 2·position (normalised by the
 * weight sum) and the best one is returned. There is no confidence
 * threshold: any candidate found is used.
 */
export function hypothesisLikeMatch(text: string, s: PeerSelectors): ScoredMatch | null {
  const quote = s.exact;
  if (quote.length === 0) return null;
  let candidates = exactMatches(text, quote);
  if (candidates.length === 0) candidates = search(text, quote, Math.min(256, Math.floor(quote.length / 2)));
  if (candidates.length === 0) return null;
  const total = WEIGHTS.quote + WEIGHTS.prefix + WEIGHTS.suffix + WEIGHTS.position;
  let best: ScoredMatch | null = null;
  for (const m of candidates) {
    const q = 1 - m.errors / quote.length;
    const p = s.prefix ? contextScore(text.slice(Math.max(0, m.start - s.prefix.length), m.start), s.prefix) : 1;
    const x = s.suffix ? contextScore(text.slice(m.end, m.end + s.suffix.length), s.suffix) : 1;
    const pos = s.hint === null ? 1 : 1 - Math.abs(m.start - s.hint) / text.length;
    const score = (WEIGHTS.quote * q + WEIGHTS.prefix * p + WEIGHTS.suffix * x + WEIGHTS.position * pos) / total;
    if (!best || score > best.score) best = { start: m.start, end: m.end, score };
  }
  return best;
}

/** The Hypothesis-style matcher as a Range on `raw` (textContent read once per page by the caller). */
export function hypothesisLikeRange(raw: RawText, s: PeerSelectors): Range | null {
  const m = hypothesisLikeMatch(raw.text, s);
  return m ? rangeFromRaw(raw, m.start, m.end) : null;
}
