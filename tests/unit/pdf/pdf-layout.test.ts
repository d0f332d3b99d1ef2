// How a PDF's runs read as body text (lib/pdf/layout.ts and the text model built on it): page furniture found by
// position and repetition, line-end hyphens joined or kept by the document's own words, offsets that map back to the
// glyphs, claims of the earlier form still anchored, small capitals in their displayed case, heading breaks and
// reference lists for the finder.
import { describe, expect, it } from 'vitest';
import { PdfTextModel, readDocument, smallCapitals, type TextRun } from '../../../lib/pdf';

/** A line of text drawn at baseline `y` (PDF units, y up), one run ending the line. */
interface Line {
  text: string;
  y: number;
  size?: number;
  x?: number;
  font?: string;
}

function run(str: string, y: number, size = 10, x = 72, font = 'body', hasEOL = true): TextRun {
  return { str, hasEOL, transform: [size, 0, 0, size, x, y], width: str.length * size * 0.5, fontName: font };
}

function page(lines: Line[]): TextRun[] {
  return lines.map((l) => run(l.text, l.y, l.size, l.x, l.font));
}

/** Body lines from the top of the text block (y = 740) down, 12 units apart. */
function body(texts: string[], top = 740): Line[] {
  return texts.map((text, k) => ({ text, y: top - 12 * k }));
}

const filler = (p: number, n: number) =>
  Array.from({ length: n }, (_, k) => `Page ${p} paragraph line ${k} explains how the policy is trained and evaluated on maths.`);

const doc = () => {
  document.body.replaceChildren();
  return document;
};

/** A report of `count` pages with a running header in small type, page numbers, and the given body lines per page. */
function report(count: number, bodyOf: (p: number) => string[], header = 'Zeta-3 TECHNICAL REPORT'): TextRun[][] {
  return Array.from({ length: count }, (_, i) => {
    const p = i + 1;
    return page([{ text: header, y: 790, size: 8 }, ...body(bodyOf(p)), { text: String(p), y: 40, x: 300 }]);
  });
}

describe('page furniture', () => {
  it('leaves running headers and page numbers out of the text, found by their position and repetition', () => {
    const pages = report(6, (p) => [...filler(p, 20), p === 2 ? 'A sentence that runs across the page break into the' : 'End of page.']);
    pages[2] = page([
      { text: 'Zeta-3 TECHNICAL REPORT', y: 790, size: 8 },
      ...body(['next page, where it ends.', ...filler(3, 20)]),
      { text: '3', y: 40, x: 300 },
    ]);
    const model = PdfTextModel.build(pages, doc());
    expect(model.reading!.furniture).toEqual(
      Array.from({ length: 6 }, (_, i) => [
        { page: i + 1, text: 'Zeta-3 TECHNICAL REPORT' },
        { page: i + 1, text: String(i + 1) },
      ]).flat(),
    );
    expect(model.text).not.toContain('TECHNICAL REPORT');
    expect(model.text).toContain('A sentence that runs across the page break into the next page, where it ends.');
    expect(model.earlierText).toContain('into the 2 Zeta-3 TECHNICAL REPORT next page');
    expect(model.isFurniture(2, 0)).toBe(true);
    expect(model.isFurniture(2, 1)).toBe(false);
  });

  it('finds a running header set in the body type as well', () => {
    const model = PdfTextModel.build(
      Array.from({ length: 5 }, (_, i) => page([{ text: `${i + 10} Zeta-3 Technical Report`, y: 780 }, ...body(filler(i + 1, 25))])),
      doc(),
    );
    expect(model.reading!.furniture.map((f) => f.text)).toEqual([
      '10 Zeta-3 Technical Report',
      '11 Zeta-3 Technical Report',
      '12 Zeta-3 Technical Report',
      '13 Zeta-3 Technical Report',
      '14 Zeta-3 Technical Report',
    ]);
  });

  it('keeps a heading at the top of every page, set close to its text, and body lines that repeat', () => {
    const pages = Array.from({ length: 5 }, (_, i) => page([{ text: `Section ${i + 1}`, y: 755, size: 13 }, ...body(['Answer: [Yes]', ...filler(i + 1, 20)])]));
    const model = PdfTextModel.build(pages, doc());
    expect(model.reading!.furniture).toEqual([]);
    expect(model.text).toContain('Section 3 Answer: [Yes] Page 3 paragraph line 0');
  });

  it('leaves out a stamp above or below the text block of one page, and a rotated stamp beside it', () => {
    const first = page([{ text: '2025-05-14', y: 800 }, ...body(filler(1, 20)), { text: 'Preprint. Under review.', y: 48, size: 9 }]);
    first.push({ str: 'arXiv:2505.09388v1 [cs.CL] 14 May 2025', hasEOL: true, transform: [0, 20, -20, 0, 20, 300], width: 380, fontName: 'stamp' });
    const model = PdfTextModel.build([first, page(body(filler(2, 20))), page(body(filler(3, 20)))], doc());
    expect(model.reading!.furniture.map((f) => f.text)).toEqual(['2025-05-14', 'Preprint. Under review.', 'arXiv:2505.09388v1 [cs.CL] 14 May 2025']);
    expect(model.text.startsWith('Page 1 paragraph line 0')).toBe(true);
  });

  it('keeps a caption line that repeats at the top of several pages when the line before it does not', () => {
    const tables = ['Spanish', 'German', 'Korean', 'Arabic'].map((language, i) =>
      page([
        { text: `Table ${i + 24}: Benchmark scores for ${language}. The highest and second-best scores are shown`, y: 724 },
        { text: 'in bold and underlined, respectively.', y: 713 },
        ...body(filler(i + 1, 20), 670),
      ]),
    );
    expect(readDocument([page(body(filler(8, 30))), ...tables, page(body(filler(9, 30)))]).furniture).toEqual([]);
  });

  it('reads a document without positions as before: every run, no furniture', () => {
    const model = PdfTextModel.build(
      [
        [
          { str: '1', hasEOL: true },
          { str: 'Only text.', hasEOL: true },
        ],
      ],
      doc(),
    );
    expect(model.text).toBe('1 Only text.');
    expect(model.reading!.furniture).toEqual([]);
  });
});

describe('line-end hyphens', () => {
  /** The body text of one page whose lines are `lines`, after a page that holds `elsewhere` (the document's other words). */
  function read(lines: string[], elsewhere: string[] = []): PdfTextModel {
    return PdfTextModel.build([page(body([...elsewhere, 'Filler line one.', 'Filler line two.'])), page(body(lines))], doc());
  }

  it.each([
    [
      'joins a word broken inside it when the whole word occurs elsewhere',
      ['trained by super-', 'vised fine-tuning first.'],
      ['Supervised data helps.'],
      'trained by supervised fine-tuning first.',
    ],
    [
      'keeps the hyphen of a compound that occurs hyphenated elsewhere',
      ['the model is then fine-', 'tuned on maths.'],
      ['Its fine-tuned weights.'],
      'the model is then fine-tuned on maths.',
    ],
    [
      'keeps the hyphen after an acronym or a name with a digit',
      ['a simple RL-', 'based recipe and Qwen3-', 'style prompts.'],
      [],
      'a simple RL-based recipe and Qwen3-style prompts.',
    ],
    ['keeps the hyphen before a capital or a digit', ['compared with DeepSeek-', 'V3 and QwQ-', '32B.'], [], 'compared with DeepSeek-V3 and QwQ-32B.'],
    [
      'keeps the hyphen of a prefix the document writes with one',
      ['a multi-', 'level curriculum.'],
      ['Multi-turn and multi-step tasks.'],
      'a multi-level curriculum.',
    ],
    [
      'keeps the hyphen when both parts are words of the document',
      ['a cost-', 'effective recipe.'],
      ['The cost is low and the recipe effective.'],
      'a cost-effective recipe.',
    ],
    ['joins a break inside a word when nothing says otherwise', ['a steady im-', 'provement on maths.'], [], 'a steady improvement on maths.'],
    ['leaves a hyphen before a lower-case word that is not at a line end alone', ['a rule-based reward.'], [], 'a rule-based reward.'],
  ])('%s', (_name, lines, elsewhere, expected) => {
    expect(read(lines, elsewhere).text).toContain(expected);
  });

  it('joins a word across a page break, over the page number and the running header', () => {
    const pages = report(4, (p) => filler(p, 20));
    pages[1] = page([{ text: 'Zeta-3 TECHNICAL REPORT', y: 790, size: 8 }, ...body([...filler(2, 19), 'a steady im-']), { text: '2', y: 40, x: 300 }]);
    pages[2] = page([{ text: 'Zeta-3 TECHNICAL REPORT', y: 790, size: 8 }, ...body(['provement on maths.', ...filler(3, 19)]), { text: '3', y: 40, x: 300 }]);
    const model = PdfTextModel.build(pages, doc());
    expect(model.text).toContain('a steady improvement on maths.');
    expect(model.reading!.hyphens).toContainEqual({ page: 2, run: 20, word: 'improvement', kept: false });
  });

  it('records each decision for the document', () => {
    const hyphens = read(['super-', 'vised and multi-', 'level.'], ['Supervised, multi-turn.']).reading!.hyphens;
    expect(hyphens.map((h) => [h.word, h.kept])).toEqual([
      ['supervised', false],
      ['multi-level', true],
    ]);
  });
});

describe('offsets map back to the glyphs', () => {
  const pages = report(4, (p) => filler(p, 20));
  pages[1] = page([
    { text: 'Zeta-3 TECHNICAL REPORT', y: 790, size: 8 },
    ...body([...filler(2, 19), 'The policy is trained by super-']),
    { text: '2', y: 40, x: 300 },
  ]);
  pages[2] = page([
    { text: 'Zeta-3 TECHNICAL REPORT', y: 790, size: 8 },
    ...body(['vised fine-tuning, then with GRPO.', ...filler(3, 19)]),
    { text: '3', y: 40, x: 300 },
  ]);

  it('places a joined word across a page break on the hyphen run (its hyphen painted too) and the next page’s first body run', () => {
    const model = PdfTextModel.build(pages, doc());
    const at = model.text.indexOf('supervised');
    const placed = model.place(at, at + 'supervised fine-tuning'.length)!;
    expect(placed.segments).toEqual([
      {
        page: 2,
        start: { page: 2, run: 20, offset: 'The policy is trained by '.length },
        end: { page: 2, run: 20, offset: 'The policy is trained by super-'.length },
      },
      { page: 3, start: { page: 3, run: 1, offset: 0 }, end: { page: 3, run: 1, offset: 'vised fine-tuning'.length } },
    ]);
    expect(placed.page).toBe(2);
    // Within one line, the hyphen-less word maps to its own glyphs.
    const one = model.place(model.text.indexOf('trained by super'), model.text.indexOf('trained by super') + 'trained by super'.length)!;
    expect(one.segments).toEqual([{ page: 2, start: { page: 2, run: 20, offset: 14 }, end: { page: 2, run: 20, offset: 30 } }]);
  });

  it('describes a selection dragged over the page number and the header as the body text only', () => {
    const model = PdfTextModel.build(pages, doc());
    // From "trained" on page 2 to the end of "GRPO" on page 3: the drag crosses the page number and the header.
    const passage = model.describe(
      { page: 2, run: 20, offset: 'The policy is '.length },
      { page: 3, run: 1, offset: 'vised fine-tuning, then with GRPO'.length },
    );
    expect(passage.quote.exact).toBe('trained by supervised fine-tuning, then with GRPO');
    expect(passage.page).toBe(2);
    expect(model.text.slice(passage.position.start, passage.position.end)).toBe(passage.quote.exact);
    // A selection that starts on the page number starts at the next body text.
    expect(model.describe({ page: 2, run: 21, offset: 0 }, { page: 3, run: 1, offset: 5 }).quote.exact).toBe('vised');
  });

  it('anchors a claim stored in the earlier form (page number, header and hyphen in its quote) exactly, on the same glyphs', () => {
    const earlier = PdfTextModel.build(pages, doc(), { reading: false });
    const old = earlier.describe({ page: 2, run: 20, offset: 'The policy is '.length }, { page: 3, run: 1, offset: 'vised fine-tuning'.length });
    expect(old.quote.exact).toBe('trained by super- 2 Zeta-3 TECHNICAL REPORT vised fine-tuning');
    const model = PdfTextModel.build(pages, doc());
    const [found] = model.anchorAll([{ quote: old.quote, position: old.position }]);
    expect(found!.result).toMatchObject({ status: 'anchored', exact: true, text: 'trained by supervised fine-tuning' });
    expect(found!.placed!.segments).toEqual([
      { page: 2, start: { page: 2, run: 20, offset: 'The policy is '.length }, end: { page: 2, run: 20, offset: 'The policy is trained by super-'.length } },
      { page: 3, start: { page: 3, run: 1, offset: 0 }, end: { page: 3, run: 1, offset: 'vised fine-tuning'.length } },
    ]);
    expect(model.text.slice(found!.placed!.start, found!.placed!.end)).toBe('trained by supervised fine-tuning');
  });

  it('anchors a claim of the body text as before, without reading the earlier form', () => {
    const model = PdfTextModel.build(pages, doc());
    const passage = model.describeOffsets(model.text.indexOf('then with GRPO'), model.text.indexOf('then with GRPO') + 14);
    const [found] = model.anchorAll([{ quote: passage.quote, position: passage.position }]);
    expect(found!.result).toMatchObject({ status: 'anchored', exact: true, text: 'then with GRPO' });
  });
});

describe('small capitals', () => {
  it('lowers the smaller capitals of a word set in two sizes, on its baseline', () => {
    const runs: TextRun[] = [run('AR', 680, 17.2, 108, 'b', false), run('EA', 680, 13.8, 134, 'b', false), run('L: A Large-Scale System', 680, 17.2, 155, 'b')];
    expect([...smallCapitals(runs)]).toEqual([[1, 'ea']]);
    const model = PdfTextModel.build([[...runs, ...page(body(filler(1, 3), 640))]], doc());
    expect(model.text.startsWith('AReaL: A Large-Scale System')).toBe(true);
  });

  it('leaves capitals alone on a line without a word in two sizes, and superscripts off the baseline', () => {
    expect(smallCapitals([run('GRPO and PPO', 700), run('AB', 704, 7, 200)]).size).toBe(0);
    expect(smallCapitals([run('K', 700, 17), run('IMI', 700, 14), run('K1.5', 700, 14)])).toEqual(
      new Map([
        [1, 'imi'],
        [2, 'k1.5'],
      ]),
    );
  });
});

describe('what the finder learns from the layout', () => {
  const bold = (text: string, y: number): Line => ({ text, y, font: 'bold' });
  const pages = [
    page([
      bold('4.2 Reasoning RL', 740),
      ...body(['The query-verifier pairs used in the Reasoning RL stage', 'must satisfy four criteria.', ...filler(1, 10)], 720),
    ]),
    [
      run('RL for LLMs', 740, 10, 72, 'bold', false),
      run(' ', 740, 10, 130, 'body', false),
      run('Reinforcement learning has emerged as the paradigm.', 740, 10, 135),
      ...page(body(filler(2, 10), 728)),
      ...page([bold('References', 580), ...body(['[1] A. Author. GRPO in practice. 2024.', '[2] B. Author. PPO again. 2023.'], 560)]),
    ],
  ];

  it('breaks a sentence after a heading line and a run-in heading', () => {
    const model = PdfTextModel.build(pages, doc());
    const at = (s: string) => model.text.indexOf(s);
    // Each break lies between the heading and its text (before or after the space that separates them).
    for (const text of ['The query-verifier', 'Reinforcement learning has', '[1] A. Author']) {
      expect(
        [...model.breaks].some((b) => b === at(text) || b === at(text) - 1),
        text,
      ).toBe(true);
    }
    expect(model.text.slice(0, at('The query-verifier'))).toBe('4.2 Reasoning RL ');
  });

  it('marks the reference list and the title’s own name', () => {
    const model = PdfTextModel.build([page([{ text: 'AReaL: Asynchronous RL at Scale', y: 760, size: 17 }, ...body(filler(1, 5), 700)]), ...pages], doc());
    const hints = model.finderHints();
    expect(hints.skip.map((r) => model.text.slice(r.start, r.end))).toEqual(['[1] A. Author. GRPO in practice. 2024. [2] B. Author. PPO again. 2023.']);
    expect(hints.own).toEqual(['AReaL']);
  });
});
