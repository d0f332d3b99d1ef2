/**
 * The in-page half of the anchoring benchmark, bundled into one IIFE and
 * injected into each benchmark page: it picks the passages and describes
 * them with our `describe`, edits the live DOM while live Ranges keep track
 * of where every passage went (the known right answers), runs our anchoring
 * and each peer on the same root with the same selectors, and classifies
 * every answer as right, orphan or wrong.
 */
import {
  anchorAll,
  anchorAllAsync,
  buildTextIndex,
  buildTextIndexAsync,
  describe,
  foldForComparison,
  normalizeQuoteText,
  collapseWhiteSpace,
  offsetsOfRange,
  rangeFromOffsets,
  trimOffsets,
  type AnchorSelectors,
  type TextIndex,
} from '../../../lib/anchoring';
import { anchorAtPosition, anchorExactPass, anchorFuzzyPass, Landmarks, prepareSelectors, type PreparedSelectors } from '../../../lib/anchoring/anchor';
import { HighlightPainter, type PaintedClaim } from '../../../lib/paint';
import { CLAIM_KINDS, type ClaimKind, type Position, type Quote } from '../../../lib/schema';
import { createRandom, type Random } from '../harness/prng.mjs';
import { apacheMatch, apacheUnavailable, hypothesisLikeRange, readRawText, rawOffsetOf, textQuoteMatch, type PeerSelectors, type RawText } from './peers';

/** The matchers the benchmark compares. */
export type MatcherName = 'ours' | 'apache' | 'text-quote' | 'hypothesis';

/** How one answer was judged. */
export type Verdict = 'right' | 'orphan' | 'wrong' | 'skipped';

/** One passage under test, with its live Range in the page. */
interface Passage {
  id: string;
  kind: string;
  edit: string;
  range: Range;
  deleted: boolean;
  stored: AnchorSelectors & { quote: Quote; position: Position };
  /** The same passage as the peers are given it: our stored quote, hint mapped to textContent offsets. */
  peer: PeerSelectors;
  /** The selectors a peer would have stored itself (quote and 32-character context read from textContent). */
  native: PeerSelectors;
  originalText: string;
  expected: { start: number; end: number } | null;
}

/** A record-like quote to locate on a real page. */
export interface RecordQuote {
  id: string;
  quote: Quote;
}

/** Options of `prepare`. */
export interface PrepareOptions {
  seed: number;
  /** Curator records to locate (fixture pages). */
  records?: RecordQuote[];
  /** Random passages to add (fixture pages). */
  random?: number;
}

/** A passage as returned to Node (for the JSONL import and the report). */
export interface PassageInfo {
  id: string;
  kind: string;
  quote: Quote;
  position: Position;
}

/** Result of one matcher over one page variant. */
export interface RunResult {
  matcher: MatcherName;
  mode: 'stored' | 'native';
  ms: number;
  attempted: number;
  counts: Record<Verdict, number>;
  byEdit: Record<string, Record<Verdict, number>>;
  byKind: Record<string, Record<Verdict, number>>;
  samples: Array<{
    id: string;
    kind: string;
    edit: string;
    verdict: Verdict;
    expected: string | null;
    got: string | null;
    stored: Quote;
    around: string | null;
  }>;
  /** One letter per attempted-or-not passage in order: r(ight), o(rphan), w(rong), s(kipped). */
  verdicts: string;
  error?: string;
}

const state: { root: HTMLElement; passages: Passage[]; check: TextIndex | null } = {
  root: document.body,
  passages: [],
  check: null,
};

const CONTEXT = 32;

/** The textContent offsets of a live range whose boundaries are in text nodes. */
function rawSpan(raw: RawText, range: Range): { start: number; end: number } {
  const s = rawOffsetOf(raw, range.startContainer, range.startOffset);
  const e = rawOffsetOf(raw, range.endContainer, range.endOffset);
  if (s === null || e === null) throw new Error('passage boundary outside a text node');
  return { start: s, end: e };
}

/** Picks the passages (marked spans, records, random spans) and describes each with our `describe`. */
function prepare(options: PrepareOptions): PassageInfo[] {
  const root = document.body;
  state.root = root;
  const index = buildTextIndex(root);
  const r = createRandom(options.seed);
  const spans: Array<{ id: string; kind: string; start: number; end: number }> = [];
  const add = (id: string, kind: string, start: number, end: number): boolean => {
    const t = trimOffsets(index.text, start, end);
    if (t.end <= t.start) return false;
    if (spans.some((s) => t.start < s.end + 1 && s.start < t.end + 1)) return false;
    spans.push({ id, kind, start: t.start, end: t.end });
    return true;
  };
  // Passages marked by the generator.
  for (const el of document.querySelectorAll<HTMLElement>('[data-rlp]')) {
    const range = document.createRange();
    range.selectNodeContents(el);
    const o = offsetsOfRange(range, index);
    add(el.dataset.rlp as string, el.dataset.kind ?? 'marked', o.start, o.end);
  }
  for (const el of document.querySelectorAll<HTMLElement>('[data-rlp-start]')) {
    const id = el.dataset.rlpStart as string;
    const end = document.querySelector(`[data-rlp-end="${id}"]`);
    if (!end) continue;
    const range = document.createRange();
    range.setStartBefore(el);
    range.setEndAfter(end);
    const o = offsetsOfRange(range, index);
    add(id, el.dataset.kind ?? 'marked', o.start, o.end);
  }
  // Curator records: the unique place where prefix+exact+suffix (else exact alone) occurs.
  for (const rec of options.records ?? []) {
    const exact = foldForComparison(normalizeQuoteText(rec.quote.exact));
    const prefix = foldForComparison(collapseWhiteSpace(rec.quote.prefix ?? ''));
    const suffix = foldForComparison(collapseWhiteSpace(rec.quote.suffix ?? ''));
    const all = occurrences(index.folded, exact);
    const withContext = all.filter((p) => index.folded.slice(p - prefix.length, p) === prefix && index.folded.startsWith(suffix, p + exact.length));
    const at = withContext.length === 1 ? withContext[0] : all.length === 1 ? all[0] : undefined;
    if (at === undefined) throw new Error(`record ${rec.id} does not occur once on the page`);
    add(rec.id, 'record', at, at + exact.length);
  }
  // Random passages that start and end on word boundaries.
  const text = index.text;
  let made = 0;
  for (let tries = 0; made < (options.random ?? 0) && tries < 5000; tries++) {
    let s = r.int(0, Math.max(0, text.length - 20));
    while (s > 0 && s < text.length && text[s - 1] !== ' ') s++;
    let e = s + (r.chance(0.2) ? r.int(8, 30) : r.int(30, 240));
    while (e < text.length && text[e] !== ' ') e++;
    if (e > text.length || e - s < 8) continue;
    if (add(`rnd-${options.seed}-${made}`, 'random', s, e)) made++;
  }
  const raw = readRawText(root);
  state.passages = spans.map((s) => {
    const range = rangeFromOffsets(index, s.start, s.end);
    if (!range) throw new Error(`passage ${s.id} maps to no text`);
    const d = describe(range, root, index);
    const span = rawSpan(raw, range);
    return {
      id: s.id,
      kind: s.kind,
      edit: 'none',
      range,
      deleted: false,
      stored: { quote: d.quote, position: d.position },
      peer: { exact: d.quote.exact, prefix: d.quote.prefix ?? '', suffix: d.quote.suffix ?? '', hint: span.start },
      native: {
        exact: raw.text.slice(span.start, span.end),
        prefix: raw.text.slice(Math.max(0, span.start - CONTEXT), span.start),
        suffix: raw.text.slice(span.end, span.end + CONTEXT),
        hint: span.start,
      },
      originalText: d.quote.exact,
      expected: { start: d.position.start, end: d.position.end },
    };
  });
  return state.passages.map((p) => ({ id: p.id, kind: p.kind, quote: p.stored.quote, position: p.stored.position }));
}

/** Start offsets of every occurrence of `needle` in `hay`. */
function occurrences(hay: string, needle: string): number[] {
  const out: number[] = [];
  if (!needle) return out;
  for (let p = hay.indexOf(needle); p >= 0; p = hay.indexOf(needle, p + 1)) out.push(p);
  return out;
}

// ── Edits ──────────────────────────────────────────────────────────────────

const NEW_WORDS = ['revised', 'updated', 'modified', 'another', 'refined', 'adjusted', 'tuned', 'changed', 'altered', 'extended'];
const CJK_CHARS = ['新', '改', '换', '调', '增'];
const INSERTED = [
  'Update: this part was revised after review.',
  'Note that the setup changed in the second version.',
  'We thank the reviewers for this suggestion.',
  'Code for this step is now public.',
];

/** The text nodes a live range touches, with the part of each inside the range. */
function segments(range: Range): Array<{ node: Text; from: number; to: number }> {
  const out: Array<{ node: Text; from: number; to: number }> = [];
  const walker = document.createTreeWalker(state.root, NodeFilter.SHOW_TEXT);
  let node: Node | null = range.startContainer;
  if (node.nodeType !== 3) return out;
  walker.currentNode = node;
  while (node) {
    const t = node as Text;
    const from = t === range.startContainer ? range.startOffset : 0;
    const to = t === range.endContainer ? range.endOffset : t.data.length;
    if (to > from) out.push({ node: t, from, to });
    if (t === range.endContainer) break;
    node = walker.nextNode();
  }
  return out;
}

/** Words strictly inside a passage (never its first or last word), as [node, offset, length]. */
function innerWords(p: Passage, re: RegExp): Array<{ node: Text; at: number; len: number }> {
  const segs = segments(p.range);
  const all: Array<{ node: Text; at: number; len: number }> = [];
  for (const s of segs) {
    const piece = s.node.data.slice(s.from, s.to);
    for (const m of piece.matchAll(re)) all.push({ node: s.node, at: s.from + (m.index ?? 0), len: m[0].length });
  }
  return all.slice(1, -1);
}

/** Changes 1–3 words (or CJK characters) inside the passage; false when it has too few. */
function reword(p: Passage, r: Random): boolean {
  const cjk = /[\u4e00-\u9fff]/.test(p.originalText);
  const cands = innerWords(p, cjk ? /[\u4e00-\u9fff]/g : /[A-Za-z]{3,}/g);
  const length = p.originalText.length;
  const n = Math.min(cands.length, length < 60 ? 1 : length < 140 ? r.int(1, 2) : r.int(1, 3));
  if (length < 24 || n === 0) return false;
  const chosen = new Set<number>();
  while (chosen.size < n) chosen.add(r.int(0, cands.length - 1));
  // Right to left, so earlier offsets in a node stay valid.
  for (const i of [...chosen].sort((a, b) => b - a)) {
    const w = cands[i]!;
    const old = w.node.data.slice(w.at, w.at + w.len);
    let next = cjk ? r.pick(CJK_CHARS) : r.pick(NEW_WORDS);
    if (next === old) next = cjk ? '替' : 'other';
    w.node.replaceData(w.at, w.len, next);
  }
  return true;
}

/** Re-wraps the passage's source: every space inside it becomes a line break and indentation. */
function rewrapInside(p: Passage): boolean {
  let changed = false;
  for (const s of segments(p.range).reverse()) {
    for (let i = s.to - 2; i > s.from; i--) {
      if (s.node.data.charCodeAt(i) === 0x20) {
        s.node.replaceData(i, 1, '\n        ');
        changed = true;
      }
    }
  }
  return changed;
}

/** Wraps a few words in the middle of the passage in a new inline element. */
function split(p: Passage, r: Random): boolean {
  const segs = segments(p.range).filter((s) => s.to - s.from >= 12);
  if (!segs.length) return false;
  const s = r.pick(segs);
  const a = s.from + 2 + r.int(0, Math.floor((s.to - s.from - 6) / 2));
  const b = Math.min(s.to - 2, a + r.int(3, 20));
  if (b <= a) return false;
  const sub = document.createRange();
  sub.setStart(s.node, a);
  sub.setEnd(s.node, b);
  const tag = r.pick(['em', 'a', 'b', 'span', 'code']);
  const el = document.createElement(tag);
  if (tag === 'a') el.setAttribute('href', '#new-link');
  sub.surroundContents(el);
  return true;
}

/** Inserts a sentence right before (or after) the passage, in the same paragraph. */
function insertNear(p: Passage, r: Random, before: boolean): boolean {
  const cjk = /[\u4e00-\u9fff]/.test(p.originalText);
  const words = cjk ? '（此处内容已更新）' : r.pick(INSERTED);
  if (before) {
    const node = p.range.startContainer as Text;
    const at = p.range.startOffset;
    if (at > 0 && node.data.charCodeAt(at - 1) === 0x20) node.insertData(at - 1, ` ${words}`);
    else if (at === 0 && node.parentNode) node.parentNode.insertBefore(document.createTextNode(`${words} `), node);
    else node.insertData(at - 1 < 0 ? 0 : at - 1, cjk ? words : ` ${words} `);
  } else {
    const node = p.range.endContainer as Text;
    node.insertData(p.range.endOffset, cjk ? words : ` ${words}`);
  }
  return true;
}

/** Applies one edit to each passage (by weight) and then page-wide edits around them; returns how many of each. */
function edit(seed: number): Record<string, number> {
  const r = createRandom(seed);
  const counts: Record<string, number> = {};
  const weights: Array<[string, number]> = [
    ['none', 28],
    ['reword', 22],
    ['rewrap', 12],
    ['split', 12],
    ['insert-before', 8],
    ['insert-after', 8],
    ['delete', 10],
  ];
  const total = weights.reduce((n, [, w]) => n + w, 0);
  for (const p of state.passages) {
    let roll = r.next() * total;
    let kind = 'none';
    for (const [k, w] of weights) {
      if ((roll -= w) < 0) {
        kind = k;
        break;
      }
    }
    let done = true;
    if (kind === 'reword') done = reword(p, r);
    else if (kind === 'rewrap') done = rewrapInside(p);
    else if (kind === 'split') done = split(p, r);
    else if (kind === 'insert-before') done = insertNear(p, r, true);
    else if (kind === 'insert-after') done = insertNear(p, r, false);
    else if (kind === 'delete') {
      p.range.deleteContents();
      p.deleted = true;
    }
    p.edit = done ? kind : 'none';
    counts[p.edit] = (counts[p.edit] ?? 0) + 1;
  }
  // Top-level blocks (not inside another listed block), and for each passage the
  // span of top-level blocks it covers: page-wide edits never touch those.
  const BLOCK_SELECTOR = 'p, table, pre, h1, h2, h3, h4, ul, ol, blockquote, dl';
  const blocks = [...state.root.querySelectorAll(BLOCK_SELECTOR)].filter((b) => !b.parentElement?.closest(BLOCK_SELECTOR));
  const order = new Map<Element, number>(blocks.map((b, i) => [b, i]));
  const blockOf = (n: Node): number => {
    let el: Element | null = n.nodeType === 1 ? (n as Element) : n.parentElement;
    let top = -1;
    while (el && el !== state.root) {
      const k = order.get(el);
      if (k !== undefined) top = k;
      el = el.parentElement;
    }
    return top;
  };
  const touched = new Uint8Array(blocks.length + 1);
  const spanning = new Uint8Array(blocks.length + 1);
  const loose: Range[] = [];
  for (const p of state.passages) {
    if (p.deleted) continue;
    const a = blockOf(p.range.startContainer);
    const b = blockOf(p.range.endContainer);
    if (a < 0 || b < 0) {
      loose.push(p.range);
      continue;
    }
    for (let i = a; i <= b; i++) touched[i] = 1;
    for (let i = a; i < b; i++) spanning[i] = 1;
  }
  const insideLoose = (b: Element): boolean => loose.some((range) => range.intersectsNode(b));
  // A banner at the top.
  const banner = document.createElement('div');
  banner.className = 'banner';
  const bannerText = document.createElement('p');
  const bold = document.createElement('b');
  bold.textContent = 'corrections';
  const link = document.createElement('a');
  link.href = '#v2';
  link.textContent = 'See what changed';
  bannerText.append('New version available: this page was updated with ', bold, ' and a new appendix. ', link, '.');
  banner.append(bannerText);
  state.root.insertBefore(banner, state.root.firstChild);
  // New paragraphs between blocks, some blocks removed, some re-wrapped — never inside a passage.
  let inserted = 0;
  let removed = 0;
  let rewrapped = 0;
  blocks.forEach((b, i) => {
    const roll = r.next();
    if (roll < 0.05) {
      if (spanning[i] || !b.parentNode || insideLoose(b)) return;
      const para = document.createElement('p');
      para.textContent = `${r.pick(INSERTED)} ${r.pick(INSERTED)} Added paragraph ${inserted + 1} discusses a ${r.pick(NEW_WORDS)} result in more detail than before.`;
      b.parentNode.insertBefore(para, b.nextSibling);
      inserted++;
    } else if (roll < 0.08 && b.localName === 'p' && !touched[i] && !insideLoose(b)) {
      b.remove();
      removed++;
    } else if (roll < 0.3 && b.localName === 'p' && !touched[i] && !insideLoose(b)) {
      for (const t of textNodesOf(b)) t.data = t.data.replace(/ /g, '\n    ');
      rewrapped++;
    }
  });
  counts['page: paragraphs inserted'] = inserted;
  counts['page: paragraphs removed'] = removed;
  counts['page: paragraphs re-wrapped'] = rewrapped;
  return counts;
}

/** The text nodes under an element. */
function textNodesOf(el: Node): Text[] {
  const out: Text[] = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push(n as Text);
  return out;
}

/** Fixes the right answers for the current DOM (normalised offsets of each passage's live range, or null when deleted). */
function expect(): { passages: number; deleted: number; textChanged: number; unchangedMismatch: number; chars: number; rawChars: number } {
  const index = buildTextIndex(state.root);
  state.check = index;
  let deleted = 0;
  let textChanged = 0;
  let unchangedMismatch = 0;
  for (const p of state.passages) {
    if (p.deleted || p.range.collapsed) {
      p.expected = null;
      deleted++;
      continue;
    }
    const o = offsetsOfRange(p.range, index);
    const t = trimOffsets(index.text, o.start, o.end);
    p.expected = t;
    const now = index.text.slice(t.start, t.end);
    if (now !== p.originalText) {
      textChanged++;
      if (p.edit !== 'reword') unchangedMismatch++;
    }
  }
  return { passages: state.passages.length, deleted, textChanged, unchangedMismatch, chars: index.text.length, rawChars: state.root.textContent?.length ?? 0 };
}

/** Judges one answer (normalised offsets, or null for an orphan) against a passage's right answer. */
function judge(p: Passage, got: { start: number; end: number } | null): Verdict {
  const e = p.expected;
  if (!e) return got ? 'wrong' : 'right';
  if (!got) return 'orphan';
  const overlap = Math.max(0, Math.min(e.end, got.end) - Math.max(e.start, got.start));
  return overlap >= 0.5 * (e.end - e.start) && overlap >= 0.5 * (got.end - got.start) ? 'right' : 'wrong';
}

/** A peer's Range as trimmed normalised offsets on the checking index (null for an empty range). */
function offsetsOf(range: Range | null): { start: number; end: number } | null {
  if (!range || !state.check) return null;
  const o = offsetsOfRange(range, state.check);
  const t = trimOffsets(state.check.text, o.start, o.end);
  return t.end > t.start ? t : null;
}

/** Runs one matcher over every `stride`-th passage of the page (stopping after `budgetMs`) and judges the answers. */
async function run(matcher: MatcherName, mode: 'stored' | 'native', budgetMs: number, stride = 1): Promise<RunResult> {
  const all = state.passages;
  const ps = stride > 1 ? all.filter((_p, i) => i % stride === 0) : all;
  const answers: Array<{ start: number; end: number } | null | undefined> = new Array(ps.length);
  const root = state.root;
  let error: string | undefined;
  const t0 = performance.now();
  let attempted = 0;
  try {
    if (matcher === 'ours') {
      const index = buildTextIndex(root);
      const results = anchorAll(
        root,
        ps.map((p) => p.stored),
        index,
      );
      results.forEach((res, i) => (answers[i] = res.status === 'anchored' ? { start: res.start, end: res.end } : null));
      attempted = ps.length;
    } else if (matcher === 'hypothesis') {
      const raw = readRawText(root);
      for (let i = 0; i < ps.length && performance.now() - t0 < budgetMs; i++) {
        answers[i] = offsetsOf(hypothesisLikeRange(raw, mode === 'native' ? ps[i]!.native : ps[i]!.peer));
        attempted++;
      }
    } else if (matcher === 'text-quote') {
      for (let i = 0; i < ps.length && performance.now() - t0 < budgetMs; i++) {
        let range: Range | null = null;
        try {
          range = textQuoteMatch(root, mode === 'native' ? ps[i]!.native : ps[i]!.peer);
        } catch {
          range = null;
        }
        answers[i] = offsetsOf(range);
        attempted++;
      }
    } else if (matcher === 'apache') {
      const why = apacheUnavailable();
      if (why) throw new Error(why);
      for (let i = 0; i < ps.length && performance.now() - t0 < budgetMs; i++) {
        answers[i] = offsetsOf(await apacheMatch(root, mode === 'native' ? ps[i]!.native : ps[i]!.peer));
        attempted++;
      }
    }
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const ms = performance.now() - t0;
  const zero = (): Record<Verdict, number> => ({ right: 0, orphan: 0, wrong: 0, skipped: 0 });
  const result: RunResult = { matcher, mode, ms, attempted, counts: zero(), byEdit: {}, byKind: {}, samples: [], verdicts: '', error };
  const letters: string[] = [];
  ps.forEach((p, i) => {
    const a = answers[i];
    const v: Verdict = a === undefined ? 'skipped' : judge(p, a);
    letters.push(v[0] as string);
    result.counts[v]++;
    (result.byEdit[p.edit] ??= zero())[v]++;
    (result.byKind[p.kind] ??= zero())[v]++;
    if ((v === 'wrong' || v === 'orphan') && result.samples.length < 40 && state.check) {
      const text = (o: { start: number; end: number } | null | undefined) => (o ? state.check!.text.slice(o.start, o.end).slice(0, 160) : null);
      const around = a ? `${state.check.text.slice(Math.max(0, a.start - 32), a.start)}[…]${state.check.text.slice(a.end, a.end + 32)}` : null;
      result.samples.push({ id: p.id, kind: p.kind, edit: p.edit, verdict: v, expected: text(p.expected), got: text(a), stored: p.stored.quote, around });
    }
  });
  result.verdicts = letters.join('');
  return result;
}

/**
 * What the content script will do once it uses the chunked API: builds the
 * index and anchors every passage with the asynchronous API, then paints the
 * results with our HighlightPainter and waits for two frames, while a
 * long-task observer watches the main thread (this runs in the page's own
 * world, where that observer sees our work). Returns the longest task, when
 * the long tasks happened (ms after the start), and the wall times. The
 * highlights are removed afterwards.
 */
async function probeAsync(
  budgetMs: number,
): Promise<{ ms: number; buildMs: number; paintedAtMs: number; maxLongTask: number; longTasks: Array<[number, number]>; anchored: number }> {
  const tasks: Array<[number, number]> = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) tasks.push([e.startTime, e.duration]);
  });
  observer.observe({ type: 'longtask', buffered: false });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const t0 = performance.now();
  const index = await buildTextIndexAsync(state.root, { budgetMs });
  const buildMs = performance.now() - t0;
  const results = await anchorAllAsync(
    state.root,
    state.passages.map((p) => p.stored),
    { index, budgetMs },
  );
  const ms = performance.now() - t0;
  const painter = new HighlightPainter(window);
  const painted: PaintedClaim[] = [];
  results.forEach((r, i) => {
    if (r.status === 'anchored') painted.push({ id: String(i), kind: CLAIM_KINDS[i % CLAIM_KINDS.length] as ClaimKind, range: r.range });
  });
  painter.paint(painted);
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const paintedAtMs = performance.now() - t0;
  await new Promise((resolve) => setTimeout(resolve, 200));
  observer.disconnect();
  painter.clear();
  const mine = tasks.filter(([start]) => start >= t0 - 1).map(([start, d]): [number, number] => [Math.round(start - t0), Math.round(d)]);
  return {
    ms,
    buildMs,
    paintedAtMs,
    maxLongTask: mine.length ? Math.max(...mine.map(([, d]) => d)) : 0,
    longTasks: mine,
    anchored: painted.length,
  };
}

/**
 * Development aid (not used by run.mjs): the slowest passages of the exact
 * and approximate passes, as [ms, id, quote length], over the current DOM.
 * On a large page the first passage's time includes building the q-gram index.
 */
function slowest(): { exact: Array<[number, string, number]>; fuzzy: Array<[number, string, number]> } {
  const index = buildTextIndex(state.root);
  const exact: Array<[number, string, number]> = [];
  const fuzzy: Array<[number, string, number]> = [];
  const marks = new Landmarks();
  const later: Array<[Passage, PreparedSelectors]> = [];
  for (const p of state.passages) {
    const t = performance.now();
    const prepared = prepareSelectors(index, p.stored);
    const r = 'status' in prepared ? prepared : (anchorAtPosition(index, prepared) ?? anchorExactPass(index, prepared));
    exact.push([performance.now() - t, p.id, p.stored.quote.exact.length]);
    if (r && !('status' in prepared)) marks.add(prepared, r);
    if (!r) later.push([p, prepared as PreparedSelectors]);
  }
  for (const [p, prepared] of later) {
    const t = performance.now();
    anchorFuzzyPass(index, marks.correct(prepared));
    fuzzy.push([performance.now() - t, p.id, p.stored.quote.exact.length]);
  }
  const top = (xs: Array<[number, string, number]>) =>
    xs
      .sort((a, b) => b[0] - a[0])
      .slice(0, 20)
      .map(([ms, id, m]): [number, string, number] => [Math.round(ms * 10) / 10, id, m]);
  return { exact: top(exact), fuzzy: top(fuzzy) };
}

/** The passages' ranges on the current DOM, anchored once for the highlight probes, with a kind each. */
let probeClaims: PaintedClaim[] = [];

/** Anchors every passage once (not timed) for `paintProbe`; returns how many were anchored. */
function anchorForPaint(): number {
  const index = buildTextIndex(state.root);
  const results = anchorAll(
    state.root,
    state.passages.map((p) => p.stored),
    index,
  );
  probeClaims = [];
  results.forEach((r, i) => {
    if (r.status === 'anchored') probeClaims.push({ id: String(i), kind: CLAIM_KINDS[i % CLAIM_KINDS.length] as ClaimKind, range: r.range });
  });
  return probeClaims.length;
}

const PROBE_PREFIX = 'recipe-lens-probe';
let probeStyle: HTMLStyleElement | null = null;

/** The probe highlights' other styles: with an underline, on the root element (Chromium's highlight inheritance), or both. */
type ProbeStyle = 'underlined' | 'root' | 'root-underlined';

/** Adds (once, before any probe is traced) highlight rules for `split` highlights per kind, so splitting can be measured. */
function setupSplit(split: number): void {
  probeStyle?.remove();
  probeStyle = document.createElement('style');
  const rules: string[] = [];
  const fill = 'background-color: rgba(59, 130, 246, 0.2);';
  const underline = 'text-decoration: underline 2px #2563eb; text-underline-offset: 3px;';
  for (const kind of CLAIM_KINDS)
    for (let i = 0; i < split; i++) {
      rules.push(`::highlight(${PROBE_PREFIX}-${kind}-${i}) { ${fill} }`);
      // The ways the extension has drawn its claims: with an underline, and on the root element (which every element's
      // highlight inherits in Chromium), as the page script's stylesheet declares them.
      rules.push(`::highlight(${PROBE_PREFIX}-underlined-${kind}-${i}) { ${fill} ${underline} }`);
      rules.push(`:root::highlight(${PROBE_PREFIX}-root-${kind}-${i}) { ${fill} }`);
      rules.push(`:root::highlight(${PROBE_PREFIX}-root-underlined-${kind}-${i}) { ${fill} ${underline} }`);
    }
  probeStyle.textContent = rules.join('\n');
  document.head.append(probeStyle);
}

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/**
 * Paints the anchored passages one way and waits until the browser has drawn them (two frames after
 * the last range is in): `batch` null adds every range at once, else `batch` ranges per animation frame
 * (HighlightPainter.paintInBatches); `split` > 1 spreads each kind over that many highlights (at once);
 * `styled` draws them with an underline besides the background, or on the root element, or both.
 * Returns the time from the first range to drawn. `clearProbe` removes them afterwards.
 */
async function paintProbe(options: { batch: number | null; split: number; styled?: ProbeStyle }): Promise<{ ms: number; painted: number }> {
  const t0 = performance.now();
  if (options.split > 1 || options.styled) {
    const groups = new Map<string, Range[]>();
    const prefix = options.styled ? `${PROBE_PREFIX}-${options.styled}` : PROBE_PREFIX;
    probeClaims.forEach((c, i) => {
      const name = `${prefix}-${c.kind}-${i % options.split}`;
      groups.set(name, [...(groups.get(name) ?? []), c.range]);
    });
    for (const [name, ranges] of groups) CSS.highlights.set(name, new Highlight(...ranges));
  } else {
    probePainter ??= new HighlightPainter(window);
    if (options.batch === null) probePainter.paint(probeClaims);
    else await probePainter.paintInBatches(probeClaims, { batchSize: options.batch });
  }
  await frame();
  await frame();
  return { ms: performance.now() - t0, painted: probeClaims.length };
}

let probePainter: HighlightPainter | null = null;

/** Removes every probe highlight and waits until the page is drawn without them. */
async function clearProbe(): Promise<void> {
  probePainter?.clear();
  for (const name of [...CSS.highlights.keys()]) if (name.startsWith(PROBE_PREFIX)) CSS.highlights.delete(name);
  await frame();
  await frame();
  await new Promise((resolve) => setTimeout(resolve, 200));
}

/** A text index kept alive (with the ranges anchored through it), to weigh what holding one costs a page. */
let keptIndex: TextIndex | null = null;

/** Builds the text index of the page, anchors every passage with it (so its lazy maps are filled) and keeps both; `keep` false lets them go. */
function keepIndex(keep: boolean): number {
  keptIndex = null;
  probeClaims = [];
  if (!keep) return 0;
  keptIndex = buildTextIndex(state.root);
  anchorForPaint();
  anchorAll(
    state.root,
    state.passages.map((p) => p.stored),
    keptIndex,
  );
  return keptIndex.text.length;
}

/** The benchmark's in-page API. */
const api = { prepare, edit, expect, run, probeAsync, slowest, anchorForPaint, setupSplit, paintProbe, clearProbe, keepIndex };
(globalThis as unknown as { RLBench: typeof api }).RLBench = api;
