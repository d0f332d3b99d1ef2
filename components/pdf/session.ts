/**
 * The PDF viewer for one document: opens the PDF, lays out its pages, reads
 * its whole text once into the text model, and joins the parts that do the
 * rest: what the document is (`identify.ts`), its outline (`outline.ts`),
 * zoom (`zoom.ts`), find in the document (`find.ts`) and the viewer's keys
 * (`keys.ts`). Capturing, painting and everything about claims is the capture
 * controller's, over the PDF's document surface (`pdf-surface.ts`), built by
 * the viewer's entrypoint as the web page's is by the capture script; every
 * read and write of claims is a message (through `ViewerApi`).
 */
import { t } from '../../lib/i18n';
import { PdfTextModel, type PlacedPassage, TextSource, type ViewerTarget, viewerUrl } from '../../lib/pdf';
import type { ClaimRecord } from '../../lib/schema';
import { normalizeUrl } from '../../lib/source';
import type { CaptureController } from '../capture/controller';
import type { CaptureState } from '../capture/state';
import type { Store } from '../common/store';
import type { ViewerApi } from './api';
import { DocumentFind } from './find';
import { headerOf, identifyPdf } from './identify';
import { onViewerKey } from './keys';
import { mark, markAfterFrame } from './marks';
import { openPdfEarly, type PdfOpening } from './opening';
import { destinationOf, outlineEntries } from './outline';
import { CSS_UNITS, PageStack, type PageSize } from './pages';
import type { PdfSurface } from './pdf-surface';
import type { PDFDocumentProxy, PDFPageProxy } from './pdfjs';
import type { ViewerActions, ViewerState } from './viewer-state';
import { ViewerZoom } from './zoom';

/** The longest the document's text, metadata and outline wait for the first page (a draw that never ends). */
const FIRST_DRAW_WAIT_MS = 10_000;

/** What a session is made of: the viewer's state and the capture flow over the document, which the entrypoint builds. */
export interface SessionParts {
  api: ViewerApi;
  target: ViewerTarget | null;
  /** The document, opening since the viewer's entry ran (`opening.ts`); null when the viewer has no PDF to show. */
  opening?: PdfOpening | null;
  /** The viewer's own UI state (its title and file name the surface reads). */
  viewer: Store<ViewerState>;
  /** The document as the capture controller sees it. */
  surface: PdfSurface;
  /** The capture flow over this document (the same as on web pages), given the session's keys as its `onKey`. */
  controller: CaptureController<PlacedPassage>;
}

/** The PDF viewer for one document. */
export class PdfViewerSession {
  /** The viewer's own UI state. */
  readonly viewer: Store<ViewerState>;
  private readonly api: ViewerApi;
  private readonly target: ViewerTarget | null;
  private readonly opening: PdfOpening | null;
  private readonly surface: PdfSurface;
  private readonly controller: CaptureController<PlacedPassage>;
  private readonly zoom: ViewerZoom;
  private readonly finder: DocumentFind;
  private scroller: HTMLElement | null = null;
  private host: HTMLElement | null = null;
  private doc: PDFDocumentProxy | null = null;
  private text: TextSource | null = null;
  private stack: PageStack | null = null;
  /** The document's whole text, once read (find in the document searches it). */
  private model: PdfTextModel | null = null;
  private readonly cleanups: Array<() => void> = [];
  private readonly pages = new Map<number, Promise<PDFPageProxy>>();
  /** Whether the first page was shown (a quick draw), and shown sharp. */
  private firstPageShown = false;
  private firstPageSharp = false;

  constructor({ api, target, opening = target ? openPdfEarly(target.file) : null, viewer, surface, controller }: SessionParts) {
    this.api = api;
    this.target = target;
    this.opening = opening;
    this.viewer = viewer;
    this.surface = surface;
    this.controller = controller;
    this.zoom = new ViewerZoom(viewer, () => this.stack);
    this.finder = new DocumentFind(viewer, surface, () => this.model);
  }

  /** The capture UI's state (the same component as on web pages). */
  get capture(): Store<CaptureState> {
    return this.controller.store;
  }

  /** What the viewer's UI calls. */
  readonly actions: ViewerActions = {
    zoomIn: () => this.zoom.step(1),
    zoomOut: () => this.zoom.step(-1),
    fitWidth: () => this.zoom.fit(),
    setZoom: (zoom) => this.zoom.set(zoom, false),
    goToPage: (page) => this.stack?.scrollToPage(page),
    toggleSidebar: () => {
      this.viewer.set((s) => ({ ...s, sidebar: !s.sidebar }));
      // The pages' width changed: a fitted zoom fits again once the layout has followed.
      requestAnimationFrame(() => {
        if (this.viewer.get().fit) this.zoom.fit();
      });
    },
    openOutline: (entry) => void this.openDestination(entry.dest),
    revealClaim: (id) => void this.controller.reveal(id),
    openFind: () => this.openFind(),
    find: (query) => void this.finder.find(query),
    findStep: (delta) => void this.finder.step(delta),
    closeFind: () => this.closeFind(),
    setSourceUrl: (url) => void this.setSourceUrl(url),
    openFile: (url) => {
      location.href = viewerUrl(location.href.split(/[?#]/)[0]!, { file: url.trim() });
    },
  };

  /** The viewer's keys, for the capture controller's `onKey` (it has taken Escape when it had something open). */
  onKey(event: KeyboardEvent): void {
    onViewerKey(event, {
      openFind: () => this.openFind(),
      findOpen: () => this.viewer.get().find.open,
      closeFind: () => this.closeFind(),
      zoomStep: (direction) => this.zoom.step(direction),
      fit: () => this.zoom.fit(),
      pages: () => (this.stack ? { page: this.viewer.get().page, count: this.stack.count } : null),
      scrollToPage: (page, fraction) => this.stack?.scrollToPage(page, fraction),
      isOurs: (e) => this.controller.isOurs(e),
    });
  }

  /** Starts the viewer in its scrolling container (`scroller`) and the element that holds the pages (`host`). */
  attach(scroller: HTMLElement, host: HTMLElement): void {
    this.scroller = scroller;
    this.host = host;
    this.cleanups.push(this.api.listen(this.controller.answers));
    this.listen(window, 'hashchange', () => this.onHashChange());
    this.listen(window, 'resize', () => {
      if (this.viewer.get().fit) this.zoom.fit();
    });
    this.listen(scroller, 'wheel', (e) => this.zoom.onWheel(e as WheelEvent), false, false);
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
    this.finder.destroy();
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
    this.zoom.fit();
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

  /** Reads what the document is (then its claims can load under its address or fingerprint). */
  private async identify(doc: PDFDocumentProxy, outline: Promise<Array<{ title: string }> | null>): Promise<void> {
    const { source, fingerprint } = await identifyPdf(doc, this.text!, this.target!.file, outline);
    this.surface.identify(source, fingerprint);
    this.viewer.set((s) => ({ ...s, ...headerOf(source) }));
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
    const entries = outlineEntries(await outline);
    if (entries.length) this.viewer.set((s) => ({ ...s, outline: entries }));
  }

  /** Scrolls to an outline destination (a named or explicit PDF destination); a broken entry stays where we are. */
  private async openDestination(dest: unknown): Promise<void> {
    const doc = this.doc;
    if (!doc || !this.stack) return;
    const where = await destinationOf(doc, dest, (n) => this.page(n));
    if (where) this.stack.scrollToPage(where.page, where.fraction);
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
    if (this.finder.active) this.finder.paint();
  }

  // ── Revealing pages and matches ──────────────────────────────────────────

  private onHashChange(): void {
    const params = new URLSearchParams(location.hash.replace(/^#/, ''));
    const claim = params.get('claim');
    const page = Number(params.get('page'));
    if (claim) void this.controller.reveal(claim);
    else if (Number.isInteger(page) && page > 0) this.stack?.scrollToPage(page);
  }

  // ── Find in the document ─────────────────────────────────────────────

  private openFind(): void {
    this.viewer.set((s) => ({ ...s, find: { ...s.find, open: true } }));
  }

  private closeFind(): void {
    this.finder.close();
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
}
