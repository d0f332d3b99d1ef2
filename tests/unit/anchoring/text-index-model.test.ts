// The text index against the text model spelled out one character at a time: the rendered text, where each of its
// characters comes from, each node's span, and the offset of every boundary point inside every text node.
import { describe, expect, it } from 'vitest';
import { anchorAll, buildTextIndex, describe as describeRange, offsetOfBoundary, rangeFromOffsets, type TextIndex } from '../../../lib/anchoring';
import { foldForComparison, forgetLastSubject } from '../../../lib/anchoring/normalize';
import { rng } from '../../support/random';

const SKIPPED = ['script', 'style', 'noscript', 'template', 'textarea', 'select', 'iframe', 'video', 'audio', 'canvas', 'rp', 'title'];
const BLOCK =
  /^(address|article|aside|blockquote|body|br|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frameset|h[1-6]|header|hgroup|hr|html|legend|li|listing|main|menu|nav|ol|optgroup|option|p|plaintext|pre|search|section|summary|table|tbody|td|tfoot|th|thead|tr|ul|xmp)$/;
const SPACE = /[ \t\n\r\f\v\u00a0]/;

/** One produced character: where it came from (node -1: a block boundary) and which node was being read. */
interface Produced {
  node: number;
  offset: number;
  readBy: number;
}

/**
 * The text model read one character at a time: white space (a block's start or end counts as white space) becomes
 * one space before the next visible character, mapped to the first white-space character of its run that a node
 * holds; nothing before the first visible character or after the last.
 */
function modelOf(root: Element): { text: string; produced: Produced[]; start: number[]; end: number[]; nodes: Text[] } {
  const nodes: Text[] = [];
  const produced: Produced[] = [];
  const start: number[] = [];
  const end: number[] = [];
  let text = '';
  let pending: { node: number; offset: number } | null = null;
  const space = (node: number, offset: number) => {
    if (!pending || pending.node < 0) pending = { node, offset };
  };
  const visit = (el: Element) => {
    for (const child of Array.from(el.childNodes)) {
      if (child.nodeType === 3) {
        const k = nodes.push(child as Text) - 1;
        start.push(text.length);
        const data = (child as Text).data;
        for (let i = 0; i < data.length; i++) {
          if (SPACE.test(data[i] as string)) {
            space(k, i);
            continue;
          }
          if (pending && text.length > 0) {
            produced.push({ ...pending, readBy: k });
            text += ' ';
          }
          pending = null;
          produced.push({ node: k, offset: i, readBy: k });
          text += data[i];
        }
        end.push(text.length);
        // A node's span starts at the space read before its first character, when it produced one.
        const first = produced.findIndex((p) => p.readBy === k);
        if (first >= 0) start[k] = first;
        else start[k] = text.length;
      } else if (child.nodeType === 1) {
        const e = child as Element;
        if (SKIPPED.includes(e.localName) || e.hasAttribute('hidden')) continue;
        const block = BLOCK.test(e.localName);
        if (block) space(-1, -1);
        visit(e);
        if (block) space(-1, -1);
      }
    }
  };
  visit(root);
  // The span of a node with nothing of its own is where the text stood when it was read: the next produced character.
  for (let k = 0; k < nodes.length; k++) {
    const own = produced.findIndex((p) => p.readBy === k);
    if (own < 0) {
      const next = produced.findIndex((p) => p.readBy > k);
      start[k] = end[k] = next < 0 ? text.length : next;
    } else end[k] = produced.findLastIndex((p) => p.readBy === k) + 1;
  }
  return { text, produced, start, end, nodes };
}

/** Where the model puts a boundary point inside node k: the first character read with it whose own offset is at or after it, else the node's end. */
function boundaryOf(model: ReturnType<typeof modelOf>, k: number, offset: number): number {
  for (let x = model.start[k] as number; x < (model.end[k] as number); x++) {
    const p = model.produced[x] as Produced;
    if (p.node === k && p.offset >= offset) return x;
  }
  return model.end[k] as number;
}

const WORDS = ['a', 'GRPO', 'reward', '强化学习', '“q”', 'x—y', 'Qwen3’s'];
const GAPS = ['', ' ', '  ', '\n', ' \n\t ', '\u00a0', ' \u00a0 '];

/** A random body: text with every kind of white space, inline and block elements nested, skipped and hidden ones, comments. */
function randomBody(seed: number): string {
  const r = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;
  const content = (depth: number): string => {
    let out = '';
    const n = 1 + Math.floor(r() * (depth === 0 ? 10 : 5));
    for (let i = 0; i < n; i++) {
      const roll = r();
      if (roll < 0.35 || depth > 4) out += pick(GAPS) + pick(WORDS) + pick(GAPS);
      else if (roll < 0.45) out += pick(GAPS);
      else if (roll < 0.5) out += `<script>${pick(WORDS)}</script>`;
      else if (roll < 0.55) out += `<span hidden>${pick(WORDS)}</span>`;
      else if (roll < 0.6) out += '<br>';
      else if (roll < 0.63) out += '<!-- a comment -->';
      else {
        const tag = pick(['p', 'div', 'li', 'td', 'span', 'b', 'em', 'code']);
        out += `<${tag}>${content(depth + 1)}</${tag}>`;
      }
    }
    return out;
  };
  return content(0);
}

/** Checks an index of `doc.body` against the model, boundary points included. */
function expectModel(doc: Document): void {
  const model = modelOf(doc.body);
  const index: TextIndex = buildTextIndex(doc.body);
  expect(index.text).toBe(model.text);
  expect(index.folded).toBe(foldForComparison(model.text));
  expect(index.nodes).toEqual(model.nodes);
  expect(Array.from(index.charNode)).toEqual(model.produced.map((p) => p.node));
  expect(Array.from(index.charOffset)).toEqual(model.produced.map((p) => p.offset));
  expect(Array.from(index.nodeStart)).toEqual(model.start);
  expect(Array.from(index.nodeEnd)).toEqual(model.end);
  model.nodes.forEach((node, k) => {
    for (let offset = 0; offset <= node.data.length; offset++) expect(offsetOfBoundary(index, node, offset)).toBe(boundaryOf(model, k, offset));
  });
}

describe('the text index and the text model', () => {
  it('agree on hand-made cases', () => {
    const cases = [
      '<p>  a  </p><p>b</p>',
      'a<span> </span>b',
      'a <script>x</script> b',
      '<div>\n  <p>one\n two</p>\n  <p> three </p>\n</div>',
      'x<br>y<br><br>z',
      '<p>a</p>  <p>  </p>\u00a0<p>b\u00a0 c</p>',
      '<b> </b><i>a</i><b> </b>',
      '',
    ];
    for (const html of cases) {
      document.body.innerHTML = html;
      expectModel(document);
    }
  });

  it('agree on random pages', { timeout: 120_000 }, () => {
    for (let seed = 1; seed <= 300; seed++) {
      document.body.innerHTML = randomBody(seed);
      expectModel(document);
    }
  });

  it('place a range on the characters the model reads there', () => {
    document.body.innerHTML = '<p>The <b>GRPO</b>\n  stage</p><ul><li>  rule-based   reward </li></ul>';
    const index = buildTextIndex(document.body);
    expect(index.text).toBe('The GRPO stage rule-based reward');
    expect(rangeFromOffsets(index, 4, 14)?.toString()).toBe('GRPO</b>\n  stage'.replace('</b>', ''));
    const range = rangeFromOffsets(index, 15, 32) as Range;
    expect(describeRange(range, document.body, index).quote.exact).toBe('rule-based reward');
  });
});

describe('memory', () => {
  it('keeps no page text as the subject of the last match', () => {
    const page = `${'reward “model” — '.repeat(2000)}end`;
    document.body.innerHTML = `<p>${page}</p>`;
    const index = buildTextIndex(document.body);
    foldForComparison(index.text.slice(0, 40));
    // V8's legacy RegExp.input holds the subject of the last successful match.
    expect((RegExp as unknown as { input: string }).input).toBe(' ');
    forgetLastSubject();
    expect((RegExp as unknown as { input: string }).input.length).toBe(1);
  });

  it('never folds the page when every passage stands where it was stored', () => {
    document.body.innerHTML = `<p>${Array.from({ length: 50 }, (_, i) => `Sentence ${i} says “GRPO” — rule ${i}.`).join(' ')}</p>`;
    const first = buildTextIndex(document.body);
    const selectors = [10, 200, 700].map((start) => describeRange(rangeFromOffsets(first, start, start + 30) as Range, document.body, first));
    const index = buildTextIndex(document.body);
    const results = anchorAll(document.body, selectors, index);
    expect(results.map((r) => r.status)).toEqual(['anchored', 'anchored', 'anchored']);
    expect((index as unknown as { foldedCache: string | null }).foldedCache).toBeNull();
    // Once asked for, the folded text is the text folded.
    expect(index.folded).toBe(foldForComparison(index.text));
  });
});
