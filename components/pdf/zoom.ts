/** The PDF viewer's zoom: fitting the window's width, the zoom steps, and Ctrl/⌘ + wheel. */
import type { Store } from '../common/store';
import type { PageStack } from './pages';
import type { ViewerState } from './viewer-state';

const ZOOM_STEPS = [0.5, 0.67, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];
/** The zoom a document opens at: the page width, but no larger than this. */
const MAX_AUTO_ZOOM = 1.25;

/** Zooms the pages of `stack()` (none before the document is laid out) and keeps the viewer's state in step. */
export class ViewerZoom {
  constructor(
    private readonly viewer: Store<ViewerState>,
    private readonly stack: () => PageStack | null,
  ) {}

  /** Fits the pages to the window's width (no larger than the automatic maximum); the zoom then follows the width. */
  fit(): void {
    const stack = this.stack();
    if (!stack) return;
    this.set(Math.min(MAX_AUTO_ZOOM, stack.fitWidthZoom()), true);
  }

  /** Sets the zoom; `fit` says whether it follows the window's width. */
  set(zoom: number, fit: boolean): void {
    const stack = this.stack();
    if (!stack) return;
    stack.setZoom(zoom);
    this.viewer.set((s) => ({ ...s, zoom: stack.zoom, fit }));
  }

  /** One zoom step in or out. */
  step(direction: 1 | -1): void {
    const now = this.stack()?.zoom ?? 1;
    const next = direction > 0 ? ZOOM_STEPS.find((z) => z > now + 0.01) : [...ZOOM_STEPS].reverse().find((z) => z < now - 0.01);
    if (next) this.set(next, false);
  }

  /** Ctrl/⌘ + wheel zooms instead of scrolling. */
  onWheel(event: WheelEvent): void {
    if (!event.ctrlKey && !event.metaKey) return;
    event.preventDefault();
    this.step(event.deltaY < 0 ? 1 : -1);
  }
}
