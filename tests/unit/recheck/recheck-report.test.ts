// What a recheck shows people, and what it reads of a page: hidden elements taken out before the verdicts, word
// diffs of edited passages, the totals line, and the Markdown report per model (undisclosed models with new
// candidates first, page text escaped, an empty dataset said in words).
import { describe, expect, it } from 'vitest';
import {
  declarationsHide,
  hidingSelectors,
  markdownDiff,
  markdownReport,
  markdownText,
  recheckPage,
  recheckTotals,
  removeHidden,
  totalsLine,
  unreachableSource,
  wordDiff,
} from '../../../lib/recheck';
import { claim } from '../fixtures/records';

function doc(body: string, head = ''): Document {
  return new DOMParser().parseFromString(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, 'text/html');
}

describe('hidden elements', () => {
  it('knows the declarations that hide', () => {
    for (const d of [
      'display:none',
      'color: red; DISPLAY : none !important',
      'visibility: hidden',
      'visibility:collapse',
      'opacity: 0',
      'font-size: 0px',
      'content-visibility: hidden',
    ])
      expect(declarationsHide(d), d).toBe(true);
    for (const d of ['display: block', 'opacity: 0.5', 'font-size: 0.9em', '/* display:none */ color: red', 'max-display: none-ish'])
      expect(declarationsHide(d), d).toBe(false);
  });

  it("reads a sheet's hiding selectors, leaving rules inside @media alone", () => {
    const css = '.a, .b > p { display: none } .c { color: red } @media print { .d { display: none } } #e{visibility:hidden}';
    expect(hidingSelectors(css)).toEqual(['.a', '.b > p', '#e']);
  });

  it('takes out what markup hides, and keeps what shows', () => {
    const d = doc(
      '<p id="keep">shown</p><p hidden>h1</p><span aria-hidden="TRUE">h2</span><p style="display:none">h3</p><p class="x">h4</p><p class="y">shown too</p><p class="p">print only</p>',
      '<style>.x { display: none } .y:hover { display: none } @media print { .p { display: none } }</style>',
    );
    expect(removeHidden(d)).toBe(4);
    expect(d.body.textContent).toBe('shownshown tooprint only');
  });
});

describe('wordDiff and markdownDiff', () => {
  it('keeps the common words and marks the rest, joining back into both texts', () => {
    const parts = wordDiff('We use GRPO for math.', 'We use DAPO for math and code.');
    expect(
      parts
        .filter((p) => p.op !== 'added')
        .map((p) => p.text)
        .join(''),
    ).toBe('We use GRPO for math.');
    expect(
      parts
        .filter((p) => p.op !== 'removed')
        .map((p) => p.text)
        .join(''),
    ).toBe('We use DAPO for math and code.');
    expect(markdownDiff('We use GRPO for math.', 'We use DAPO for math and code.')).toBe('We use ~~GRPO~~ **DAPO** for ~~math.~~ **math and code.**');
  });

  it('shows an unchanged text plainly, and escapes markup in either', () => {
    expect(markdownDiff('same words', 'same words')).toBe('same words');
    expect(markdownDiff('a <b>x</b>', 'a <i>x</i>')).toBe('a ~~&lt;b&gt;x&lt;/b&gt;~~ **&lt;i&gt;x&lt;/i&gt;**');
  });
});

describe('markdownText', () => {
  it('lets no markup, link, HTML or table break through, and collapses white space', () => {
    expect(markdownText('[link](javascript:x) *b* _i_ `c` | ~s~ <script>&amp;\n\n  next')).toBe(
      '\\[link\\](javascript:x) \\*b\\* \\_i\\_ \\`c\\` \\| \\~s\\~ &lt;script&gt;&amp;amp; next',
    );
  });
});

describe('recheckPage', () => {
  const url = 'https://example.org/card';
  const said = 'Stage two applies GRPO with a KL penalty of zero to all math prompts.';
  const c = claim({ id: 'clm_hidden', quote: { exact: said, prefix: '', suffix: '' }, position: null, source: { ...claim().source, url } });

  it('finds a passage that shows, and calls one that is only in a hidden element gone', () => {
    expect(recheckPage(url, doc(`<p>${said}</p>`), [c]).verdicts[0]!.verdict).toBe('unchanged');
    expect(recheckPage(url, doc(`<p>Nothing here.</p><div style="display:none">${said}</div>`), [c]).verdicts[0]!.verdict).toBe('gone');
  });

  it('links each new candidate with a text fragment, and marks a not-disclosed source', () => {
    const u = claim({
      id: 'clm_undisclosed',
      kind: 'undisclosed',
      value: 'RL algorithm',
      quote: { exact: 'Training details are not disclosed.', prefix: '', suffix: '' },
      position: null,
      source: { ...claim().source, url },
    });
    const r = recheckPage(url, doc('<p>Training details are not disclosed.</p><p>Zeta-2 is trained with GRPO in its reasoning RL stage.</p>'), [u]);
    expect(r.undisclosedOnly).toBe(true);
    expect(r.candidates.length).toBeGreaterThan(0);
    expect(r.candidates[0]!.link).toMatch(/^https:\/\/example\.org\/card#:~:text=Zeta/);
  });
});

describe('markdownReport', () => {
  const url = 'https://example.org/a';
  const known = claim({
    id: 'clm_known',
    model: 'Alpha',
    quote: { exact: 'Alpha uses PPO with a learned reward model in the RLHF stage of its post-training.', prefix: '', suffix: '' },
    position: null,
    source: { ...claim().source, url, title: 'Alpha card' },
  });
  const hidden = claim({
    id: 'clm_und',
    model: 'Beta',
    kind: 'undisclosed',
    value: 'RL algorithm',
    quote: { exact: 'Beta says nothing of its training.', prefix: '', suffix: '' },
    position: null,
    source: { ...claim().source, url: 'https://example.org/b', title: 'Beta card' },
  });

  it('puts a model recorded as not disclosed with new candidates first, and says totals first', () => {
    const a = recheckPage(url, doc('<p>Alpha uses PPO with a trained reward model in the RLHF stage of its post-training.</p>'), [known]);
    const b = recheckPage(
      'https://example.org/b',
      doc('<p>Beta says nothing of its training.</p><p>Beta is trained with GRPO in its reasoning RL stage.</p>'),
      [hidden],
    );
    const report = markdownReport([a, b], '2026-12-05');
    expect(report.indexOf('## Beta')).toBeLessThan(report.indexOf('## Alpha'));
    expect(report).toContain('New on the page, where its claims say not disclosed:');
    expect(report).toContain('- **edited**: GRPO (algorithm, reasoning_rl; evidence A): Alpha uses PPO with a ~~learned~~ **trained** reward model');
    expect(report.split('\n')[2]).toBe(totalsLine(recheckTotals([a, b])));
    expect(totalsLine(recheckTotals([a, b]))).toMatch(
      /^2 sources: 1 unchanged, 1 changed, 0 unreachable; 2 claims: 1 unchanged, 1 edited, 0 gone, 0 unreachable; \d+ new candidates?$/,
    );
  });

  it('says why a source was not read, and what an empty recheck means', () => {
    const report = markdownReport([unreachableSource(url, [known], 'HTTP 503 after 3 attempts')], '2026-12-05');
    expect(report).toContain('### [Alpha card](<https://example.org/a>): unreachable');
    expect(report).toContain('Not read: HTTP 503 after 3 attempts. Nothing is said about its 1 claim.');
    expect(markdownReport([], '2026-12-05')).toContain('No claims to recheck');
  });
});
