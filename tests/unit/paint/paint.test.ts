import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HighlightPainter, KIND_COLOURS, PENDING_HIGHLIGHT, ACTIVE_HIGHLIGHT, CANDIDATE_HIGHLIGHT, highlightName, type PaintWindow } from '../../../lib/paint';
import { CLAIM_KINDS } from '../../../lib/schema';
import { panelPosition, toolbarPosition } from '../../../lib/capture/selection';

/** A window whose CSS.highlights is a plain Map and whose Highlight is a Set of ranges. */
function fakeWindow(): PaintWindow & { registry: Map<string, Set<Range> & { priority?: number }> } {
  const registry = new Map();
  class FakeHighlight extends Set<Range> {
    priority = 0;
    constructor(...ranges: Range[]) {
      super(ranges);
    }
  }
  return { CSS: { highlights: registry }, Highlight: FakeHighlight, document, registry } as never;
}

function rangeOver(text: string): Range {
  const p = document.createElement('p');
  p.textContent = text;
  document.body.append(p);
  const r = document.createRange();
  r.selectNodeContents(p);
  return r;
}

/** The two highlight stylesheets: Chromium's rules on the root element (highlight inheritance), Firefox's on every element. */
const SHEETS = [
  { file: '../../../entrypoints/claims.content/highlights-root.css', prefix: ':root::highlight' },
  { file: '../../../entrypoints/paint.content/highlights.css', prefix: '::highlight' },
];

describe.each(SHEETS)('the highlight stylesheet $file', ({ file, prefix }) => {
  const css = () => readFileSync(path.resolve(__dirname, file), 'utf8');
  const ruleFor = (name: string) =>
    css()
      .split('\n')
      .find((l) => l.startsWith(`${prefix}(${name})`));

  it('has a rule for every kind with the colours the painter uses, plus active and pending', () => {
    for (const kind of CLAIM_KINDS) {
      const rule = ruleFor(highlightName(kind));
      expect(rule, kind).toBeDefined();
      expect(rule).toContain(KIND_COLOURS[kind].fill);
      expect(rule).toContain(KIND_COLOURS[kind].line);
    }
    expect(ruleFor(ACTIVE_HIGHLIGHT)).toBeDefined();
    expect(ruleFor(PENDING_HIGHLIGHT)).toBeDefined();
  });

  it("styles the finder's candidates apart from every claim kind", () => {
    const rule = ruleFor(CANDIDATE_HIGHLIGHT);
    expect(rule).toBeDefined();
    for (const kind of CLAIM_KINDS) {
      expect(rule).not.toContain(KIND_COLOURS[kind].fill);
      expect(rule).not.toContain(KIND_COLOURS[kind].line);
    }
  });

  it('has only rules of its own form (no rule of the other sheet that would cost every element a style)', () => {
    const rules = css()
      .split('\n')
      .filter((l) => l.includes('::highlight('));
    expect(rules.length).toBeGreaterThanOrEqual(CLAIM_KINDS.length + 3);
    for (const rule of rules) expect(rule.startsWith(`${prefix}(`), rule).toBe(true);
  });
});

describe('HighlightPainter', () => {
  it('paints finder candidates in their own highlight beneath claims, and clears them with everything else', () => {
    const win = fakeWindow();
    const painter = new HighlightPainter(win);
    const a = rangeOver('We use GRPO.');
    const b = rangeOver('Trained with slime.');
    painter.paint([{ id: 'clm_1', kind: 'algorithm', range: a }]);
    painter.paintCandidates([a, b]);
    expect([...win.registry.get(CANDIDATE_HIGHLIGHT)!]).toEqual([a, b]);
    expect(win.registry.get(CANDIDATE_HIGHLIGHT)!.priority).toBeLessThan(win.registry.get(highlightName('algorithm'))!.priority!);
    // Candidates are not claims: hit-testing and the painted claims ignore them.
    expect(painter.claims().map((c) => c.id)).toEqual(['clm_1']);
    painter.paintCandidates([]);
    expect(win.registry.has(CANDIDATE_HIGHLIGHT)).toBe(false);
    painter.paintCandidates([b]);
    painter.clear();
    expect(win.registry.size).toBe(0);
  });

  it('registers one highlight per kind holding one range per claim, and removes kinds no longer used', () => {
    const win = fakeWindow();
    const painter = new HighlightPainter(win);
    const a = rangeOver('alpha');
    const b = rangeOver('beta');
    painter.paint([
      { id: '1', kind: 'algorithm', range: a },
      { id: '2', kind: 'algorithm', range: b },
      { id: '3', kind: 'framework', range: b },
    ]);
    expect([...win.registry.keys()].sort()).toEqual([highlightName('algorithm'), highlightName('framework')].sort());
    expect([...win.registry.get(highlightName('algorithm'))!]).toEqual([a, b]);
    painter.setActive(['3']);
    expect([...win.registry.get(ACTIVE_HIGHLIGHT)!]).toEqual([b]);
    painter.paint([{ id: '1', kind: 'algorithm', range: a }]);
    expect(win.registry.has(highlightName('framework'))).toBe(false);
    painter.markPending(a);
    expect(win.registry.has(PENDING_HIGHLIGHT)).toBe(true);
    painter.clear();
    expect(win.registry.size).toBe(0);
  });

  it('repaints only what changed: the same ranges stay in the same registered highlight, others come and go', () => {
    const win = fakeWindow();
    const painter = new HighlightPainter(win);
    const a = rangeOver('alpha');
    const b = rangeOver('beta');
    const c = rangeOver('gamma');
    painter.paint([
      { id: '1', kind: 'algorithm', range: a },
      { id: '2', kind: 'algorithm', range: b },
    ]);
    const algorithm = win.registry.get(highlightName('algorithm'))!;
    painter.paint([
      { id: '1', kind: 'algorithm', range: a },
      { id: '3', kind: 'algorithm', range: c },
      { id: '2', kind: 'stage', range: b },
    ]);
    expect(win.registry.get(highlightName('algorithm'))).toBe(algorithm);
    expect([...algorithm]).toEqual([a, c]);
    expect([...win.registry.get(highlightName('stage'))!]).toEqual([b]);
    expect(algorithm.priority).toBe(1);
  });

  it('paints in batches, one per frame, with the claims known from the start', async () => {
    const win = fakeWindow();
    const painter = new HighlightPainter(win);
    const ranges = Array.from({ length: 7 }, (_, i) => rangeOver(`passage ${i}`));
    const claims = ranges.map((range, i) => ({ id: String(i), kind: CLAIM_KINDS[i % 2]!, range }));
    const sizes: number[] = [];
    const total = () => [...win.registry.values()].reduce((n, h) => n + h.size, 0);
    let frames = 0;
    const done = painter.paintInBatches(claims, {
      batchSize: 3,
      nextFrame: async () => {
        sizes.push(total());
        frames += 1;
      },
    });
    expect(painter.claims()).toHaveLength(7);
    expect(await done).toBe(true);
    expect(sizes).toEqual([3, 6]);
    expect(frames).toBe(2);
    expect(total()).toBe(7);
    // Painting the same claims again adds nothing and needs no frame.
    expect(await painter.paintInBatches(claims, { batchSize: 3, nextFrame: async () => frames++ })).toBe(true);
    expect(frames).toBe(2);
  });

  it('drops stale ranges at once and stops a batched paint that a newer paint overtook', async () => {
    const win = fakeWindow();
    const painter = new HighlightPainter(win);
    const old = rangeOver('old passage');
    painter.paint([{ id: 'old', kind: 'reward', range: old }]);
    const ranges = Array.from({ length: 4 }, (_, i) => rangeOver(`new ${i}`));
    let release: () => void = () => undefined;
    const first = painter.paintInBatches(
      ranges.map((range, i) => ({ id: String(i), kind: 'system' as const, range })),
      { batchSize: 2, nextFrame: () => new Promise<void>((resolve) => (release = resolve)) },
    );
    // The stale range went before the first batch; the first batch is in.
    expect(win.registry.has(highlightName('reward'))).toBe(false);
    expect(win.registry.get(highlightName('system'))!.size).toBe(2);
    painter.paint([{ id: 'x', kind: 'stage', range: ranges[3]! }]);
    release();
    expect(await first).toBe(false);
    expect([...win.registry.keys()]).toEqual([highlightName('stage')]);
    expect([...win.registry.get(highlightName('stage'))!]).toEqual([ranges[3]]);
  });

  it('paints nothing, and throws nothing, where the Highlight API is missing', () => {
    const painter = new HighlightPainter({ CSS: {}, document } as never);
    painter.paint([{ id: '1', kind: 'stage', range: rangeOver('x') }]);
    expect(painter.claims()).toHaveLength(1);
    expect(painter.hitTest(1, 1)).toEqual([]);
  });
});

describe('placing floating UI', () => {
  const viewport = { width: 1200, height: 800 };
  it('puts a panel below the passage when it fits', () => {
    expect(panelPosition({ left: 100, top: 100, bottom: 120 }, { width: 380, height: 500 }, viewport)).toEqual({ x: 100, y: 130 });
  });
  it('puts it above when only that fits', () => {
    expect(panelPosition({ left: 100, top: 700, bottom: 720 }, { width: 380, height: 500 }, viewport)).toEqual({ x: 100, y: 190 });
  });
  it('docks it to the side away from the passage when neither fits', () => {
    const left = panelPosition({ left: 100, right: 300, top: 400, bottom: 420 }, { width: 380, height: 560 }, viewport);
    expect(left.x).toBe(1200 - 380 - 16);
    const right = panelPosition({ left: 800, right: 1100, top: 400, bottom: 420 }, { width: 380, height: 560 }, viewport);
    expect(right.x).toBe(16);
  });
  it('keeps the toolbar inside the viewport', () => {
    const range = { getClientRects: () => [{ right: 1195, bottom: 795, top: 780 }], getBoundingClientRect: () => ({}) } as unknown as Range;
    const at = toolbarPosition(range, viewport);
    expect(at.x + 190).toBeLessThanOrEqual(1200);
    expect(at.y).toBeLessThan(780);
  });
});

describe('HighlightPainter in a content script that cannot read its Highlights back (Firefox)', () => {
  /** Like fakeWindow, but each Highlight iterates as empty and reports no size, as a wrapped page object may. */
  function opaqueWindow() {
    const win = fakeWindow();
    class OpaqueHighlight extends (win.Highlight as unknown as typeof Set<Range>) {
      priority = 0;
      override get size(): number {
        return Number.NaN;
      }
      override [Symbol.iterator](): SetIterator<Range> {
        return new Set<Range>().values();
      }
    }
    return Object.assign(win, { Highlight: OpaqueHighlight as never });
  }

  it('removes what it painted and unregisters the kind when a page moves on to an address without claims', () => {
    const win = opaqueWindow();
    const painter = new HighlightPainter(win);
    const a = rangeOver('We use GRPO.');
    const b = rangeOver('Trained with slime.');
    painter.paint([
      { id: 'clm_1', kind: 'algorithm', range: a },
      { id: 'clm_2', kind: 'framework', range: b },
    ]);
    expect([...win.registry.keys()].sort()).toEqual([highlightName('algorithm'), highlightName('framework')]);
    painter.paint([{ id: 'clm_2', kind: 'framework', range: b }]);
    expect([...win.registry.keys()]).toEqual([highlightName('framework')]);
    painter.clear();
    expect(win.registry.size).toBe(0);
  });
});
