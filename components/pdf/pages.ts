/**
 * The viewer's pages: one box per page, sized before anything is drawn, so
 * the document scrolls at its full length at once. Pages are drawn lazily —
 * a canvas (at the screen's pixel density) and a transparent text layer
 * when a page comes within a screen of the viewport, the nearest first, one
 * canvas at a time; canvases far away are let go again, text layers stay (the
 * curator's painted passages live in them). The document's first canvas is a
 * quick one (half the density), shown at once and then drawn again sharp;
 * a canvas fills its page box whatever its density, and the text layer
 * does not depend on it. Zoom is one CSS variable: boxes and text layers
 * follow at once, canvases are redrawn for the pages in view.
 */
import { canvasDensity, spanBox, stretchFor, type PageText } from '../../lib/pdf';
import type { PDFPageProxy } from './pdfjs';
import { t } from '../../lib/i18n';
import { partitionPoint } from '../../lib/sorted';
import { afterFrame } from './marks';

/** CSS pixels per PDF point at 100 % (96 / 72). */
export const CSS_UNITS = 96 / 72;
/** Canvases kept for pages out of reach before the farthest are let go. */
const KEEP_CANVASES = 8;
/** How long a text layer build waits for an idle moment before it runs anyway. */
const LAYER_BACKUP_MS = 400;
/** Gap between pages and around them, in CSS pixels. */
export const PAGE_GAP = 12;

/** A page's size at 100 %, in CSS pixels. */
export interface PageSize {
  width: number;
  height: number;
}

/** What the stack asks of the rest of the viewer. */
export interface PageStackHooks {
  getPage(pageNumber: number): Promise<PDFPageProxy>;
  getText(pageNumber: number): Promise<PageText>;
  /** A page's text layer was just added: paint what belongs there. */
  onTextLayer(pageNumber: number): void;
  /** The page at the top of the view changed. */
  onPageChange(pageNumber: number): void;
  /** The first draw is over (shown, or failed): work that would slow it down can start. */
  onFirstDraw?(): void;
  /** A page's canvas was drawn and put in place, at the full density (`sharp`) or as a quick first draw. */
  onRendered?(pageNumber: number, sharp: boolean): void;
}

/** One page's box and what has been drawn in it. */
class PageView {
  readonly el: HTMLDivElement;
  canvas: HTMLCanvasElement | null = null;
  canvasZoom = 0;
  /** Whether the canvas is drawn at the full density (not a quick first draw). */
  sharp = false;
  layer: HTMLDivElement | null = null;
  spans: Array<HTMLSpanElement | null> = [];
  near = false;
  task: { cancel(): void } | null = null;
  building: Promise<void> | null = null;
  lastUsed = 0;

  constructor(
    readonly pageNumber: number,
    size: PageSize,
  ) {
    this.el = document.createElement('div');
    this.el.className = 'pdf-page';
    this.el.dataset.page = String(pageNumber);
    this.el.setAttribute('role', 'region');
    this.el.setAttribute('aria-label', t('pageN', pageNumber));
    this.resize(size);
  }

  resize(size: PageSize): void {
    this.el.style.setProperty('--pw', String(size.width));
    this.el.style.setProperty('--ph', String(size.height));
  }

  dropCanvas(): void {
    this.task?.cancel();
    this.task = null;
    if (this.canvas) {
      this.canvas.width = 0;
      this.canvas.height = 0;
      this.canvas.remove();
    }
    this.canvas = null;
    this.canvasZoom = 0;
    this.sharp = false;
    this.el.classList.remove('pdf-drawn');
  }
}

/** The pages of one document in a scrolling container. */
export class PageStack {
  private readonly views: PageView[] = [];
  private readonly sizes: PageSize[] = [];
  private readonly observer: IntersectionObserver;
  private zoomValue = 1;
  private drawing = false;
  private current = 1;
  private frame = 0;
  private redrawTimer: number | undefined;
  private clock = 0;
  private readonly layerWaiters = new Map<number, Array<() => void>>();
  private measure: CanvasRenderingContext2D | null = null;
  private destroyed = false;
  private readonly onScroll = () => {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.updateCurrent();
    });
  };

  constructor(
    private readonly scroller: HTMLElement,
    private readonly host: HTMLElement,
    count: number,
    first: PageSize,
    private readonly hooks: PageStackHooks,
  ) {
    this.observer = new IntersectionObserver((entries) => this.onIntersect(entries), { root: scroller, rootMargin: '100% 0px' });
    const fragment = document.createDocumentFragment();
    for (let n = 1; n <= count; n++) {
      this.sizes.push({ ...first });
      const view = new PageView(n, first);
      this.views.push(view);
      fragment.append(view.el);
    }
    host.append(fragment);
    for (const view of this.views) this.observer.observe(view.el);
    scroller.addEventListener('scroll', this.onScroll, { passive: true });
  }

  /**
   * Starts drawing the pages in view now, from the boxes' places, instead of waiting for the first intersection
   * report (a frame later); call once the zoom and the scroll position are set.
   */
  start(): void {
    if (this.destroyed || !this.views.length) return;
    const { from, to } = this.reach();
    for (let i = from; i <= to; i++) this.views[i]!.near = true;
    this.schedule();
  }

  /** Number of pages. */
  get count(): number {
    return this.views.length;
  }

  /** The zoom factor (1 = 100 %). */
  get zoom(): number {
    return this.zoomValue;
  }

  /** The page at the top of the view. */
  get currentPage(): number {
    return this.current;
  }

  /** A page's size at 100 %. */
  sizeOf(pageNumber: number): PageSize {
    return this.sizes[pageNumber - 1] ?? { width: 612 * CSS_UNITS, height: 792 * CSS_UNITS };
  }

  /** Sets a page's real size (pages start at the first page's size); the view stays where it was. */
  setSize(pageNumber: number, size: PageSize): void {
    const old = this.sizes[pageNumber - 1];
    const view = this.views[pageNumber - 1];
    if (!old || !view || (Math.abs(old.width - size.width) < 0.5 && Math.abs(old.height - size.height) < 0.5)) return;
    const above = view.el.offsetTop + view.el.offsetHeight <= this.scroller.scrollTop;
    this.sizes[pageNumber - 1] = { ...size };
    view.resize(size);
    if (above) this.scroller.scrollTop += (size.height - old.height) * this.zoomValue;
    view.dropCanvas();
    this.schedule();
  }

  /** Changes the zoom, keeping the same place of the current page in view. */
  setZoom(zoom: number): void {
    const z = Math.min(5, Math.max(0.25, zoom));
    if (Math.abs(z - this.zoomValue) < 1e-3) return;
    const anchor = this.anchor();
    this.zoomValue = z;
    this.host.style.setProperty('--zoom', String(z));
    this.restore(anchor);
    clearTimeout(this.redrawTimer);
    // Canvases are stretched meanwhile; the pages in reach are redrawn once zooming pauses.
    this.redrawTimer = window.setTimeout(() => this.schedule(), 120);
  }

  /** The zoom at which the widest page fills the scroller's width. */
  fitWidthZoom(): number {
    const width = Math.max(...this.sizes.map((s) => s.width));
    const available = this.scroller.clientWidth - 2 * PAGE_GAP - 16;
    return available > 0 && width > 0 ? available / width : 1;
  }

  /** Scrolls so that `fraction` (0 top … 1 bottom) of a page is at the top of the view. */
  scrollToPage(pageNumber: number, fraction = 0): void {
    const view = this.views[Math.min(this.views.length, Math.max(1, pageNumber)) - 1];
    if (!view) return;
    this.scroller.scrollTop = view.el.offsetTop - PAGE_GAP / 2 + fraction * view.el.offsetHeight;
    this.updateCurrent();
  }

  /** Scrolls a box of the page (client coordinates) to the middle of the view. */
  centerRect(rect: DOMRect): void {
    const box = this.scroller.getBoundingClientRect();
    this.scroller.scrollTop += rect.top + rect.height / 2 - (box.top + box.height / 2);
  }

  /** Whether a page's text layer is in place. */
  hasTextLayer(pageNumber: number): boolean {
    return !!this.views[pageNumber - 1]?.layer;
  }

  /** Resolves once a page's text layer is in place (asking for it to be built). */
  whenTextLayer(pageNumber: number): Promise<void> {
    const view = this.views[pageNumber - 1];
    if (!view) return Promise.resolve();
    if (view.layer) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.layerWaiters.get(pageNumber) ?? [];
      list.push(resolve);
      this.layerWaiters.set(pageNumber, list);
      void this.buildLayer(view);
    });
  }

  /** The text node showing a run of a page, if its text layer is in place. */
  textNode(pageNumber: number, run: number): Text | null {
    const span = this.views[pageNumber - 1]?.spans[run];
    return span?.firstChild instanceof Text ? span.firstChild : null;
  }

  /** The element of a page. */
  pageElement(pageNumber: number): HTMLElement | null {
    return this.views[pageNumber - 1]?.el ?? null;
  }

  /** Stops observing, drawing and listening. */
  destroy(): void {
    this.destroyed = true;
    this.observer.disconnect();
    this.scroller.removeEventListener('scroll', this.onScroll);
    cancelAnimationFrame(this.frame);
    clearTimeout(this.redrawTimer);
    this.layerPending?.();
    for (const view of this.views) view.dropCanvas();
  }

  // ── Drawing ──────────────────────────────────────────────────────────────

  private onIntersect(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const n = Number((entry.target as HTMLElement).dataset.page);
      const view = this.views[n - 1];
      if (view) view.near = entry.isIntersecting;
    }
    this.schedule();
  }

  /** Whether a first canvas has been drawn (or failed). */
  private firstDone = false;
  /** Whether text layers may be built for the pages in reach: after the first canvas, so the first page comes first. */
  private layersAllowed = false;

  /**
   * Lets text layers be built before the first canvas is out: a tab that makes no frames (hidden, or never shown)
   * draws no canvas, since the renderer paces its work by frames, yet its text and the claims painted on it can be in
   * place for when the curator looks.
   */
  allowTextLayers(): void {
    if (this.layersAllowed || this.destroyed) return;
    this.layersAllowed = true;
    this.queueLayers();
  }

  /** Builds text layers and draws canvases for pages in reach, nearest first; lets far canvases go. */
  private schedule(): void {
    if (this.destroyed) return;
    // Canvases first: their requests reach the (one-at-a-time) worker before the text layers', and no text layer is
    // asked for before the first page is drawn (a page asked for explicitly, `whenTextLayer`, still is at once).
    void this.drawNext();
    if (this.layersAllowed) this.queueLayers();
  }

  /** A text layer build waiting for its idle moment: cancels it (null when none is waiting). */
  private layerPending: (() => void) | null = null;

  /**
   * Builds the text layers of pages in reach one page per idle moment (the
   * page nearest the view first), so that scrolling frames do not pay for
   * them; a page asked for explicitly (`whenTextLayer`) is built at once.
   * A timer backs the idle callback up, so that a tab whose idle moments do
   * not come still gets the text on screen.
   */
  private queueLayers(): void {
    if (this.layerPending || this.destroyed) return;
    const idle = globalThis as { requestIdleCallback?: (cb: () => void, o: { timeout: number }) => number; cancelIdleCallback?: (id: number) => void };
    const request = idle.requestIdleCallback;
    const cancelIdle = idle.cancelIdleCallback;
    const canIdle = typeof request === 'function' && typeof cancelIdle === 'function';
    let idleId = 0;
    const cancel = () => {
      this.layerPending = null;
      clearTimeout(backup);
      if (idleId) cancelIdle?.call(globalThis, idleId);
    };
    const run = () => {
      if (this.layerPending !== cancel) return;
      cancel();
      if (this.destroyed) return;
      // The observer's word, or the boxes' places: a report the observer owes (it reports at a frame) does not leave
      // the pages on screen without their text.
      const { from, to } = this.reach();
      const next = this.views
        .filter((v, i) => (v.near || (i >= from && i <= to)) && !v.layer && !v.building)
        .sort((a, b) => Math.abs(a.pageNumber - this.current) - Math.abs(b.pageNumber - this.current))[0];
      if (!next) return;
      void this.buildLayer(next).then(() => this.queueLayers());
    };
    this.layerPending = cancel;
    const backup = window.setTimeout(run, canIdle ? LAYER_BACKUP_MS : 16);
    if (canIdle) idleId = request.call(globalThis, run, { timeout: 150 });
  }

  private async drawNext(): Promise<void> {
    if (this.drawing || this.destroyed) return;
    const wanted = this.views
      .filter((v) => v.near && (Math.abs(v.canvasZoom - this.zoomValue) > 1e-3 || !v.sharp))
      .sort((a, b) => Math.abs(a.pageNumber - this.current) - Math.abs(b.pageNumber - this.current))[0];
    if (!wanted) {
      this.evict();
      return;
    }
    this.drawing = true;
    try {
      await this.draw(wanted);
      // A quick canvas is shown before the sharp one is drawn: the next draw waits until the frame showing it is out.
      if (!wanted.sharp && wanted.canvas) await afterFrame();
    } catch (error) {
      if (!(error instanceof Error && error.name === 'RenderingCancelledException')) console.warn('Recipe Lens: page', wanted.pageNumber, 'not drawn:', error);
      // Do not retry in a loop; a zoom change or scroll asks again.
      wanted.canvasZoom = this.zoomValue;
      wanted.sharp = true;
    } finally {
      this.drawing = false;
    }
    if (!this.firstDone) {
      this.firstDone = true;
      this.allowTextLayers();
      this.hooks.onFirstDraw?.();
    }
    void this.drawNext();
  }

  private async draw(view: PageView): Promise<void> {
    const zoom = this.zoomValue;
    // The document's first canvas is drawn quickly at half the density, shown, then drawn again sharp (next).
    const quick = !this.firstDone && !view.canvas;
    const page = await this.hooks.getPage(view.pageNumber);
    if (!this.firstDone) performance.mark('recipe-lens:first-draw-start');
    if (this.destroyed || zoom !== this.zoomValue) return;
    const viewport = page.getViewport({ scale: zoom * CSS_UNITS });
    const ratio = canvasDensity(viewport.width, viewport.height, window.devicePixelRatio || 1, quick);
    const canvas = document.createElement('canvas');
    canvas.className = 'pdf-canvas';
    canvas.width = Math.max(1, Math.floor(viewport.width * ratio));
    canvas.height = Math.max(1, Math.floor(viewport.height * ratio));
    canvas.setAttribute('aria-hidden', 'true');
    const task = page.render({ canvas, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
    view.task = task;
    await task.promise;
    view.task = null;
    if (this.destroyed || zoom !== this.zoomValue) {
      canvas.width = 0;
      return;
    }
    const previous = view.canvas;
    if (previous) {
      // The new canvas takes the old one's place (a quick draw's, or one drawn at another zoom), then the old is let go.
      previous.replaceWith(canvas);
      previous.width = 0;
      previous.height = 0;
    } else view.el.prepend(canvas);
    view.canvas = canvas;
    view.canvasZoom = zoom;
    view.sharp = !quick;
    view.lastUsed = ++this.clock;
    view.el.classList.add('pdf-drawn');
    view.el.classList.toggle('pdf-quick', quick);
    this.hooks.onRendered?.(view.pageNumber, !quick);
  }

  /** Lets go of the canvases of pages out of reach beyond the few kept. */
  private evict(): void {
    const far = this.views.filter((v) => v.canvas && !v.near).sort((a, b) => a.lastUsed - b.lastUsed);
    for (const view of far.slice(0, Math.max(0, far.length - KEEP_CANVASES))) view.dropCanvas();
  }

  /** Adds a page's text layer: one transparent span per run, stretched over its glyphs. */
  private buildLayer(view: PageView): Promise<void> {
    view.building ??= (async () => {
      const [page, text] = await Promise.all([this.hooks.getPage(view.pageNumber), this.hooks.getText(view.pageNumber)]);
      if (this.destroyed) return;
      const viewport = page.getViewport({ scale: CSS_UNITS });
      const layer = document.createElement('div');
      layer.className = 'pdf-text';
      const ctx = this.measureContext();
      let font = '';
      const spans = text.runs.map((run, r) => {
        if (!run.str) {
          if (run.hasEOL) layer.append(document.createElement('br'));
          return null;
        }
        const box = spanBox(run, text.styles[run.fontName], viewport.transform, CSS_UNITS);
        const span = document.createElement('span');
        span.textContent = run.str;
        span.dataset.run = String(r);
        const style = span.style;
        style.left = `${box.left.toFixed(2)}px`;
        style.top = `${box.top.toFixed(2)}px`;
        style.fontSize = `${box.fontSize.toFixed(2)}px`;
        style.fontFamily = box.fontFamily;
        let scaleX = 1;
        if (ctx && box.width > 0) {
          const wanted = `${box.fontSize.toFixed(2)}px ${box.fontFamily}`;
          if (wanted !== font) ctx.font = font = wanted;
          scaleX = stretchFor(box.width, ctx.measureText(run.str).width);
        }
        const parts = [];
        if (box.angle !== 0) parts.push(`rotate(${box.angle}rad)`);
        if (Math.abs(scaleX - 1) > 1e-3) parts.push(`scaleX(${scaleX.toFixed(4)})`);
        if (parts.length) style.transform = parts.join(' ');
        layer.append(span);
        if (run.hasEOL) layer.append(document.createElement('br'));
        return span;
      });
      const end = document.createElement('div');
      end.className = 'pdf-text-end';
      layer.append(end);
      view.spans = spans;
      view.layer = layer;
      view.el.append(layer);
      for (const resolve of this.layerWaiters.get(view.pageNumber) ?? []) resolve();
      this.layerWaiters.delete(view.pageNumber);
      this.hooks.onTextLayer(view.pageNumber);
    })().catch((error: unknown) => {
      view.building = null;
      console.warn('Recipe Lens: text of page', view.pageNumber, 'not read:', error);
    });
    return view.building;
  }

  private measureContext(): CanvasRenderingContext2D | null {
    this.measure ??= document.createElement('canvas').getContext('2d');
    return this.measure;
  }

  // ── Where the view is ────────────────────────────────────────────────────

  /** The pages (0-based, inclusive) within a screen above and below the view, from the boxes' places. */
  private reach(): { from: number; to: number } {
    const top = this.scroller.scrollTop;
    const height = this.scroller.clientHeight;
    return { from: this.pageAtY(top - height), to: this.pageAtY(top + 2 * height) };
  }

  /** The page index (0-based) whose box is at `y` in scroller coordinates. */
  private pageAtY(y: number): number {
    // The last page whose top is at or above y (the first page when none is).
    return Math.max(0, partitionPoint(this.views.length, (i) => this.views[i]!.el.offsetTop <= y) - 1);
  }

  private updateCurrent(): void {
    if (!this.views.length) return;
    const i = this.pageAtY(this.scroller.scrollTop + this.scroller.clientHeight * 0.3);
    const n = i + 1;
    if (n !== this.current) {
      this.current = n;
      this.hooks.onPageChange(n);
    }
  }

  /** Where the view is, as (page, fraction of its height at the top of the view). */
  private anchor(): { page: number; fraction: number } {
    const top = this.scroller.scrollTop;
    const i = this.pageAtY(top);
    const el = this.views[i]!.el;
    return { page: i + 1, fraction: el.offsetHeight ? (top - el.offsetTop) / el.offsetHeight : 0 };
  }

  private restore(anchor: { page: number; fraction: number }): void {
    const el = this.views[anchor.page - 1]?.el;
    if (!el) return;
    this.scroller.scrollTop = el.offsetTop + anchor.fraction * el.offsetHeight;
    this.updateCurrent();
  }
}
