import { describe, expect, it } from 'vitest';
import { PdfTextModel, type TextRun } from '../../../lib/pdf';

/** Runs for lines of text: each line one run (or several, split at `|`), ending the line. */
function lines(...text: string[]): TextRun[] {
  return text.flatMap((line) => {
    const parts = line.split('|');
    return parts.map((str, i) => ({ str, hasEOL: i === parts.length - 1 }));
  });
}

const PAGE1 = lines(
  'Zeta-3 Technical Report',
  'In the reasoning stage, Zeta-3 is optimised with',
  'Group Relative |Policy Optimization| using rule-based rewards.',
);
const PAGE2 = [
  { str: '', hasEOL: true },
  ...lines('Our asynchronous rollout system decouples generation', 'from training. The second column explains partial rollouts.'),
];
// The viewer builds the model in a detached document; happy-dom orders Range boundaries only in its main document, so
// the tests build it there (a fresh body each time).
const doc = () => {
  document.body.replaceChildren();
  return document;
};

describe('the whole-document text model', () => {
  it('reads every page as one text: line ends and page breaks are spaces, runs on a line are joined', () => {
    const model = PdfTextModel.build([PAGE1, PAGE2], doc());
    expect(model.text).toBe(
      'Zeta-3 Technical Report In the reasoning stage, Zeta-3 is optimised with Group Relative Policy Optimization using rule-based rewards. ' +
        'Our asynchronous rollout system decouples generation from training. The second column explains partial rollouts.',
    );
    expect(model.pageCount).toBe(2);
    expect(model.pageStart[0]).toBe(0);
    expect(model.text.slice(model.pageStart[1]!)).toMatch(/^Our asynchronous/);
    expect(model.pageAt(0)).toBe(1);
    expect(model.pageAt(model.pageStart[1]! - 1)).toBe(1);
    expect(model.pageAt(model.pageStart[1]!)).toBe(2);
  });

  it('describes a selection between run points with 32 characters of context and its offsets, on the page it starts', () => {
    const model = PdfTextModel.build([PAGE1, PAGE2], doc());
    // From "Group" (page 1, run 2) to the end of "Optimization" (run 3).
    const passage = model.describe({ page: 1, run: 2, offset: 0 }, { page: 1, run: 3, offset: 'Policy Optimization'.length });
    expect(passage.quote.exact).toBe('Group Relative Policy Optimization');
    expect(passage.quote.prefix).toBe('reasoning stage, Zeta-3 is optimised with '.slice(-32));
    expect(passage.quote.suffix).toBe(' using rule-based rewards. Our a');
    expect(model.text.slice(passage.position.start, passage.position.end)).toBe(passage.quote.exact);
    expect(passage.page).toBe(1);
  });

  it('anchors stored selectors over the whole text and places them on page segments', () => {
    const model = PdfTextModel.build([PAGE1, PAGE2], doc());
    const passage = model.describe({ page: 2, run: 1, offset: 4 }, { page: 2, run: 2, offset: 'from training'.length });
    expect(passage.quote.exact).toBe('asynchronous rollout system decouples generation from training');
    const [found] = model.anchorAll([{ quote: passage.quote, position: passage.position }]);
    expect(found!.result.status).toBe('anchored');
    expect(found!.placed).toEqual({
      start: passage.position.start,
      end: passage.position.end,
      page: 2,
      segments: [{ page: 2, start: { page: 2, run: 1, offset: 4 }, end: { page: 2, run: 2, offset: 13 } }],
    });
  });

  it('splits a passage across a page break into one segment per page', () => {
    const model = PdfTextModel.build([PAGE1, PAGE2], doc());
    const start = model.text.indexOf('rule-based rewards.');
    const end = model.text.indexOf(' system');
    const placed = model.place(start, end)!;
    expect(placed.page).toBe(1);
    expect(placed.segments.map((s) => s.page)).toEqual([1, 2]);
    expect(placed.segments[0]!.end).toEqual({ page: 1, run: 4, offset: ' using rule-based rewards.'.length });
    expect(placed.segments[1]!.start).toEqual({ page: 2, run: 1, offset: 0 });
    expect(placed.segments[1]!.end).toEqual({ page: 2, run: 1, offset: 'Our asynchronous rollout'.length });
  });

  it('re-anchors on a new version of the file: exact where unchanged, fuzzy where lightly edited, orphan where rewritten', () => {
    const v1 = PdfTextModel.build([PAGE1, PAGE2], doc());
    const grpo = v1.describe({ page: 1, run: 1, offset: 0 }, { page: 1, run: 4, offset: ' using rule-based rewards.'.length });
    const async = v1.describe({ page: 2, run: 1, offset: 0 }, { page: 2, run: 2, offset: 'from training.'.length });
    const column = v1.describe(
      { page: 2, run: 2, offset: 'from training. '.length },
      { page: 2, run: 2, offset: 'from training. The second column explains partial rollouts.'.length },
    );
    const v2 = PdfTextModel.build(
      [
        lines('Zeta-3 Technical Report', 'In the reasoning stage, Zeta-3 is optimized with', 'Group Relative |Policy Optimization| using rule-based rewards.'),
        lines('Generation now runs on separate machines and never', 'waits. The second column explains partial rollouts.'),
      ],
      doc(),
    );
    const [a, b, c] = v2.anchorAll([grpo, async, column].map((p) => ({ quote: p.quote, position: p.position })));
    expect(a!.result).toMatchObject({ status: 'anchored', exact: false });
    expect(a!.placed!.segments.map((s) => s.page)).toEqual([1]);
    expect(b!.result.status).toBe('orphan');
    expect(b!.placed).toBeNull();
    expect(c!.result).toMatchObject({ status: 'anchored', exact: true, text: 'The second column explains partial rollouts.' });
    expect(c!.placed!.page).toBe(2);
  });

  it('finds text whatever its case, white space and quote style', () => {
    const model = PdfTextModel.build([lines('He said “GRPO” twice:', 'grpo and  GRPO.')], doc());
    expect(model.find('grpo').length).toBe(3);
    expect(model.find('"grpo"')).toEqual([{ start: model.text.indexOf('“'), end: model.text.indexOf('”') + 1 }]);
    expect(model.find('twice: grpo')).toHaveLength(1);
    expect(model.find('   ')).toEqual([]);
  });

  it('keeps pages without text and runs without characters out of the way', () => {
    const model = PdfTextModel.build([lines('First page.'), [], [{ str: '', hasEOL: true }], lines('Last page.')], doc());
    expect(model.text).toBe('First page. Last page.');
    expect(model.pageAt(model.text.indexOf('Last'))).toBe(4);
    expect(model.runsOf(2)).toEqual([]);
    const placed = model.place(0, model.text.length)!;
    expect(placed.segments.map((s) => s.page)).toEqual([1, 4]);
    expect(model.describeOffsets(12, 22)).toMatchObject({ quote: { exact: 'Last page.' }, page: 4 });
  });
});
