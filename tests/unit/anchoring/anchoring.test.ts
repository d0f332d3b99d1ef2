// Anchoring of W3C selectors on documents written here and on the shared real pages.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe as suite, expect, it } from 'vitest';
import {
  anchor,
  anchorAll,
  buildTextIndex,
  describe as describeRange,
  normalizeQuoteText,
  ORPHAN_THRESHOLD,
  rangeFromOffsets,
  textOfRange,
  type AnchorResult,
} from '../../../lib/anchoring';
import type { Quote } from '../../../lib/schema';

/** Replaces the test document's body and returns the document. */
function page(html: string): Document {
  document.head.innerHTML = '<title>Page title</title><style>p { color: red }</style>';
  document.body.innerHTML = html;
  return document;
}

/** A quote without context. */
function q(exact: string, prefix = '', suffix = ''): Quote {
  return { exact, prefix, suffix };
}

/** A Range over the `nth` occurrence of `needle` in the raw data of `root`'s text nodes (needle must not cross a block). */
function rangeOfRaw(root: Node, needle: string, nth = 0): Range {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  const starts: number[] = [];
  let raw = '';
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    nodes.push(n as Text);
    starts.push(raw.length);
    raw += (n as Text).data;
  }
  let at = raw.indexOf(needle);
  for (let i = 0; i < nth && at >= 0; i++) at = raw.indexOf(needle, at + 1);
  if (at < 0) throw new Error(`"${needle}" not in test document`);
  const locate = (offset: number, isEnd: boolean): [Text, number] => {
    for (let i = nodes.length - 1; i >= 0; i--) {
      const s = starts[i] as number;
      if (isEnd ? s < offset : s <= offset) return [nodes[i] as Text, offset - s];
    }
    throw new Error('unreachable');
  };
  const range = document.createRange();
  range.setStart(...locate(at, false));
  range.setEnd(...locate(at + needle.length, true));
  return range;
}

/** Narrows an AnchorResult to the anchored case (failing the test otherwise). */
function mustAnchor(r: AnchorResult): Extract<AnchorResult, { status: 'anchored' }> {
  if (r.status !== 'anchored') throw new Error(`expected anchored, got orphan: ${r.reason} (${r.confidence})`);
  return r;
}

suite('text model', () => {
  it.each([
    ['paragraphs read as separate words', '<p>a</p><p>b</p>', 'a b'],
    [
      'inline elements add nothing',
      '<p>Trained <a href="#">with <strong>GRPO</strong></a> and <em>RL</em>, <code>lr=1e-6</code>.</p>',
      'Trained with GRPO and RL, lr=1e-6.',
    ],
    ['inline boundary inside a word', '<p>Qwen<b>3</b>-235B</p>', 'Qwen3-235B'],
    [
      'script, style, noscript, template, hidden skipped',
      '<p>a<script>var x = 1;</script>b</p><style>p{}</style><noscript>no js</noscript><template><p>tpl</p></template><p hidden>gone</p><div hidden><p>gone too</p></div><p>c</p>',
      'ab c',
    ],
    ['white-space runs and NBSP collapse', '<p>  lots \u00a0 of\n\t white&nbsp;&nbsp;space  </p>', 'lots of white space'],
    ['hard-wrapped source lines', '<p>line one\nline two\n    line three</p>', 'line one line two line three'],
    ['br is a space', '<p>a<br>b<br/><br>c</p>', 'a b c'],
    ['tables', '<table><tr><th>Model</th><th>RL</th></tr><tr><td>GLM-5</td><td><b>slime</b></td></tr></table>', 'Model RL GLM-5 slime'],
    ['lists and headings', '<h2>Stages</h2><ul><li>one</li><li>two</li></ul><ol><li>three</li></ol>', 'Stages one two three'],
    ['pre is collapsed too', '<pre><code>def f():\n    return 1\n</code></pre><p>after</p>', 'def f(): return 1 after'],
    ['CJK without spaces', '<p>我们采用<strong>GRPO</strong>算法进行强化学习</p>', '我们采用GRPO算法进行强化学习'],
    ['curly quotes kept as written', '<p>the model’s “thinking” mode</p>', 'the model’s “thinking” mode'],
    ['empty blocks do not double spaces', '<div><p> </p><p></p><hr><p>x</p></div><div> y </div>', 'x y'],
  ])('%s', (_name, html, expected) => {
    const index = buildTextIndex(page(html));
    expect(index.text).toBe(expected);
    expect(index.folded).toHaveLength(index.text.length);
  });

  it('leaves out the head (title, style)', () => {
    expect(buildTextIndex(page('<p>body text</p>')).text).toBe('body text');
  });

  it('folds curly quotes, dashes, minus and full-width space 1:1 for comparison only', () => {
    const index = buildTextIndex(page('<p>‘a’ “b” c–d—e−f‑g\u3000h</p>'));
    expect(index.text).toBe('‘a’ “b” c–d—e−f‑g\u3000h');
    expect(index.folded).toBe(`'a' "b" c-d-e-f-g h`);
  });

  it('indexes an element root only', () => {
    page('<header>site nav</header><article id="a"><p>inside one</p><p>inside two</p></article><footer>foot</footer>');
    const article = document.getElementById('a') as Element;
    expect(buildTextIndex(article).text).toBe('inside one inside two');
  });

  it('maps every character back to its text node', () => {
    const index = buildTextIndex(page('<p>ab <i>cd</i></p><p>ef</p>'));
    expect(index.text).toBe('ab cd ef');
    const range = rangeFromOffsets(index, 3, 8) as Range;
    expect(range.startContainer.textContent).toBe('cd');
    expect(range.startOffset).toBe(0);
    expect(range.endContainer.textContent).toBe('ef');
    expect(range.endOffset).toBe(2);
    expect(textOfRange(range, index)).toBe('cd ef');
  });
});

suite('describe', () => {
  it('describes a range across inline elements with 32 characters of context', () => {
    const doc = page(
      '<p>Our pipeline has several stages. In stage two we train <a href="#">the policy with <strong>GRPO</strong></a> and rule-based rewards, then merge.</p>',
    );
    const range = rangeOfRaw(doc.body, 'the policy with GRPO and rule-based rewards');
    const d = describeRange(range);
    expect(d.quote.exact).toBe('the policy with GRPO and rule-based rewards');
    expect(d.quote.prefix).toBe('l stages. In stage two we train ');
    expect(d.quote.suffix).toBe(', then merge.');
    const text = buildTextIndex(doc).text;
    expect(text.slice(d.position.start, d.position.end)).toBe(d.quote.exact);
  });

  it('has shorter context at the document edges', () => {
    const doc = page('<p>Start here and end there.</p>');
    const d = describeRange(rangeOfRaw(doc.body, 'here and'));
    expect(d.quote).toEqual({ exact: 'here and', prefix: 'Start ', suffix: ' end there.' });
    expect(d.position).toEqual({ start: 6, end: 14 });
  });

  it('reads block boundaries inside the range as one space', () => {
    const doc = page('<p>first para</p>\n\n<p>second para</p>');
    const range = document.createRange();
    range.selectNodeContents(doc.body);
    expect(describeRange(range).quote.exact).toBe('first para second para');
  });

  it('handles ranges that start and end at element boundaries', () => {
    const doc = page('<div><p id="x">  padded <em>text</em>  </p><p>next</p></div>');
    const range = document.createRange();
    range.setStart(doc.getElementById('x') as Element, 0);
    range.setEnd(doc.body.querySelector('div') as Element, 1);
    const d = describeRange(range);
    expect(d.quote.exact).toBe('padded text');
    expect(d.quote.suffix).toBe(' next');
    expect(d.quote.prefix).toBe('');
  });

  it('trims white space selected around the passage', () => {
    const doc = page('<p>alpha   beta   gamma</p>');
    const d = describeRange(rangeOfRaw(doc.body, '   beta   '));
    expect(d.quote).toEqual({ exact: 'beta', prefix: 'alpha ', suffix: ' gamma' });
  });

  it('never modifies the DOM', () => {
    const html = '<p>a <b>bold</b> claim</p><script>x()</script><p hidden>h</p>';
    const doc = page(html);
    const before = doc.body.innerHTML;
    const d = describeRange(rangeOfRaw(doc.body, 'bold'));
    anchor(doc, d);
    anchor(doc, { quote: q('bolder claim') });
    expect(doc.body.innerHTML).toBe(before);
  });
});

suite('describe → anchor round trip', () => {
  const html = [
    '<h1>Tech report</h1>',
    '<p>We adopt <a href="#grpo">GRPO</a> for <strong>reasoning</strong> RL. The rollout is asynchronous.</p>',
    '<ul><li>Stage 1: cold start</li><li>Stage 2: reasoning RL with rule-based rewards</li></ul>',
    '<table><tr><td>GLM-5</td><td>slime</td></tr></table>',
    '<pre><code>python train.py \\\n    --algo grpo</code></pre>',
    '<p>我们采用<strong>GRPO</strong>算法进行强化学习。</p>',
    '<p>The model’s “thinking mode” is fused in stage three.</p>',
  ].join('\n');

  it.each([
    ['across a link and bold', 'GRPO for reasoning RL'],
    ['inside one text node', 'rollout is asynchronous'],
    ['a list item', 'Stage 2: reasoning RL'],
    ['table cell', 'slime'],
    ['code block', '--algo grpo'],
    ['CJK', '算法进行强化'],
    ['curly quotes', 'model’s “thinking mode”'],
  ])('%s', (_name, needle) => {
    const doc = page(html);
    const index = buildTextIndex(doc);
    const sel = describeRange(rangeOfRaw(doc.body, needle), doc, index);
    const r = mustAnchor(anchor(doc, sel, index));
    expect(r.exact).toBe(true);
    expect(r.confidence).toBe(1);
    expect({ start: r.start, end: r.end }).toEqual(sel.position);
    expect(textOfRange(r.range, index)).toBe(sel.quote.exact);
    expect(r.text).toBe(sel.quote.exact);
  });

  it('round-trips a range across block boundaries', () => {
    const doc = page(html);
    const range = document.createRange();
    const items = doc.querySelectorAll('li');
    range.setStart((items[0] as Element).firstChild as Text, 9);
    range.setEnd((items[1] as Element).firstChild as Text, 7);
    const sel = describeRange(range);
    expect(sel.quote.exact).toBe('cold start Stage 2');
    const r = mustAnchor(anchor(doc, sel));
    expect(textOfRange(r.range, buildTextIndex(doc))).toBe('cold start Stage 2');
  });
});

suite('anchor: exact matches', () => {
  it.each([
    [
      'across a, strong, em, code',
      '<p>We use <a href="#">the <strong>slime</strong> framework</a> with <em>async</em> <code>rollout</code> workers.</p>',
      'the slime framework with async rollout',
    ],
    ['across paragraphs', '<p>a</p><p>b</p>', 'a b'],
    ['CJK', '<p>为了提升推理能力，我们采用<strong>GRPO</strong>算法进行强化学习，并使用规则奖励。</p>', '我们采用GRPO算法进行强化学习'],
    ['straight quote stored, curly on the page', '<p>the model’s “thinking” mode</p>', `model's "thinking" mode`],
    ['curly quote stored, straight on the page', `<p>the model's "thinking" mode</p>`, 'model’s “thinking” mode'],
    ['en dash stored, hyphen on the page', '<p>pages 10-12 of the report</p>', 'pages 10–12'],
    ['NBSP on the page', '<p>trained&nbsp;with&nbsp;&nbsp;GRPO</p>', 'trained with GRPO'],
    [
      'hard-wrapped page',
      '<p>The second stage focused on scaling up\n   computational resources for RL,\n   utilizing rule-based rewards.</p>',
      'scaling up computational resources for RL, utilizing',
    ],
    ['stored quote with newlines and tabs', '<p>scaling up computational resources</p>', 'scaling  up\n\tcomputational\u00a0resources'],
    ['script content between the words', '<p>rule-<script>track()</script>based <style>b{}</style>rewards</p>', 'rule-based rewards'],
    ['text inside a table cell', '<table><tr><td>Kimi</td><td>Muon + <b>PPO</b> variant</td></tr></table>', 'Kimi Muon + PPO variant'],
  ])('%s', (_name, html, exact) => {
    const doc = page(html);
    const index = buildTextIndex(doc);
    const r = mustAnchor(anchor(doc, { quote: q(exact) }, index));
    expect(r.exact).toBe(true);
    expect(r.confidence).toBe(1);
    expect(foldQuotes(textOfRange(r.range, index))).toBe(foldQuotes(normalizeQuoteText(exact)));
    expect(r.text).toBe(textOfRange(r.range, index));
  });

  it('returns the page text, not the stored spelling', () => {
    const doc = page('<p>the model’s “thinking” mode</p>');
    const r = mustAnchor(anchor(doc, { quote: q(`model's "thinking"`) }));
    expect(r.text).toBe('model’s “thinking”');
  });

  it('works on an element root and ignores text outside it', () => {
    page('<p>GRPO is used</p><article id="a"><p>here GRPO is used too</p></article>');
    const root = document.getElementById('a') as Element;
    const r = mustAnchor(anchor(root, { quote: q('GRPO is used') }));
    expect(r.start).toBe(5);
    expect(r.confidence).toBe(1);
  });
});

suite('anchor: repeated phrases', () => {
  const html = [
    '<p>In the first stage, the model is trained with SFT on long CoT data.</p>',
    '<p>In the second stage, the model is trained with GRPO on math and code.</p>',
    '<p>In the fourth stage, the model is trained with GRPO on general tasks.</p>',
  ].join('');

  it('picks the occurrence whose prefix agrees', () => {
    const doc = page(html);
    const r = mustAnchor(anchor(doc, { quote: q('the model is trained with GRPO', 'In the fourth stage, ', ' on general tasks.') }));
    expect(buildTextIndex(doc).text.slice(r.end, r.end + 17)).toBe(' on general tasks');
    expect(r.confidence).toBeGreaterThan(0.8);
  });

  it('picks the occurrence whose suffix agrees', () => {
    const doc = page(html);
    const r = mustAnchor(anchor(doc, { quote: q('the model is trained with GRPO', '', ' on math and code.') }));
    expect(buildTextIndex(doc).text.slice(r.end, r.end + 9)).toBe(' on math ');
  });

  it('context wins over a misleading position hint', () => {
    const doc = page(html);
    const text = buildTextIndex(doc).text;
    const second = text.indexOf('the model is trained with GRPO');
    const r = mustAnchor(
      anchor(doc, { quote: q('the model is trained with GRPO', 'In the fourth stage, ', ''), position: { start: second, end: second + 30 } }),
    );
    expect(r.start).toBe(text.lastIndexOf('the model is trained with GRPO'));
  });

  it('uses the position hint when the context ties', () => {
    const doc = page('<p>trained with GRPO.</p><p>trained with GRPO.</p><p>trained with GRPO.</p>');
    const text = buildTextIndex(doc).text;
    const third = text.lastIndexOf('GRPO');
    const r = mustAnchor(anchor(doc, { quote: q('GRPO'), position: { start: third + 3, end: third + 7 } }));
    expect(r.start).toBe(third);
    expect(r.confidence).toBeGreaterThanOrEqual(ORPHAN_THRESHOLD);
    expect(r.confidence).toBeLessThan(0.85);
  });

  it('does not pick a repeated short quote confidently without context or position', () => {
    const doc = page('<p>We use RL here.</p><p>And RL there.</p><p>RL everywhere.</p>');
    const r = anchor(doc, { quote: q('RL') });
    // Either an orphan or a low-confidence pick of the first occurrence.
    expect(r.confidence).toBeLessThan(0.6);
    if (r.status === 'anchored') expect(r.start).toBe(7);
  });

  it('does not pick confidently when the stored context matches no occurrence', () => {
    const doc = page('<p>We use RL here.</p><p>And RL there.</p>');
    const r = anchor(doc, { quote: q('RL', 'a sentence that was deleted ', ' from the page long ago') });
    expect(r.confidence).toBeLessThan(0.6);
  });
});

suite('anchor: approximate matches and orphans', () => {
  const original = [
    '<h2>Post-training</h2>',
    '<p>To develop the hybrid model, we implemented a four-stage training pipeline. ',
    'In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration. ',
    'The third stage fused thinking and non-thinking modes into one model. ',
    'Finally, general RL was applied across more than 20 domains.</p>',
    '<h2>Evaluation</h2><p>The model was evaluated on math, code and agent benchmarks.</p>',
  ].join('');

  /** Captures the selectors of `needle` on the original page. */
  function capture(needle: string) {
    const doc = page(original);
    return describeRange(rangeOfRaw(doc.body, needle));
  }

  it.each([
    [
      'one word changed',
      'utilizing rule-based rewards to improve exploration',
      'utilizing rule-based rewards to improve',
      'utilizing verifiable rewards to improve',
      'utilizing verifiable rewards to improve exploration',
    ],
    [
      'a word inserted',
      'The third stage fused thinking and non-thinking modes into one model.',
      'fused thinking and',
      'fused both thinking and',
      'The third stage fused both thinking and non-thinking modes into one model.',
    ],
    ['a word deleted', 'general RL was applied across more than 20 domains', 'more than 20', 'more than', 'general RL was applied across more than domains'],
    ['a typo fixed', 'we implemented a four-stage training pipeline', 'four-stage', 'fourstage', 'we implemented a fourstage training pipeline'],
  ])('%s: anchors with exact=false', (_name, needle, from, to, expected) => {
    const sel = capture(needle);
    const doc = page(original.replace(from, to));
    const index = buildTextIndex(doc);
    const r = mustAnchor(anchor(doc, sel, index));
    expect(r.exact).toBe(false);
    expect(r.confidence).toBeGreaterThanOrEqual(ORPHAN_THRESHOLD);
    expect(r.confidence).toBeLessThan(1);
    expect(r.text).toBe(expected);
    expect(textOfRange(r.range, index)).toBe(expected);
  });

  it('anchors a changed passage that moved, using the seeds and not the stale position', () => {
    const sel = capture('The third stage fused thinking and non-thinking modes into one model.');
    const doc = page('<p>' + 'Unrelated filler text. '.repeat(40) + '</p>' + original.replace('fused thinking', 'merged thinking'));
    const r = mustAnchor(anchor(doc, sel));
    expect(r.exact).toBe(false);
    expect(r.text).toBe('The third stage merged thinking and non-thinking modes into one model.');
  });

  it.each([
    ['shares only common words', 'In the final stage we scaled up the evaluation, using many benchmarks to measure the model.'],
    ['is a close paraphrase in another place', 'Separately, in the second stage we scaled up SFT compute, utilizing rule-based filters to improve quality.'],
  ])('orphans a passage whose sentence was deleted, even when a sentence elsewhere %s', (_name, elsewhere) => {
    const sentence = 'In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration.';
    const sel = capture(sentence);
    const edited = original.replace(`${sentence} `, '').replace('<h2>Evaluation</h2>', `<h2>Evaluation</h2><p>${elsewhere}</p>`);
    const doc = page(edited);
    const r = anchor(doc, sel);
    expect(r.status).toBe('orphan');
    expect(r.confidence).toBeLessThan(ORPHAN_THRESHOLD);
  });

  it('anchors the same sentence edited in place in several words, flagged as not exact', () => {
    const sentence = 'In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration.';
    const sel = capture(sentence);
    const rewritten = 'In the second stage we scaled up the compute, using rule-based rewards to improve exploitation.';
    const r = mustAnchor(anchor(page(original.replace(sentence, rewritten)), sel));
    expect(r.exact).toBe(false);
    expect(r.text).toBe(rewritten);
  });

  it('orphans a quote that never was on the page', () => {
    const r = anchor(page(original), { quote: q('We distilled the model from a larger teacher with on-policy distillation.') });
    expect(r.status).toBe('orphan');
    if (r.status === 'orphan') expect(r.reason).toMatch(/no longer occurs|uncertain/);
  });

  it('orphans an empty quote and a page without text', () => {
    expect(anchor(page(original), { quote: q('  \n ') }).status).toBe('orphan');
    expect(anchor(page('<p> </p>'), { quote: q('GRPO') }).status).toBe('orphan');
  });

  it('does not anchor a short quote to a different short word', () => {
    const r = anchor(page('<p>We train with PPO and DPO.</p>'), { quote: q('GRPO', 'we adopt ', ' for math') });
    expect(r.status).toBe('orphan');
  });
});

suite('anchorAll', () => {
  it('returns one result per input, in order, sharing one index', () => {
    const doc = page('<p>alpha beta gamma</p><p>delta epsilon</p>');
    const index = buildTextIndex(doc);
    const list = [{ quote: q('delta') }, { quote: q('missing words entirely here') }, { quote: q('alpha beta'), position: { start: 0, end: 10 } }];
    const results = anchorAll(doc, list, index);
    expect(results.map((r) => r.status)).toEqual(['anchored', 'orphan', 'anchored']);
    expect(results.map((r) => (r.status === 'anchored' ? r.text : null))).toEqual(['delta', null, 'alpha beta']);
    expect(anchorAll(doc, list).map((r) => r.status)).toEqual(['anchored', 'orphan', 'anchored']);
  });
});

/** Folds curly quotes and dashes like the comparison does (for assertions). */
function foldQuotes(s: string): string {
  return s.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').replace(/[–—]/g, '-');
}

// ---------------------------------------------------------------------------
// Real pages from the shared fixtures (../../../shared/fixtures from here).

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures');
const PAGES_JSON = path.join(FIXTURES, 'pages.json');

interface FixtureCase {
  id: string;
  html: string;
  quote: Quote;
}

/** Every claim record of the fixtures with the HTML of its page. */
function loadFixtureCases(): FixtureCase[] {
  const pages = JSON.parse(readFileSync(PAGES_JSON, 'utf8')) as Array<{ file: string; records: string | null }>;
  const cases: FixtureCase[] = [];
  for (const entry of pages) {
    if (!entry.records) continue;
    const html = readFileSync(path.join(FIXTURES, entry.file), 'utf8');
    for (const line of readFileSync(path.join(FIXTURES, entry.records), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const rec = JSON.parse(line) as { id: string; schema: string; quote?: Quote };
      if (rec.schema === 'rl-survey.claim/1' && rec.quote) cases.push({ id: rec.id, html, quote: rec.quote });
    }
  }
  return cases;
}

/**
 * Loads a page into the global test document. happy-dom's Range only works on
 * the window's own document, so a DOMParser document cannot hold ranges; the
 * parsed head and body are copied over instead.
 */
function loadPage(html: string): Document {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  document.head.innerHTML = parsed.head.innerHTML;
  document.body.innerHTML = parsed.body.innerHTML;
  return document;
}

const fixturesPresent = existsSync(PAGES_JSON);
if (fixturesPresent) {
  suite('real source pages (shared fixtures)', () => {
    const cases = loadFixtureCases();

    it('has claim records to check', () => {
      expect(cases.length).toBeGreaterThan(0);
    });

    it.each(cases.map((c) => [c.id, c] as const))('%s anchors exactly and reproduces its prefix/suffix', (_id, c) => {
      const doc = loadPage(c.html);
      const index = buildTextIndex(doc);
      const r = mustAnchor(anchor(doc, { quote: c.quote, position: null }, index));
      expect(r.exact).toBe(true);
      expect(r.confidence).toBe(1);
      expect(textOfRange(r.range, index)).toBe(normalizeQuoteText(c.quote.exact));
      const d = describeRange(r.range, doc, index);
      expect(d.quote.exact).toBe(normalizeQuoteText(c.quote.exact));
      expect(d.quote.prefix).toBe(c.quote.prefix);
      expect(d.quote.suffix).toBe(c.quote.suffix);
    });
  });
} else {
  console.log(`anchoring: shared fixtures not found at ${FIXTURES}; real-page cases not run`);
  suite('real source pages (shared fixtures absent)', () => {
    it('are not available here, so their cases are not run', () => {
      expect(existsSync(PAGES_JSON)).toBe(false);
    });
  });
}
