// The chunked (asynchronous) anchoring API, the lazily computed offset map,
// the q-gram path used on large pages and the batch-only position evidence.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  anchor,
  anchorAll,
  anchorAllAsync,
  AnchorBatch,
  buildTextIndex,
  buildTextIndexAsync,
  describe as describeRange,
  rangeFromOffsets,
  TextIndexBuilder,
  yieldToMain,
  type AnchorResult,
  type AnchorSelectors,
  type TextIndex,
} from '../../../lib/anchoring';
import { anchorExactPass, prepareSelectors, type PreparedSelectors } from '../../../lib/anchoring/anchor';
import { QGRAM_MIN_PASSAGES, QGRAM_MIN_TEXT, QGramIndex, qgramIndexOf } from '../../../lib/anchoring/qgram';
import { rng } from '../../support/random';

/** Where a result places its passage (or that it is an orphan), for comparing runs. */
function placeOf(r: AnchorResult): string {
  return r.status === 'anchored' ? `${r.start}-${r.end}${r.exact ? ' exact' : ''}` : 'orphan';
}

const WORDS = 'policy reward rollout critic verifier sampler trainer stage reasoning agent data token model GRPO PPO KL “thinking” model’s 强化学习 推理'.split(
  ' ',
);

/** A document body with `paragraphs` paragraphs of varied markup and white space. */
function page(paragraphs: number, seed = 1): Document {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const parts: string[] = [];
  for (let i = 0; i < paragraphs; i++) {
    const words: string[] = [];
    const n = 6 + Math.floor(r() * 14);
    for (let w = 0; w < n; w++) {
      const word = `${pick(WORDS)}${r() < 0.3 ? Math.floor(r() * 1000) : ''}`;
      const roll = r();
      words.push(roll < 0.08 ? `<b>${word}</b>` : roll < 0.14 ? `<a href="#x">${word}</a>` : roll < 0.18 ? `<em>${word} ${pick(WORDS)}</em>` : word);
    }
    const sep = r() < 0.3 ? '\n   ' : r() < 0.1 ? ' \u00a0 ' : ' ';
    const body = `${words.join(sep)}.`;
    const roll = r();
    parts.push(
      roll < 0.08
        ? `<table><tr><td>${body}</td><td>${i}</td></tr></table>`
        : roll < 0.14
          ? `<pre><code>${body}\n  line ${i}</code></pre>`
          : roll < 0.18
            ? `<ul><li>${body}</li><li>item ${i}</li></ul><script>var x${i} = 1;</script>`
            : `<p>  ${body}  </p>`,
    );
  }
  document.head.innerHTML = '<title>t</title>';
  document.body.innerHTML = parts.join('\n');
  return document;
}

/** The comparable part of an index. */
function snapshot(index: TextIndex) {
  return {
    text: index.text,
    folded: index.folded,
    nodes: index.nodes.length,
    nodeStart: Array.from(index.nodeStart),
    nodeEnd: Array.from(index.nodeEnd),
    charNode: Array.from(index.charNode),
    charOffset: Array.from(index.charOffset),
  };
}

/** The comparable part of a result. */
function brief(r: AnchorResult) {
  return r.status === 'anchored'
    ? { status: r.status, start: r.start, end: r.end, confidence: r.confidence, exact: r.exact }
    : { status: r.status, confidence: r.confidence };
}

/** Selectors for a passage given by normalised offsets. */
function selectorsAt(doc: Document, index: TextIndex, start: number, end: number): AnchorSelectors {
  const range = rangeFromOffsets(index, start, end) as Range;
  return describeRange(range, doc.body, index);
}

afterEach(() => {
  delete (globalThis as { scheduler?: unknown }).scheduler;
  vi.restoreAllMocks();
});

describe('lazy offset map', () => {
  it.each([1, 2, 3])('maps every character back to the text node character it came from (seed %i)', { timeout: 30_000 }, (seed) => {
    const doc = page(30, seed);
    const index = buildTextIndex(doc.body);
    for (let x = 0; x < index.text.length; x++) {
      const k = index.charNode[x] as number;
      const ch = index.text[x] as string;
      if (k < 0) {
        expect(ch).toBe(' ');
        continue;
      }
      const raw = (index.nodes[k] as Text).data[index.charOffset[x] as number] as string;
      if (ch === ' ') expect(/[ \t\n\r\f\u000b\u00a0]/.test(raw)).toBe(true);
      else expect(raw).toBe(ch);
      if (ch !== ' ' && x % 5 === 0) expect(rangeFromOffsets(index, x, x + 1)?.toString()).toBe(ch);
    }
  });

  it('round-trips describe → anchor for random passages', { timeout: 30_000 }, () => {
    const doc = page(80, 7);
    const index = buildTextIndex(doc.body);
    const r = rng(99);
    for (let i = 0; i < 60; i++) {
      const start = Math.floor(r() * (index.text.length - 40));
      const sel = selectorsAt(doc, index, start, start + 5 + Math.floor(r() * 35));
      const res = anchor(doc.body, sel, index);
      expect(res.status).toBe('anchored');
      if (res.status === 'anchored') expect(res.text).toBe(sel.quote.exact);
    }
  });
});

describe('buildTextIndexAsync', () => {
  it('builds the same index as buildTextIndex, in several slices', { timeout: 30_000 }, async () => {
    const doc = page(300, 4);
    const yields = vi.fn(() => Promise.resolve());
    (globalThis as { scheduler?: unknown }).scheduler = { yield: yields };
    const index = await buildTextIndexAsync(doc.body, { budgetMs: 0 });
    expect(snapshot(index)).toEqual(snapshot(buildTextIndex(doc.body)));
    expect(yields.mock.calls.length).toBeGreaterThan(1);
  });

  it("reads nothing in the caller's task: a change made right after the call is in the index", async () => {
    const doc = page(40, 7);
    const yields = vi.fn(() => Promise.resolve());
    (globalThis as { scheduler?: unknown }).scheduler = { yield: yields };
    const building = buildTextIndexAsync(doc.body, { budgetMs: 60_000 });
    doc.body.insertAdjacentHTML('beforeend', '<p>Added in the same task as the call.</p>');
    const index = await building;
    expect(yields).toHaveBeenCalledTimes(1);
    expect(index.text.endsWith('Added in the same task as the call.')).toBe(true);
    expect(snapshot(index)).toEqual(snapshot(buildTextIndex(doc.body)));
  });

  it('falls back to a zero-delay timeout without scheduler.yield', async () => {
    const doc = page(40, 5);
    const timeout = vi.spyOn(globalThis, 'setTimeout');
    const index = await buildTextIndexAsync(doc.body, { budgetMs: 0 });
    expect(index.text).toBe(buildTextIndex(doc.body).text);
    expect(timeout).toHaveBeenCalled();
  });

  it('yieldToMain prefers scheduler.yield', async () => {
    const yields = vi.fn(() => Promise.resolve());
    (globalThis as { scheduler?: unknown }).scheduler = { yield: yields };
    await yieldToMain();
    expect(yields).toHaveBeenCalledTimes(1);
  });

  it('starts over when the DOM changes between slices, so the index matches the final DOM', async () => {
    const doc = page(200, 6);
    let changed = false;
    (globalThis as { scheduler?: unknown }).scheduler = {
      yield: () => {
        if (!changed) {
          changed = true;
          doc.body.insertAdjacentHTML('afterbegin', '<p>A banner inserted while the index was being built.</p>');
          (doc.body.lastElementChild as Element).remove();
        }
        return Promise.resolve();
      },
    };
    const index = await buildTextIndexAsync(doc.body, { budgetMs: 0 });
    expect(changed).toBe(true);
    expect(snapshot(index)).toEqual(snapshot(buildTextIndex(doc.body)));
  });

  it('rejects when aborted, before or between slices', async () => {
    const doc = page(200, 8);
    const before = new AbortController();
    before.abort();
    await expect(buildTextIndexAsync(doc.body, { signal: before.signal })).rejects.toThrow();
    const during = new AbortController();
    (globalThis as { scheduler?: unknown }).scheduler = {
      yield: () => {
        during.abort(new Error('navigated away'));
        return Promise.resolve();
      },
    };
    await expect(buildTextIndexAsync(doc.body, { budgetMs: 0, signal: during.signal })).rejects.toThrow('navigated away');
  });

  it('can be driven by hand through TextIndexBuilder', () => {
    const doc = page(50, 9);
    const builder = new TextIndexBuilder(doc.body);
    let steps = 0;
    while (!builder.step(3)) steps++;
    expect(steps).toBeGreaterThan(10);
    expect(builder.done).toBe(true);
    expect(snapshot(builder.finish())).toEqual(snapshot(buildTextIndex(doc.body)));
  });
});

describe('anchorAllAsync', () => {
  /** A page and a mixed list: verbatim, edited, deleted, repeated, empty. */
  function scenario() {
    const doc = page(120, 11);
    const index = buildTextIndex(doc.body);
    const r = rng(5);
    const list: AnchorSelectors[] = [];
    const ranges: Range[] = [];
    for (let i = 0; i < 40; i++) {
      const start = Math.floor(r() * (index.text.length - 80));
      const end = start + 20 + Math.floor(r() * 60);
      list.push(selectorsAt(doc, index, start, end));
      ranges.push(rangeFromOffsets(index, start, end) as Range);
    }
    list.push({ quote: { exact: 'a sentence that was never on this page at all', prefix: '', suffix: '' } });
    list.push({ quote: { exact: '   ', prefix: '', suffix: '' } });
    list.push({ quote: { exact: 'GRPO', prefix: '', suffix: '' } });
    // Edit the page: a character changed inside some passages, the text of others deleted.
    ranges.forEach((range, i) => {
      const node = range.startContainer as Text;
      if (i % 4 === 0 && node === range.endContainer && range.endOffset - range.startOffset > 12) node.replaceData(range.startOffset + 6, 1, '#');
      else if (i % 4 === 1) range.deleteContents();
    });
    return { doc, list };
  }

  it('returns what anchorAll returns, in input order', async () => {
    const { doc, list } = scenario();
    const expected = anchorAll(doc.body, list).map(brief);
    expect(expected.some((r) => r.status === 'orphan')).toBe(true);
    expect(expected.some((r) => r.status === 'anchored' && !r.exact)).toBe(true);
    (globalThis as { scheduler?: unknown }).scheduler = { yield: () => Promise.resolve() };
    const results = await anchorAllAsync(doc.body, list, { budgetMs: 0 });
    expect(results.map(brief)).toEqual(expected);
    const index = buildTextIndex(doc.body);
    expect((await anchorAllAsync(doc.body, list, { index })).map(brief)).toEqual(expected);
  });

  it('reports progress up to the total and yields between slices', async () => {
    const { doc, list } = scenario();
    const yields = vi.fn(() => Promise.resolve());
    (globalThis as { scheduler?: unknown }).scheduler = { yield: yields };
    const progress: number[] = [];
    await anchorAllAsync(doc.body, list, { budgetMs: 0, onProgress: (done, total) => progress.push(done / total) });
    expect(yields.mock.calls.length).toBeGreaterThan(list.length / 2);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('rejects when aborted', async () => {
    const { doc, list } = scenario();
    const ctl = new AbortController();
    (globalThis as { scheduler?: unknown }).scheduler = {
      yield: () => {
        ctl.abort();
        return Promise.resolve();
      },
    };
    await expect(anchorAllAsync(doc.body, list, { budgetMs: 0, signal: ctl.signal })).rejects.toThrow();
  });

  it('resolves an empty list', async () => {
    expect(await anchorAllAsync(page(3).body, [])).toEqual([]);
  });
});

describe('the exact pre-pass', () => {
  it('settles a verbatim passage with its context and leaves an edited one to the approximate pass', () => {
    const doc = page(40, 12);
    const index = buildTextIndex(doc.body);
    const sel = selectorsAt(doc, index, 200, 260);
    const prepared = prepareSelectors(index, sel) as PreparedSelectors;
    const settled = anchorExactPass(index, prepared);
    expect(settled?.status).toBe('anchored');
    expect(settled?.confidence).toBe(1);
    const edited = prepareSelectors(index, {
      ...sel,
      quote: { ...sel.quote, exact: `${sel.quote.exact.slice(0, 20)}Q${sel.quote.exact.slice(21)}` },
    }) as PreparedSelectors;
    expect(anchorExactPass(index, edited)).toBeNull();
  });
});

describe('large pages (q-gram index)', () => {
  /** A long page: numbered sentences, a frequent short term, and boilerplate repeated many times. */
  function bigPage(): Document {
    const r = rng(21);
    const parts: string[] = [];
    for (let i = 0; i < 1400; i++) {
      const n = Math.floor(r() * 100000);
      parts.push(
        `<p>Run ${i} uses GRPO with ${n} rollouts and a KL penalty of 0.0${i % 9}. All results are averaged over three random seeds. Step ${n % 977} ends.</p>`,
      );
    }
    parts[1100] = '<p>The ablation with a frozen critic diverged after a few hundred steps, so it is left out.</p>';
    document.body.innerHTML = parts.join('');
    return document;
  }

  it('indexes large texts and finds exact quotes through the index', { timeout: 30_000 }, () => {
    const doc = bigPage();
    const index = buildTextIndex(doc.body);
    expect(index.text.length).toBeGreaterThan(QGRAM_MIN_TEXT * 10);
    const q = new QGramIndex(index.folded).build();
    const needle = 'averaged over three random seeds';
    const expected: number[] = [];
    for (let p = index.folded.indexOf(needle); p >= 0; p = index.folded.indexOf(needle, p + 1)) expected.push(p);
    expect(q.findExact(needle, 10_000)).toEqual(expected);
    expect(q.findExact('no such words anywhere here', 10)).toEqual([]);
  });

  it('places a short quote that occurs more than a thousand times by its context', { timeout: 30_000 }, () => {
    const doc = bigPage();
    const index = buildTextIndex(doc.body);
    const at = index.text.indexOf('KL penalty of 0.03', index.text.indexOf('Run 1300 '));
    const sel = selectorsAt(doc, index, at, at + 2);
    expect(sel.quote.exact).toBe('KL');
    const res = anchor(doc.body, sel, index);
    expect(res.status === 'anchored' && res.start).toBe(at);
  });

  it('places repeated boilerplate by its context, finds an edited passage, and orphans a deleted one', { timeout: 30_000 }, () => {
    const doc = bigPage();
    const index = buildTextIndex(doc.body);
    const boiler = index.text.indexOf('All results', index.text.indexOf('Run 700 '));
    const edited = index.text.indexOf('Run 900 ');
    const gone = index.text.indexOf('The ablation with a frozen critic');
    const list = [
      selectorsAt(doc, index, boiler, boiler + 'All results are averaged over three random seeds.'.length),
      selectorsAt(doc, index, edited, edited + 60),
      selectorsAt(doc, index, gone, gone + 60),
    ];
    const paragraphs = doc.body.querySelectorAll('p');
    const t900 = (paragraphs[900] as Element).firstChild as Text;
    t900.replaceData(t900.data.indexOf('rollouts'), 'rollouts'.length, 'samples');
    (paragraphs[1100] as Element).remove();
    doc.body.insertAdjacentHTML('afterbegin', '<p>New: an updated version of this page.</p>');
    const after = buildTextIndex(doc.body);
    const results = anchorAll(doc.body, list, after);
    const [b, e, g] = results as [AnchorResult, AnchorResult, AnchorResult];
    expect(b.status === 'anchored' && after.text.slice(b.start - 80, b.start)).toContain('Run 700 ');
    expect(e.status).toBe('anchored');
    if (e.status === 'anchored') {
      expect(e.exact).toBe(false);
      expect(e.text).toContain('samples');
    }
    expect(g.status).toBe('orphan');
  });
  it('settles passages still at their stored position, context and all, with no search and no q-gram index', { timeout: 30_000 }, () => {
    const doc = bigPage();
    const index = buildTextIndex(doc.body);
    const list = Array.from({ length: QGRAM_MIN_PASSAGES + 40 }, (_, i) => selectorsAt(doc, index, 1000 + i * 500, 1040 + i * 500));
    const results = anchorAll(doc.body, list, index);
    expect(qgramIndexOf(index, index.folded).ready).toBe(false);
    expect(results.every((r, i) => r.status === 'anchored' && r.exact && r.confidence === 1 && r.start === list[i]?.position?.start)).toBe(true);
  });

  it('finds a few moved passages of a large page by scanning, without building its q-gram index, with the results the index gives', { timeout: 30_000 }, () => {
    const doc = bigPage();
    const before = buildTextIndex(doc.body);
    const starts = [100, 5000, 40_000, 90_000, before.text.indexOf('All results', before.text.indexOf('Run 700 '))];
    const few = starts.map((s) => selectorsAt(doc, before, s, s + 48));
    const many = [...few, ...Array.from({ length: QGRAM_MIN_PASSAGES }, (_, i) => selectorsAt(doc, before, 1000 + i * 500, 1040 + i * 500))];
    expect(few.length).toBeLessThan(QGRAM_MIN_PASSAGES);
    // Text inserted at the top: every stored position is off by its length.
    doc.body.insertAdjacentHTML('afterbegin', '<p>New: an updated version of this page.</p>');
    const index = buildTextIndex(doc.body);
    const scanned = anchorAll(doc.body, few, index);
    expect(qgramIndexOf(index, index.folded).ready).toBe(false);
    const fresh = buildTextIndex(doc.body);
    const indexed = anchorAll(doc.body, many, fresh).slice(0, few.length);
    expect(qgramIndexOf(fresh, fresh.folded).ready).toBe(true);
    expect(scanned.map(placeOf)).toEqual(indexed.map(placeOf));
    const shift = index.text.length - before.text.length;
    expect(scanned.every((r, i) => r.status === 'anchored' && r.exact && r.start === (few[i]?.position?.start as number) + shift)).toBe(true);
  });

  it('builds the q-gram index, in slices, once a passage of a small batch needs the approximate search', { timeout: 30_000 }, async () => {
    const doc = bigPage();
    const index = buildTextIndex(doc.body);
    const at = index.text.indexOf('Run 900 ');
    const list = [selectorsAt(doc, index, 100, 148), selectorsAt(doc, index, at, at + 60)];
    const paragraphs = doc.body.querySelectorAll('p');
    const t900 = (paragraphs[900] as Element).firstChild as Text;
    t900.replaceData(t900.data.indexOf('rollouts'), 'rollouts'.length, 'samples');
    const after = buildTextIndex(doc.body);
    const batch = new AnchorBatch(after, list);
    // The exact pass scans; the edited passage then needs the index.
    expect(batch.needsQGramIndex).toBe(false);
    batch.step();
    batch.step();
    expect(batch.needsQGramIndex).toBe(true);
    const sync = anchorAll(doc.body, list, buildTextIndex(doc.body));
    const steps: number[] = [];
    const results = await anchorAllAsync(doc.body, list, { index: after, budgetMs: 1, onProgress: (done) => steps.push(done) });
    expect(qgramIndexOf(after, after.folded).ready).toBe(true);
    expect(results.map(placeOf)).toEqual(sync.map(placeOf));
    expect(results[1]?.status === 'anchored' && results[1].text).toContain('samples');
    // With a 1 ms budget the index's build yielded between its slices.
    expect(steps.length).toBeGreaterThan(1);
  });
});

describe('position evidence from anchored neighbours', () => {
  it('does not move a deleted short passage to a look-alike far away when its neighbours show where it was', { timeout: 30_000 }, () => {
    const r = rng(33);
    const sentences: string[] = [];
    for (let i = 0; i < 600; i++) sentences.push(`<p>Paragraph ${i} reports ${Math.floor(r() * 1e6)} tokens and ${Math.floor(r() * 1e6)} steps.</p>`);
    // The passage and a look-alike much later: the same words and the same text after them.
    sentences[100] = '<p>Earlier we described it: the critic uses GRPO with a learned baseline in stage two.</p>';
    sentences[500] = '<p>Much later, the teacher uses GRPO with a learned baseline in stage two.</p>';
    document.body.innerHTML = sentences.join('');
    const doc = document;
    const index = buildTextIndex(doc.body);
    const at = index.text.indexOf('uses GRPO');
    const list: AnchorSelectors[] = [selectorsAt(doc, index, at, at + 'uses GRPO'.length)];
    for (let i = 80; i < 130; i += 2) {
      const p = index.text.indexOf(`Paragraph ${i} `);
      list.push(selectorsAt(doc, index, p, p + 30));
    }
    // The passage's paragraph is deleted and content is inserted before it.
    (doc.body.children[100] as Element).remove();
    doc.body.insertAdjacentHTML('afterbegin', '<p>A new introduction paragraph.</p>'.repeat(5));
    const results = anchorAll(doc.body, list);
    expect(results[0]?.status).toBe('orphan');
    expect(results.slice(1).every((x) => x.status === 'anchored')).toBe(true);
  });
});
