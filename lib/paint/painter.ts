/**
 * Painting claims with the CSS Custom Highlight API: one Range per claim over
 * its whole passage, grouped into one Highlight per kind. The page's DOM is
 * never changed; hit-testing maps a point back to the claims under it.
 *
 * Repainting changes only what changed: each kind's Highlight stays
 * registered and gains or loses ranges (by identity), so a page whose claims
 * keep their live ranges is not painted again from scratch. `paintInBatches`
 * adds new ranges a batch per animation frame instead of all in one task.
 */
import type { ClaimKind } from '../schema';
import { CLAIM_KINDS } from '../schema/constants';
import { ACTIVE_HIGHLIGHT, CANDIDATE_HIGHLIGHT, PENDING_HIGHLIGHT, highlightName } from './kinds';

/** The window whose `CSS.highlights` we paint into. */
export type PaintWindow = Window & typeof globalThis;

/** A claim placed on the page. */
export interface PaintedClaim {
  id: string;
  kind: ClaimKind;
  range: Range;
}

/**
 * Ranges added per animation frame by `paintInBatches` unless told otherwise: up to 500 claims in one frame.
 * `npm run bench` (suite `highlights`, see docs/benchmarks.md) compares batch sizes with painting all at
 * once on the 2 MB page: 499 ranges at once cost one frame of about 15 ms (painted in 19 ms), 100 per frame
 * about 14 ms a frame over five frames (painted in 81 ms). A frame's cost hardly depends on how many ranges
 * changed, so smaller batches only add frames up to a few hundred ranges; 1,990 ranges at once in an open tab made
 * one frame of 104 ms CPU (the full run of 2026-12-07, scaling suite), hence 500.
 */
export const PAINT_BATCH = 500;

/** How `paintInBatches` paces itself: ranges per step, and how to wait for the next step (the next animation frame by default). */
export interface BatchOptions {
  batchSize?: number;
  nextFrame?: () => Promise<unknown>;
}

/** Whether this browser can paint with the Custom Highlight API. */
export function canPaint(win: PaintWindow = window): boolean {
  return typeof win.CSS !== 'undefined' && 'highlights' in win.CSS && typeof win.Highlight === 'function';
}

/** Keeps our highlights in `CSS.highlights` in step with the claims placed on a page. */
export class HighlightPainter {
  private painted: PaintedClaim[] = [];
  private readonly win: PaintWindow;
  /**
   * Each kind's registered Highlight (only while it holds ranges) and the ranges it holds, kept beside it: the
   * Highlight itself is not read back, since a content script in Firefox sees the page's objects through wrappers
   * whose set iteration and size do not answer for what the script added.
   */
  private readonly byKind = new Map<ClaimKind, { highlight: Highlight; ranges: Set<Range> }>();
  /** Bumped by every paint: a batched paint that sees it change stops (a newer one took over). */
  private generation = 0;

  constructor(win: PaintWindow = window) {
    this.win = win;
  }

  /** Replaces everything painted with these claims, at once. */
  paint(claims: readonly PaintedClaim[]): void {
    this.generation += 1;
    this.painted = [...claims];
    if (!canPaint(this.win)) return;
    const added = this.removeStale(claims);
    for (const [kind, range] of added) this.addRange(kind, range);
    this.unregisterEmpty();
  }

  /**
   * Replaces everything painted with these claims: ranges no longer wanted go at once, new ones are
   * added `batchSize` at a time, one batch per animation frame, so no single task restyles and repaints
   * the text of hundreds of passages. Resolves true when all are painted, false when a newer paint (or
   * `clear`) took over first. `claims()` holds the new claims from the start.
   */
  async paintInBatches(claims: readonly PaintedClaim[], options: BatchOptions = {}): Promise<boolean> {
    const generation = ++this.generation;
    this.painted = [...claims];
    if (!canPaint(this.win)) return true;
    const size = Math.max(1, options.batchSize ?? PAINT_BATCH);
    const nextFrame = options.nextFrame ?? (() => new Promise<number>((resolve) => this.win.requestAnimationFrame(resolve)));
    const added = this.removeStale(claims);
    this.unregisterEmpty();
    for (let i = 0; i < added.length; i += size) {
      if (i > 0) {
        await nextFrame();
        if (generation !== this.generation) return false;
      }
      for (const [kind, range] of added.slice(i, i + size)) this.addRange(kind, range);
    }
    return true;
  }

  /** Removes from each kind's Highlight the ranges `claims` no longer place there; returns the ranges to add, in the claims' order. */
  private removeStale(claims: readonly PaintedClaim[]): Array<[ClaimKind, Range]> {
    const wanted = new Map<ClaimKind, Set<Range>>();
    const added: Array<[ClaimKind, Range]> = [];
    for (const claim of claims) {
      let set = wanted.get(claim.kind);
      if (!set) wanted.set(claim.kind, (set = new Set()));
      if (set.has(claim.range)) continue;
      set.add(claim.range);
      if (!this.byKind.get(claim.kind)?.ranges.has(claim.range)) added.push([claim.kind, claim.range]);
    }
    for (const [kind, { highlight, ranges }] of this.byKind) {
      const keep = wanted.get(kind);
      for (const range of [...ranges]) {
        if (keep?.has(range)) continue;
        highlight.delete(range);
        ranges.delete(range);
      }
    }
    return added;
  }

  /** Adds a range to its kind's Highlight, registered on first use. */
  private addRange(kind: ClaimKind, range: Range): void {
    let held = this.byKind.get(kind);
    if (!held) {
      held = { highlight: new this.win.Highlight(), ranges: new Set() };
      held.highlight.priority = 1;
      this.byKind.set(kind, held);
      this.win.CSS.highlights.set(highlightName(kind), held.highlight);
    }
    held.highlight.add(range);
    held.ranges.add(range);
  }

  /** Unregisters kinds whose Highlight holds nothing. */
  private unregisterEmpty(): void {
    for (const kind of CLAIM_KINDS) {
      if (this.byKind.get(kind)?.ranges.size === 0) {
        this.byKind.delete(kind);
        this.win.CSS.highlights.delete(highlightName(kind));
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
