/** Find in the PDF document: searches the whole text model, shows a match and paints the matches in view. */
import { canPaint } from '../../lib/paint';
import type { PdfTextModel } from '../../lib/pdf';
import type { Store } from '../common/store';
import type { PdfSurface } from './pdf-surface';
import type { ViewerState } from './viewer-state';

/** Highlight names of find-in-document matches (every match in view, and the current one). */
const FIND_HIGHLIGHT = 'recipe-lens-find';
const FIND_CURRENT = 'recipe-lens-find-current';
/** Matches painted at most, around the current one. */
const MAX_FIND_PAINTED = 400;

/** The find bar's work over one document: its state is the viewer's `find`. */
export class DocumentFind {
  private matches: Array<{ start: number; end: number }> = [];

  constructor(
    private readonly viewer: Store<ViewerState>,
    private readonly surface: PdfSurface,
    /** The document's whole text, once read. */
    private readonly model: () => PdfTextModel | null,
  ) {}

  /** Whether there are matches to paint. */
  get active(): boolean {
    return this.matches.length > 0;
  }

  /** Searches the document for `query` (once its text is read) and shows the first match from the page being read. */
  async find(query: string): Promise<void> {
    this.viewer.set((s) => ({ ...s, find: { ...s.find, open: true, query, searching: true } }));
    const model = await this.surface.textModel();
    if (!model || this.viewer.get().find.query !== query) return;
    this.matches = query.trim() ? model.find(query) : [];
    this.viewer.set((s) => ({ ...s, find: { ...s.find, index: 0, count: this.matches.length, searching: false } }));
    this.paint();
    if (this.matches.length) await this.show(this.firstMatchFrom(this.viewer.get().page));
  }

  /** Shows the next (1) or previous (-1) match, round the document. */
  async step(delta: 1 | -1): Promise<void> {
    const count = this.matches.length;
    if (!count) return;
    const next = (this.viewer.get().find.index + delta + count) % count;
    await this.show(next);
  }

  /** Closes the find bar and clears its matches. */
  close(): void {
    this.matches = [];
    this.viewer.set((s) => ({ ...s, find: { ...s.find, open: false, count: 0, index: 0 } }));
    this.paint();
  }

  /** Paints the matches on pages with text layers (a window around the current one) and the current match. */
  paint(): void {
    const model = this.model();
    if (!canPaint() || !model) return;
    const { open, index } = this.viewer.get().find;
    if (!open || !this.matches.length) {
      CSS.highlights.delete(FIND_HIGHLIGHT);
      CSS.highlights.delete(FIND_CURRENT);
      return;
    }
    const from = Math.max(0, index - MAX_FIND_PAINTED / 2);
    const all: Range[] = [];
    let current: Range[] = [];
    this.matches.slice(from, from + MAX_FIND_PAINTED).forEach((m, k) => {
      const where = model.place(m.start, m.end);
      const ranges = (where?.segments ?? []).flatMap((s) => this.surface.liveRange(s) ?? []);
      if (from + k === index) current = ranges;
      else all.push(...ranges);
    });
    CSS.highlights.set(FIND_HIGHLIGHT, new Highlight(...all));
    CSS.highlights.set(FIND_CURRENT, Object.assign(new Highlight(...current), { priority: 3 }));
  }

  /** Removes the painted matches (the page is going away). */
  destroy(): void {
    try {
      if (canPaint()) {
        CSS.highlights.delete(FIND_HIGHLIGHT);
        CSS.highlights.delete(FIND_CURRENT);
      }
    } catch {
      // nothing painted
    }
  }

  /** The first match on or after a page (the search starts where the curator is reading). */
  private firstMatchFrom(page: number): number {
    const model = this.model();
    if (!model) return 0;
    const at = this.matches.findIndex((m) => model.pageAt(m.start) >= page);
    return at < 0 ? 0 : at;
  }

  private async show(index: number): Promise<void> {
    const match = this.matches[index];
    const model = this.model();
    if (!match || !model) return;
    this.viewer.set((s) => ({ ...s, find: { ...s.find, index } }));
    const where = model.place(match.start, match.end);
    if (!where) return;
    await this.surface.show(where.segments[0]!);
    this.paint();
  }
}
