/**
 * Painting claims with the CSS Custom Highlight API: one Range per claim over
 * its whole passage, grouped into one Highlight per kind. The page's DOM is
 * never changed; hit-testing maps a point back to the claims under it.
 */
import { CLAIM_KINDS, type ClaimKind } from '../schema';
import { ACTIVE_HIGHLIGHT, CANDIDATE_HIGHLIGHT, PENDING_HIGHLIGHT, highlightName } from './kinds';

/** The window whose `CSS.highlights` we paint into. */
export type PaintWindow = Window & typeof globalThis;

/** A claim placed on the page. */
export interface PaintedClaim {
  id: string;
  kind: ClaimKind;
  range: Range;
}

/** Whether this browser can paint with the Custom Highlight API. */
export function canPaint(win: PaintWindow = window): boolean {
  return typeof win.CSS !== 'undefined' && 'highlights' in win.CSS && typeof win.Highlight === 'function';
}

/** Keeps our highlights in `CSS.highlights` in step with the claims placed on a page. */
export class HighlightPainter {
  private painted: PaintedClaim[] = [];
  private readonly win: PaintWindow;

  constructor(win: PaintWindow = window) {
    this.win = win;
  }

  /** Replaces everything painted with these claims. */
  paint(claims: readonly PaintedClaim[]): void {
    this.painted = [...claims];
    if (!canPaint(this.win)) return;
    const byKind = new Map<ClaimKind, Range[]>();
    for (const claim of claims) {
      const list = byKind.get(claim.kind) ?? [];
      list.push(claim.range);
      byKind.set(claim.kind, list);
    }
    for (const kind of CLAIM_KINDS) {
      const ranges = byKind.get(kind);
      const name = highlightName(kind);
      if (ranges?.length) {
        const highlight = new this.win.Highlight(...ranges);
        highlight.priority = 1;
        this.win.CSS.highlights.set(name, highlight);
      } else {
        this.win.CSS.highlights.delete(name);
      }
    }
  }

  /** Marks some painted claims as active (hovered, focused), or none. */
  setActive(ids: readonly string[]): void {
    if (!canPaint(this.win)) return;
    const wanted = new Set(ids);
    const ranges = this.painted.filter((c) => wanted.has(c.id)).map((c) => c.range);
    if (!ranges.length) {
      this.win.CSS.highlights.delete(ACTIVE_HIGHLIGHT);
      return;
    }
    const highlight = new this.win.Highlight(...ranges);
    highlight.priority = 2;
    this.win.CSS.highlights.set(ACTIVE_HIGHLIGHT, highlight);
  }

  /** Marks the passage being tagged (or nothing), so it stays visible while the form has focus. */
  markPending(range: Range | null): void {
    if (!canPaint(this.win)) return;
    if (!range) this.win.CSS.highlights.delete(PENDING_HIGHLIGHT);
    else this.win.CSS.highlights.set(PENDING_HIGHLIGHT, new this.win.Highlight(range));
  }

  /** Paints the claim finder's candidates (faintly, beneath claims), or none. */
  paintCandidates(ranges: readonly Range[]): void {
    if (!canPaint(this.win)) return;
    if (!ranges.length) {
      this.win.CSS.highlights.delete(CANDIDATE_HIGHLIGHT);
      return;
    }
    const highlight = new this.win.Highlight(...ranges);
    highlight.priority = 0;
    this.win.CSS.highlights.set(CANDIDATE_HIGHLIGHT, highlight);
  }

  /** The claims currently painted. */
  claims(): readonly PaintedClaim[] {
    return this.painted;
  }

  /** Removes every highlight of ours. */
  clear(): void {
    this.paint([]);
    this.setActive([]);
    this.markPending(null);
    this.paintCandidates([]);
  }

  /** Ids of painted claims whose passage lies under the viewport point (x, y). */
  hitTest(x: number, y: number): string[] {
    if (!this.painted.length) return [];
    const doc = this.win.document;
    const caret = caretAt(doc, x, y);
    if (!caret) return [];
    const hits: string[] = [];
    for (const claim of this.painted) {
      const range = claim.range;
      try {
        if (!range.isPointInRange(caret.node, caret.offset)) continue;
      } catch {
        continue; // the range's nodes left the document
      }
      if (pointInRects(range, x, y)) hits.push(claim.id);
    }
    return hits;
  }
}

function caretAt(doc: Document, x: number, y: number): { node: Node; offset: number } | null {
  const withPosition = doc as Document & { caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null };
  if (typeof withPosition.caretPositionFromPoint === 'function') {
    const pos = withPosition.caretPositionFromPoint(x, y);
    return pos ? { node: pos.offsetNode, offset: pos.offset } : null;
  }
  const withRange = doc as Document & { caretRangeFromPoint?: (x: number, y: number) => Range | null };
  if (typeof withRange.caretRangeFromPoint === 'function') {
    const range = withRange.caretRangeFromPoint(x, y);
    return range ? { node: range.startContainer, offset: range.startOffset } : null;
  }
  return null;
}

function pointInRects(range: Range, x: number, y: number): boolean {
  const rects = range.getClientRects();
  for (let i = 0; i < rects.length; i++) {
    const r = rects[i]!;
    if (x >= r.left - 1 && x <= r.right + 1 && y >= r.top - 1 && y <= r.bottom + 1) return true;
  }
  return false;
}
