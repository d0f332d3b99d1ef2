/**
 * The PDF viewer for one document: opens the PDF, lays out its pages, reads
 * its whole text once into the text model, shows its outline, zooms, finds
 * in the document and answers the viewer's keys. Capturing, painting and
 * everything about claims is the capture controller's, over the PDF's
 * document surface (`pdf-surface.ts`); every read and write of claims is a
 * message (through `ViewerApi`).
 */
import { t } from '../../lib/i18n';
import { canPaint } from '../../lib/paint';
import { detectPdfSource, linesOf, PdfTextModel, type PlacedPassage, TextSource, type ViewerTarget, viewerUrl } from '../../lib/pdf';
import type { ClaimRecord } from '../../lib/schema';
import { normalizeUrl } from '../../lib/source';
import { today } from '../../lib/time';
import { CaptureController } from '../capture/controller';
import type { CaptureState } from '../capture/state';
import { createStore, type Store } from '../common/store';
import type { ViewerApi } from './api';
import { mark, markAfterFrame } from './marks';
import { openPdfEarly, type PdfOpening } from './opening';
import { CSS_UNITS, PageStack, type PageSize } from './pages';
import { PdfSurface } from './pdf-surface';
import type { PDFDocumentProxy, PDFPageProxy } from './pdfjs';

const ZOOM_STEPS = [0.5, 0.67, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];
/** The zoom a document opens at: the page width, but no larger than this. */
const MAX_AUTO_ZOOM = 1.25;
/** Highlight names of find-in-document matches (every match in view, and the current one). */
const FIND_HIGHLIGHT = 'recipe-lens-find';
const FIND_CURRENT = 'recipe-lens-find-current';
/** Matches painted at most, around the current one. */
const MAX_FIND_PAINTED = 400;
/** The longest the document's text, metadata and outline wait for the first page (a draw that never ends). */
const FIRST_DRAW_WAIT_MS = 10_000;

/** An entry of the document's outline (bookmarks). */
export interface OutlineEntry {
  title: string;
  dest: unknown;
  children: OutlineEntry[];
}

/** Everything the viewer's own UI (header, sidebar, find bar, banners) shows. */
export interface ViewerState {
  phase: 'empty' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** How to fix the error, when we know (e.g. allowing access to local files). */
  help: string | null;
  progress: number;
  file: string;
  title: string;
  authors: string[];
  publisher: string | null;
  published: string | null;
  arxiv: string | null;
  pageCount: number;
  page: number;
  zoom: number;
  /** Whether the zoom follows the window's width. */
  fit: boolean;
  outline: OutlineEntry[];
  sidebar: boolean;
  find: { open: boolean; query: string; index: number; count: number; searching: boolean };
  /** Whether the whole document's text has been read (claims can be tagged and anchored). */
  textReady: boolean;
  /** The http(s) address claims are stored under; null for a local file not yet given one. */
  sourceUrl: string | null;
}

/** The viewer's state before a document is opened. */
export const initialViewerState: ViewerState = {
  phase: 'loading',
  error: null,
  help: null,
  progress: 0,
  file: '',
  title: '',
  authors: [],
  publisher: null,
  published: null,
  arxiv: null,
  pageCount: 0,
  page: 1,
  zoom: 1,
  fit: true,
  outline: [],
  sidebar: false,
  find: { open: false, query: '', index: 0, count: 0, searching: false },
  textReady: false,
  sourceUrl: null,
};

/** What the viewer's UI can ask for. */
export interface ViewerActions {
  zoomIn(): void;
  zoomOut(): void;
  fitWidth(): void;
  setZoom(zoom: number): void;
  goToPage(page: number): void;
  toggleSidebar(): void;
  openOutline(entry: OutlineEntry): void;
  revealClaim(id: string): void;
  openFind(): void;
  find(query: string): void;
  findStep(delta: 1 | -1): void;
  closeFind(): void;
  setSourceUrl(url: string): void;
  openFile(url: string): void;
}

/** The PDF viewer for one document. */
export class PdfViewerSession {
  /** The viewer's own UI state. */
  readonly viewer: Store<ViewerState> = createStore(initialViewerState);
  /** The document as the capture controller sees it. */
  private readonly surface = new PdfSurface({ title: () => this.viewer.get().title, file: () => this.viewer.get().file });
  /** The capture flow over this document (the same as on web pages). */
  private readonly controller: CaptureController<PlacedPassage>;
  private scroller: HTMLElement | null = null;
  private host: HTMLElement | null = null;
  private doc: PDFDocumentProxy | null = null;
  private text: TextSource | null = null;
  private stack: PageStack | null = null;
  /** The document's whole text, once read (find in the document searches it). */
  private model: PdfTextModel | null = null;
  private findMatches: Array<{ start: number; end: number }> = [];
  private readonly cleanups: Array<() => void> = [];
  private readonly pages = new Map<number, Promise<PDFPageProxy>>();
  /** Whether the first page was shown (a quick draw), and shown sharp. */
  private firstPageShown = false;
  private firstPageSharp = false;

  constructor(
    private readonly api: ViewerApi,
    private readonly target: ViewerTarget | null,
    /** The document, opening since the viewer's entry ran (`opening.ts`); null when the viewer has no PDF to show. */
    private readonly opening: PdfOpening | null = target ? openPdfEarly(target.file) : null,
  ) {
    this.controller = new CaptureController({
      surface: this.surface,
      api,
      onKey: (event) => this.onKey(event),
      onAnchored: () => mark('pdfAnchoredAt'),
      onPaint: ({ painted, anchored, orphans, settled }) => {
        const data = document.documentElement.dataset;
        data.recipeLensPainted = String(painted);
        if (!settled) return;
        data.recipeLensClaims = String(anchored);
        data.recipeLensOrphans = String(orphans);
      },
    });
  }

  /** The capture UI's state (the same component as on web pages). */
  get capture(): Store<CaptureState> {
    return this.controller.store;
  }

  /** What the viewer's UI calls. */
  readonly actions: ViewerActions = {
    zoomIn: () => this.stepZoom(1),
    zoomOut: () => this.stepZoom(-1),
    fitWidth: () => this.fit(),
    setZoom: (zoom) => this.applyZoom(zoom, false),
    goToPage: (page) => this.stack?.scrollToPage(page),
    toggleSidebar: () => {
      this.viewer.set((s) => ({ ...s, sidebar: !s.sidebar }));
      // The pages' width changed: a fitted zoom fits again once the layout has followed.
      requestAnimationFrame(() => {
        if (this.viewer.get().fit) this.fit();
      });
    },
    openOutline: (entry) => void this.openDestination(entry.dest),
    revealClaim: (id) => void this.controller.reveal(id),
    openFind: () => this.viewer.set((s) => ({ ...s, find: { ...s.find, open: true } })),
    find: (query) => void this.find(query),
    findStep: (delta) => void this.findStep(delta),
    closeFind: () => this.closeFind(),
    setSourceUrl: (url) => void this.setSourceUrl(url),
    openFile: (url) => {
      location.href = viewerUrl(location.href.split(/[?#]/)[0]!, { file: url.trim() });
    },
  };

  /** Starts the viewer in its scrolling container (`scroller`) and the element that holds the pages (`host`). */
  attach(scroller: HTMLElement, host: HTMLElement): void {
    this.scroller = scroller;
    this.host = host;
    this.cleanups.push(this.api.listen(this.controller.answers));
    this.listen(window, 'hashchange', () => this.onHashChange());
    this.listen(window, 'resize', () => {
      if (this.viewer.get().fit) this.fit();
    });
    this.listen(scroller, 'wheel', (e) => this.onWheel(e as WheelEvent), false, false);
    this.controller.start();
    if (!this.target || !this.opening) {
      this.viewer.set((s) => ({ ...s, phase: 'empty' }));
      return;
    }
    // A claim asked for in the address is shown once the claims are anchored.
    if (this.target.claim) void this.controller.reveal(this.target.claim);
    void this.open(this.opening);
  }

  /** Stops everything (the page is going away). */
  destroy(): void {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.controller.destroy();
    this.surface.destroy();
    this.stack?.destroy();
    void this.doc?.destroy();
    try {
      if (canPaint()) {
        CSS.highlights.delete(FIND_HIGHLIGHT);
        CSS.highlights.delete(FIND_CURRENT);
      }
    } catch {
      // nothing painted
    }
  }

  private listen(target: EventTarget, type: string, handler: (event: Event) => void, capture = false, passive = true): void {
    target.addEventListener(type, handler, { capture, passive });
    this.cleanups.push(() => target.removeEventListener(type, handler, { capture }));
  }

  // ── Opening the document ─────────────────────────────────────────────────

  private async open(opening: PdfOpening): Promise<void> {
    const file = opening.file;
    this.viewer.set((s) => ({ ...s, phase: 'loading', file, title: file.split(/[?#]/)[0]!.split('/').pop() || file }));
    document.title = `${this.viewer.get().title} · Recipe Lens`;
    const stopProgress = opening.onProgress((progress) => this.viewer.set((s) => (s.progress === progress ? s : { ...s, progress })));
    this.cleanups.push(() => opening.cancel());
    let doc: PDFDocumentProxy;
    try {
      doc = await opening.doc;
    } catch (error) {
      await this.failOpen(file, error);
      return;
    } finally {
      stopProgress();
    }
    this.pages.set(1, opening.firstPage);
    this.doc = doc;
    this.text = new TextSource(doc);
    mark('pdfOpenedMs');
    const first = await this.page(1);
    const size = this.sizeOf(first);
    let firstDrawn = () => {};
    const drawn = new Promise<void>((resolve) => (firstDrawn = resolve));
    const stack = new PageStack(this.scroller!, this.host!, doc.numPages, size, {
      getPage: (n) => this.page(n),
      getText: (n) => this.text!.page(n),
      onTextLayer: (n) => this.onTextLayer(n),
      onPageChange: (n) => this.viewer.set((s) => ({ ...s, page: n })),
      onRendered: (n, sharp) => {
        // The figures are taken once the frame showing the canvas is out: what the curator sees.
        if (!this.firstPageShown) {
          this.firstPageShown = true;
          performance.mark('recipe-lens:first-canvas');
          markAfterFrame('pdfFirstPageMs');
        }
        if (sharp && !this.firstPageSharp) {
          this.firstPageSharp = true;
          performance.mark('recipe-lens:first-sharp-canvas');
          markAfterFrame('pdfFirstPageSharpMs');
          // The next report finds the engine warm; asked once this one is sharp, so its keeper never competes with it.
          this.api.keepEngine();
        }
        document.documentElement.dataset.pdfRendered = String(n);
      },
      onFirstDraw: () => firstDrawn(),
    });
    this.stack = stack;
    this.surface.attach(stack, this.host!);
    this.viewer.set((s) => ({ ...s, phase: 'ready', pageCount: doc.numPages, progress: 1 }));
    this.fit();
    if (this.target?.page) stack.scrollToPage(this.target.page);
    stack.start();
    this.scroller!.focus({ preventScroll: true });
    // What the document is (then its claims), its whole text (then anchoring) and its outline wait for the first
    // page to be drawn (or to fail): the worker serves one request at a time, and the first page comes first. A
    // hidden tab draws nothing until it is shown, so there they start at once.
    const hidden = new Promise<void>((resolve) => {
      const check = () => document.visibilityState === 'hidden' && resolve();
      check();
      this.listen(document, 'visibilitychange', check);
    });
    void Promise.race([drawn, hidden, new Promise((resolve) => setTimeout(resolve, FIRST_DRAW_WAIT_MS))]).then(() => {
      // Without a first canvas (no frames), the pages in reach still get their text, and their claims are painted.
      stack.allowTextLayers();
      const outline = doc.getOutline().catch(() => null);
      void this.identify(doc, outline).then(() => this.controller.load());
      void this.readAllText();
      void this.readOutline(outline);
    });
  }

  private async failOpen(file: string, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    let help: string | null = null;
    if (/^file:/i.test(file)) {
      const allowed = await this.api.fileAccess().catch(() => null);
      if (allowed === false) {
        help = t('pdfFileAccessHelp');
      }
    }
    const missing = /Missing PDF|Unexpected server response \((404|410)\)|HTTP (404|410)/i.test(message);
    this.viewer.set((s) => ({
      ...s,
      phase: 'error',
      error: missing ? t('pdfMissing', message) : /Invalid PDF/i.test(message) ? t('pdfNotAPdf') : t('pdfCouldNotOpen', message),
      help,
    }));
    mark('pdfErrorMs');
  }

  /** A page of the document, fetched once. */
  private page(n: number): Promise<PDFPageProxy> {
    let found = this.pages.get(n);
    if (!found) {
      found = this.doc!.getPage(n);
      this.pages.set(n, found);
    }
    return found;
  }

  private sizeOf(page: PDFPageProxy): PageSize {
    const viewport = page.getViewport({ scale: CSS_UNITS });
    return { width: viewport.width, height: viewport.height };
  }

  /** Reads the metadata and the first page: the source prefill, the title, the arXiv id and so the store key. */
  private async identify(doc: PDFDocumentProxy, outlinePromise: Promise<Array<{ title: string }> | null>): Promise<void> {
    const [meta, first, outline] = await Promise.all([
      doc.getMetadata().catch(() => null),
      this.text!.page(1).catch(() => ({ runs: [], styles: {} })),
      outlinePromise,
    ]);
    const info = (meta?.info ?? {}) as Record<string, unknown>;
    const source = detectPdfSource(
      { url: this.target!.file, info, lines: linesOf(first.runs), headings: (outline ?? []).map((o) => o.title) },
      today(),
      document,
    );
    const fingerprint = doc.fingerprints[0] ?? doc.fingerprints[1] ?? 'unknown';
    this.surface.identify(source, fingerprint);
    this.viewer.set((s) => ({
      ...s,
      title: source.title,
      authors: source.authors,
      publisher: source.publisher,
      published: source.published,
      arxiv: source.arxiv ? `${source.arxiv.id}${source.arxiv.version ? `v${source.arxiv.version}` : ''}` : null,
      sourceUrl: source.url,
    }));
    document.title = `${source.title} · Recipe Lens`;
    document.documentElement.dataset.pdfFingerprint = fingerprint;
  }

  /** Reads every page's text once (in the background of reading), then builds the text model: anchoring can start. */
  private async readAllText(): Promise<void> {
    const started = performance.now();
    try {
      const pages = await this.text!.all((n) => {
        // Real page sizes arrive with the text (pages start at the first page's size).
        void this.page(n).then((p) => this.stack?.setSize(n, this.sizeOf(p)));
      });
      const model = PdfTextModel.build(
        pages.map((p) => p.runs),
        document.implementation.createHTMLDocument(''),
      );
      this.model = model;
      mark('pdfTextMs', performance.now() - started);
      this.viewer.set((s) => ({ ...s, textReady: true }));
      if (!model.text) this.controller.toast(t('pdfNoText'), 'error');
      else if (this.text!.unreadable.length) this.controller.toast(t('pdfPagesUnreadable', this.text!.unreadable.join(', ')), 'error');
      this.surface.textRead(model);
    } catch (error) {
      console.warn('Recipe Lens: the document text could not be read', error);
      this.surface.textRead(null);
      this.controller.toast(t('pdfTextUnreadable'), 'error');
    }
  }

  private async readOutline(outline: Promise<unknown[] | null>): Promise<void> {
    const raw = await outline;
    if (!raw?.length) return;
    type Raw = { title: string; dest: unknown; items: Raw[] };
    const convert = (items: Raw[]): OutlineEntry[] => items.map((i) => ({ title: i.title, dest: i.dest, children: convert(i.items ?? []) }));
    this.viewer.set((s) => ({ ...s, outline: convert(raw as unknown as Raw[]) }));
  }

  /** Scrolls to an outline destination (a named or explicit PDF destination). */
  private async openDestination(dest: unknown): Promise<void> {
    const doc = this.doc;
    if (!doc || !this.stack) return;
    try {
      const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : (dest as unknown[] | null);
      if (!Array.isArray(explicit) || !explicit.length) return;
      const ref = explicit[0];
      const index = typeof ref === 'number' ? ref : await doc.getPageIndex(ref as { num: number; gen: number });
      const pageNumber = index + 1;
      let fraction = 0;
      const kind = (explicit[1] as { name?: string } | undefined)?.name;
      const top = kind === 'XYZ' ? explicit[3] : kind === 'FitH' || kind === 'FitBH' ? explicit[2] : null;
      if (typeof top === 'number') {
        const page = await this.page(pageNumber);
        const [, y] = page.getViewport({ scale: 1 }).convertToViewportPoint(0, top);
        const height = page.getViewport({ scale: 1 }).height;
        fraction = Math.max(0, Math.min(1, (y ?? 0) / height));
      }
      this.stack.scrollToPage(pageNumber, fraction);
    } catch {
      // a broken outline entry: stay where we are
    }
  }

  // ── The document's claims, for the sidebar and the header ────────────────

  /** Claims of this document placed on pages, in reading order, for the sidebar. */
  placedClaims(): Array<{ claim: ClaimRecord; page: number }> {
    return this.controller.anchoredClaims().map(({ claim, anchor }) => ({ claim, page: anchor.page }));
  }

  /** Counts for the header: painted claims and orphans. */
  counts(): { anchored: number; orphans: number } {
    return this.controller.counts();
  }

  /** A page's text layer appeared: the claims, candidates and find matches on it are painted. */
  private onTextLayer(page: number): void {
    this.surface.layerDrawn(page);
    if (this.findMatches.length) this.paintFind();
  }

  // ── Revealing pages and matches ──────────────────────────────────────────

  private onHashChange(): void {
    const params = new URLSearchParams(location.hash.replace(/^#/, ''));
    const claim = params.get('claim');
    const page = Number(params.get('page'));
    if (claim) void this.controller.reveal(claim);
    else if (Number.isInteger(page) && page > 0) this.stack?.scrollToPage(page);
  }

  // ── Zoom ─────────────────────────────────────────────────────────────────

  private fit(): void {
    if (!this.stack) return;
    this.applyZoom(Math.min(MAX_AUTO_ZOOM, this.stack.fitWidthZoom()), true);
  }

  private applyZoom(zoom: number, fit: boolean): void {
    if (!this.stack) return;
    this.stack.setZoom(zoom);
    this.viewer.set((s) => ({ ...s, zoom: this.stack!.zoom, fit }));
  }

  private stepZoom(direction: 1 | -1): void {
    const now = this.stack?.zoom ?? 1;
    const next = direction > 0 ? ZOOM_STEPS.find((z) => z > now + 0.01) : [...ZOOM_STEPS].reverse().find((z) => z < now - 0.01);
    if (next) this.applyZoom(next, false);
  }

  private onWheel(event: WheelEvent): void {
    if (!event.ctrlKey && !event.metaKey) return;
    event.preventDefault();
    this.stepZoom(event.deltaY < 0 ? 1 : -1);
  }

  // ── Find in the document ─────────────────────────────────────────────────

  private async find(query: string): Promise<void> {
    this.viewer.set((s) => ({ ...s, find: { ...s.find, open: true, query, searching: true } }));
    const model = await this.surface.textModel();
    if (!model || this.viewer.get().find.query !== query) return;
    this.findMatches = query.trim() ? model.find(query) : [];
    this.viewer.set((s) => ({ ...s, find: { ...s.find, index: 0, count: this.findMatches.length, searching: false } }));
    this.paintFind();
    if (this.findMatches.length) await this.showMatch(this.firstMatchFrom(this.viewer.get().page));
  }

  /** The first match on or after a page (the search starts where the curator is reading). */
  private firstMatchFrom(page: number): number {
    const model = this.model;
    if (!model) return 0;
    const at = this.findMatches.findIndex((m) => model.pageAt(m.start) >= page);
    return at < 0 ? 0 : at;
  }

  private async findStep(delta: 1 | -1): Promise<void> {
    const count = this.findMatches.length;
    if (!count) return;
    const next = (this.viewer.get().find.index + delta + count) % count;
    await this.showMatch(next);
  }

  private async showMatch(index: number): Promise<void> {
    const match = this.findMatches[index];
    const model = this.model;
    if (!match || !model) return;
    this.viewer.set((s) => ({ ...s, find: { ...s.find, index } }));
    const where = model.place(match.start, match.end);
    if (!where) return;
    await this.surface.show(where.segments[0]!);
    this.paintFind();
  }

  /** Paints the matches on pages with text layers (a window around the current one) and the current match. */
  private paintFind(): void {
    if (!canPaint() || !this.model) return;
    const { open, index } = this.viewer.get().find;
    if (!open || !this.findMatches.length) {
      CSS.highlights.delete(FIND_HIGHLIGHT);
      CSS.highlights.delete(FIND_CURRENT);
      return;
    }
    const from = Math.max(0, index - MAX_FIND_PAINTED / 2);
    const all: Range[] = [];
    let current: Range[] = [];
    this.findMatches.slice(from, from + MAX_FIND_PAINTED).forEach((m, k) => {
      const where = this.model!.place(m.start, m.end);
      const ranges = (where?.segments ?? []).flatMap((s) => this.surface.liveRange(s) ?? []);
      if (from + k === index) current = ranges;
      else all.push(...ranges);
    });
    CSS.highlights.set(FIND_HIGHLIGHT, new Highlight(...all));
    CSS.highlights.set(FIND_CURRENT, Object.assign(new Highlight(...current), { priority: 3 }));
  }

  private closeFind(): void {
    this.findMatches = [];
    this.viewer.set((s) => ({ ...s, find: { ...s.find, open: false, count: 0, index: 0 } }));
    this.paintFind();
    this.scroller?.focus({ preventScroll: true });
  }

  // ── A local file's web address ───────────────────────────────────────────

  private async setSourceUrl(input: string): Promise<void> {
    let url: string;
    try {
      const parsed = new URL(input.trim());
      if (!/^https?:$/.test(parsed.protocol)) throw new Error('not http');
      url = normalizeUrl(parsed.href);
    } catch {
      this.controller.toast(t('pdfGiveAddress'), 'error');
      return;
    }
    this.viewer.set((s) => ({ ...s, sourceUrl: url }));
    this.surface.setAddress(url);
    await this.controller.load();
  }

  // ── Keys ─────────────────────────────────────────────────────────────────

  /** Whether keys typed now go to a text field (ours, the header's or the form's). */
  private typing(event: KeyboardEvent): boolean {
    const target = event.composedPath()[0] as HTMLElement | undefined;
    return !!target && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable);
  }

  /** The viewer's keys (the capture UI has taken Escape when it had something open). */
  private onKey(event: KeyboardEvent): void {
    const mod = event.ctrlKey || event.metaKey;
    const key = event.key;
    if (mod && key.toLowerCase() === 'f' && !event.shiftKey && !event.altKey) {
      event.preventDefault();
      this.viewer.set((s) => ({ ...s, find: { ...s.find, open: true } }));
      document.dispatchEvent(new CustomEvent('recipe-lens-find-focus'));
      return;
    }
    if (mod && (key === '=' || key === '+')) {
      event.preventDefault();
      this.stepZoom(1);
      return;
    }
    if (mod && key === '-') {
      event.preventDefault();
      this.stepZoom(-1);
      return;
    }
    if (mod && key === '0') {
      event.preventDefault();
      this.fit();
      return;
    }
    if (key === 'Escape') {
      if (this.viewer.get().find.open) this.closeFind();
      return;
    }
    if (mod || event.altKey || this.typing(event) || this.controller.isOurs(event) || !this.stack) return;
    const page = this.viewer.get().page;
    if (key === 'n' || key === 'j' || (key === 'ArrowRight' && !event.shiftKey)) {
      event.preventDefault();
      this.stack.scrollToPage(page + 1);
    } else if (key === 'p' || key === 'k' || (key === 'ArrowLeft' && !event.shiftKey)) {
      event.preventDefault();
      this.stack.scrollToPage(page - 1);
    } else if (key === 'Home' && !event.shiftKey) {
      event.preventDefault();
      this.stack.scrollToPage(1);
    } else if (key === 'End' && !event.shiftKey) {
      event.preventDefault();
      this.stack.scrollToPage(this.stack.count, 1);
    }
  }
}
