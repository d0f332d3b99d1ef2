import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HighlightPainter, KIND_COLOURS, PENDING_HIGHLIGHT, ACTIVE_HIGHLIGHT, CANDIDATE_HIGHLIGHT, highlightName, type PaintWindow } from '../../lib/paint';
import { CLAIM_KINDS } from '../../lib/schema';
import { panelPosition, toolbarPosition } from '../../lib/capture/selection';

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

describe('the highlight stylesheet', () => {
  it('has a rule for every kind with the colours the painter uses, plus active and pending', () => {
    const css = readFileSync(path.resolve(__dirname, '../../entrypoints/claims.content/highlights.css'), 'utf8');
    for (const kind of CLAIM_KINDS) {
      const rule = css.split('\n').find((l) => l.startsWith(`::highlight(${highlightName(kind)})`));
      expect(rule, kind).toBeDefined();
      expect(rule).toContain(KIND_COLOURS[kind].fill);
      expect(rule).toContain(KIND_COLOURS[kind].line);
    }
    expect(css).toContain(`::highlight(${ACTIVE_HIGHLIGHT})`);
    expect(css).toContain(`::highlight(${PENDING_HIGHLIGHT})`);
  });

  it("styles the finder's candidates apart from every claim kind", () => {
    const css = readFileSync(path.resolve(__dirname, '../../entrypoints/claims.content/highlights.css'), 'utf8');
    const rule = css.split('\n').find((l) => l.startsWith(`::highlight(${CANDIDATE_HIGHLIGHT})`));
    expect(rule).toBeDefined();
    for (const kind of CLAIM_KINDS) {
      expect(rule).not.toContain(KIND_COLOURS[kind].fill);
      expect(rule).not.toContain(KIND_COLOURS[kind].line);
    }
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
