/**
 * The PDF viewer's wiring for one document, the counterpart of the HTML
 * content script's session: opens the PDF, lays out its pages, reads its
 * whole text once into the text model, asks the store for the document's
 * claims (by URL, fingerprint and arXiv id), anchors them with the same rules
 * as HTML pages and paints each passage when its page's text layer appears;
 * drives the same capture UI (toolbar, claim form, card, orphans, notices)
 * and answers the background's calls to this tab. Every read and write of
 * claims is a message (through `ViewerApi`).
 */
import { h, render } from 'preact';
import { buildClaims, sourceFromFields, valuesFromClaim, type ClaimFormValues, type Passage, type SourceFields } from '../../lib/capture/draft';
import { mintClaimId } from '../../lib/capture/ids';
import { prefillValues } from '../../lib/capture/prefill';
import { panelPosition, selectedRange, toolbarPosition } from '../../lib/capture/selection';
import { t } from '../../lib/i18n';
import type { PageReport } from '../../lib/capture/page-report';
import { isContextInvalidated, withRetry } from '../../lib/messages';
import { HighlightPainter, canPaint, type PaintedClaim } from '../../lib/paint';
import {
  PdfTextModel,
  TextSource,
  detectPdfSource,
  linesOf,
  pdfPageLink,
  viewerUrl,
  type PageSegment,
  type PdfSource,
  type PlacedPassage,
  type RunPoint,
  type ViewerTarget,
} from '../../lib/pdf';
import type { ClaimRecord, Evidence, PdfRef, SourceCorrection } from '../../lib/schema';
import { normalizeUrl } from '../../lib/source';
import { nowTimestamp, today } from '../../lib/time';
import { CaptureApp } from '../capture/CaptureApp';
import { initialCaptureState, type CaptureActions, type CaptureState, type FormSession } from '../capture/state';
import { createStore, type Store } from '../common/store';
import type { PdfDocumentKey, ViewerApi } from './api';
import { PageStack, CSS_UNITS, type PageSize } from './pages';
import type { PDFDocumentProxy, PDFPageProxy } from './pdfjs';
import uiCss from '../capture/ui.css?inline';
import { PdfCandidateFinder } from './finder';

const FORM_SIZE = { width: 380, height: 600 };
const CARD_SIZE = { width: 340, height: 300 };
const TOAST_MS = 8000;
/** A save attempt unanswered this long is retried (same ids): the worker may have been stopped under it. */
const SAVE_ATTEMPT_MS = 10_000;
const ZOOM_STEPS = [0.5, 0.67, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];
/** The zoom a document opens at: the page width, but no larger than this. */
const MAX_AUTO_ZOOM = 1.25;
/** Highlight names of find-in-document matches (every match in view, and the current one). */
const FIND_HIGHLIGHT = 'recipe-lens-find';
const FIND_CURRENT = 'recipe-lens-find-current';
/** Matches painted at most, around the current one. */
const MAX_FIND_PAINTED = 400;

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

/** Marks a moment of the viewer's life for the benchmark and the tests (milliseconds since the page started). */
function mark(name: string, ms = performance.now()): void {
  document.documentElement.dataset[name] = String(Math.round(ms));
  performance.mark(`recipe-lens:${name}`);
}

/** Downloads a PDF's bytes with the extension's host permission (and the site's cookies, as the browser would), reporting progress. */
async function downloadPdf(url: string, onProgress: (fraction: number) => void): Promise<Uint8Array> {
  const response = await fetch(url, { credentials: 'include' });
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  const total = Number(response.headers.get('content-length')) || 0;
  if (!response.body || !total) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    onProgress(Math.min(1, loaded / total));
  }
  const out = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The PDF viewer for one document. */
export class PdfViewerSession {
  /** The viewer's own UI state. */
  readonly viewer: Store<ViewerState> = createStore(initialViewerState);
  /** The capture UI's state (the same component as on HTML pages). */
  readonly capture: Store<CaptureState> = createStore(initialCaptureState);
  private readonly painter = new HighlightPainter();
  private scroller: HTMLElement | null = null;
  private host: HTMLElement | null = null;
  private doc: PDFDocumentProxy | null = null;
  private text: TextSource | null = null;
  private stack: PageStack | null = null;
  private model: PdfTextModel | null = null;
  private modelWaiters: Array<(model: PdfTextModel | null) => void> = [];
  private source: PdfSource | null = null;
  private key: PdfDocumentKey | null = null;
  private correction: SourceCorrection | null = null;
  private placed = new Map<string, PlacedPassage>();
  private anchoredOnce = false;
  private claimsSignature = '';
  private loadSeq = 0;
  /** Ids minted for the open form's claims, reused by every save of that form. */
  private formIds: string[] = [];
  private loading: Promise<void> = Promise.resolve();
  private ui: HTMLElement | null = null;
  private uiReady: Promise<void> | null = null;
  private lastRange: Range | null = null;
  private pendingPage: number | null = null;
  private undoable = new Map<number, ClaimRecord[]>();
  private toastSeq = 0;
  private hoverTimer: number | undefined;
  private hideTimer: number | undefined;
  private insideCard = false;
  private pointerFrame = 0;
  private findMatches: Array<{ start: number; end: number }> = [];
  private changeTimer: number | undefined;
  private readonly cleanups: Array<() => void> = [];
  private readonly pages = new Map<number, Promise<PDFPageProxy>>();
  private pendingReveal: string | null;

  /** pdf.js (its worker starts as the module loads) and the PDF's bytes, both asked for as soon as the viewer exists. */
  private readonly early: { lib: Promise<typeof import('./pdfjs')>; bytes: Promise<Uint8Array> | null } | null;

  /** The claim finder over the document's text (runs only when asked). */
  private readonly finder = new PdfCandidateFinder({
    capture: this.capture,
    painter: this.painter,
    model: () => this.textModel(),
    ready: () => this.loading,
    url: () => this.viewer.get().sourceUrl,
    page: () => ({ kind: this.sourceFields().kind, models: this.source?.models ?? [] }),
    claimed: () => [...this.placed.values()],
    liveRange: (segment) => this.liveRange(segment),
    show: (segment) => this.showSegment(segment),
    ensureUi: () => this.ensureUi(),
    openForm: (range, passage, values, candidate) => this.openFormFor(range, { passage, values, candidate }),
    dismissed: (url) => this.api.dismissed(url),
    dismiss: (url, key, sentence) => this.api.dismiss(url, key, sentence),
    toast: (text, tone) => this.toast(text, tone),
    today: () => today(),
    title: () => this.sourceFields().title,
  });

  constructor(
    private readonly api: ViewerApi,
    private readonly target: ViewerTarget | null,
  ) {
    this.pendingReveal = target?.claim ?? null;
    // The bytes download while pdf.js loads and its worker starts (a local file is read by pdf.js itself).
    const onProgress = (progress: number) => this.viewer.set((s) => ({ ...s, progress }));
    const bytes = target && /^https?:/i.test(target.file) ? downloadPdf(target.file, onProgress) : null;
    bytes?.catch(() => undefined);
    const lib = import('./pdfjs');
    lib.catch(() => undefined);
    this.early = target ? { lib, bytes } : null;
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
    revealClaim: (id) => void this.reveal(id),
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
    this.cleanups.push(
      this.api.listen({
        'form.open': () => ({ opened: this.openForm() }),
        'claims.changed': async ({ url }) => {
          if (!this.concerns(url)) return { reloaded: false };
          await this.reloadClaims();
          return { reloaded: true };
        },
        'passage.reveal': async ({ id }) => ({ found: await this.reveal(id) }),
        'page.report': async () => {
          await this.loading;
          return this.pageReport();
        },
        'passage.reattach': async ({ id }) => {
          await this.loading;
          if (!this.capture.get().claims.some((c) => c.id === id)) return { started: false };
          this.startReattach(id);
          return { started: true };
        },
        'passage.confirm': async ({ id }) => ({ confirmed: await this.confirmText(id) }),
        'finder.run': () => this.finder.run(),
        'finder.accept': async ({ key }) => ({ opened: await this.finder.accept(key) }),
        'finder.dismiss': async ({ key }) => ({ dismissed: await this.finder.dismiss(key) }),
        'finder.undisclosed': async () => ({ opened: await this.finder.recordUndisclosed() }),
      }),
    );
    this.cleanups.push(
      this.api.onChange((url) => {
        if (!this.concerns(url)) return;
        clearTimeout(this.changeTimer);
        this.changeTimer = window.setTimeout(() => void this.reloadClaims(), 150);
      }),
    );
    this.listen(document, 'pointerup', (e) => this.onPointerUp(e as PointerEvent));
    this.listen(document, 'pointerdown', (e) => this.onPointerDown(e as PointerEvent));
    this.listen(document, 'keyup', (e) => this.onKeyUp(e as KeyboardEvent));
    this.listen(document, 'keydown', (e) => this.onKeyDown(e as KeyboardEvent), true);
    this.listen(document, 'selectionchange', () => this.onSelectionChange());
    this.listen(document, 'pointermove', (e) => this.onPointerMove(e as PointerEvent));
    this.listen(document, 'click', (e) => this.onClick(e as MouseEvent));
    this.listen(window, 'hashchange', () => this.onHashChange());
    this.listen(window, 'resize', () => {
      if (this.viewer.get().fit) this.fit();
    });
    this.listen(scroller, 'wheel', (e) => this.onWheel(e as WheelEvent), false, false);
    if (!this.target) {
      this.viewer.set((s) => ({ ...s, phase: 'empty' }));
      return;
    }
    this.loading = this.open(this.target.file);
  }

  /** Stops everything (the page is going away). */
  destroy(): void {
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    this.stack?.destroy();
    void this.doc?.destroy();
    try {
      this.painter.clear();
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

  private async open(file: string): Promise<void> {
    this.viewer.set((s) => ({ ...s, phase: 'loading', file, title: file.split(/[?#]/)[0]!.split('/').pop() || file }));
    document.title = `${this.viewer.get().title} · Recipe Lens`;
    const onProgress = (progress: number) => this.viewer.set((s) => ({ ...s, progress }));
    let doc: PDFDocumentProxy;
    try {
      const { openPdf } = await this.early!.lib;
      const bytes = this.early!.bytes;
      const opening = openPdf(bytes ? { data: await bytes } : { url: file }, onProgress);
      this.cleanups.push(() => opening.cancel());
      doc = await opening.promise;
    } catch (error) {
      await this.failOpen(file, error);
      return;
    }
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
      onRendered: (n) => {
        if (!document.documentElement.dataset.pdfFirstPageMs) mark('pdfFirstPageMs');
        document.documentElement.dataset.pdfRendered = String(n);
        firstDrawn();
      },
    });
    this.stack = stack;
    this.viewer.set((s) => ({ ...s, phase: 'ready', pageCount: doc.numPages, progress: 1 }));
    this.fit();
    if (this.target?.page) stack.scrollToPage(this.target.page);
    this.scroller!.focus({ preventScroll: true });
    // What the document is (then its claims), its whole text (then anchoring) and its outline wait for the first
    // page to be drawn: the worker serves one request at a time, and the first page comes first.
    void Promise.race([drawn, new Promise((resolve) => setTimeout(resolve, 1500))]).then(() => {
      const outline = doc.getOutline().catch(() => null);
      void this.identify(doc, outline).then(() => this.reloadClaims());
      void this.readAllText(doc);
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
    this.source = source;
    const fingerprint = doc.fingerprints[0] ?? doc.fingerprints[1] ?? 'unknown';
    this.key = { url: source.url, fingerprint, arxiv: source.arxiv?.id ?? null };
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

  /** Reads every page's text once (in the background of reading), then builds the text model and anchors. */
  private async readAllText(doc: PDFDocumentProxy): Promise<void> {
    const started = performance.now();
    try {
      const pages = await this.text!.all((n) => {
        // Real page sizes arrive with the text (pages start at the first page's size).
        void this.page(n).then((p) => this.stack?.setSize(n, this.sizeOf(p)));
      });
      this.model = PdfTextModel.build(
        pages.map((p) => p.runs),
        document.implementation.createHTMLDocument(''),
      );
      mark('pdfTextMs', performance.now() - started);
      this.viewer.set((s) => ({ ...s, textReady: true }));
      if (!this.model.text) this.toast(t('pdfNoText'), 'error');
      else if (this.text!.unreadable.length) this.toast(t('pdfPagesUnreadable', this.text!.unreadable.join(', ')), 'error');
      for (const resolve of this.modelWaiters.splice(0)) resolve(this.model);
      await this.loading;
      if (this.capture.get().claims.length) this.anchorAndPaint();
      else if (this.key) this.finishAnchoring();
    } catch (error) {
      console.warn('Recipe Lens: the document text could not be read', error);
      for (const resolve of this.modelWaiters.splice(0)) resolve(null);
      this.toast(t('pdfTextUnreadable'), 'error');
    }
    void doc;
  }

  /** The text model, once the whole document has been read. */
  private textModel(): Promise<PdfTextModel | null> {
    if (this.model) return Promise.resolve(this.model);
    return new Promise((resolve) => this.modelWaiters.push(resolve));
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

  // ── Claims: loading, anchoring, painting ─────────────────────────────────

  /** Whether a change notice for `url` may concern this document's claims. */
  private concerns(url: string | null): boolean {
    if (url === null) return true;
    return url === this.key?.url || this.capture.get().claims.some((c) => c.source.url === url);
  }

  /** Fetches this document's claims and (once the text is read) anchors and paints them. */
  private async reloadClaims(): Promise<void> {
    const key = this.key;
    if (!key) return;
    const seq = ++this.loadSeq;
    const run = (async () => {
      let reply: { claims: ClaimRecord[]; source: SourceCorrection | null };
      try {
        reply = await withRetry(() => this.api.claims(key));
      } catch (error) {
        this.onCallError(error, t('errRead'));
        return;
      }
      if (seq !== this.loadSeq) return;
      this.correction = reply.source;
      const signature = reply.claims
        .map((c) => `${c.id}@${c.updated_at}`)
        .sort()
        .join('|');
      this.capture.set((s) => ({ ...s, claims: reply.claims }));
      if (signature === this.claimsSignature && this.anchoredOnce) {
        this.repaint();
        return;
      }
      this.claimsSignature = signature;
      if (this.model) this.anchorAndPaint();
    })();
    this.loading = run;
    await run;
  }

  /** Anchors every claim against the whole document's text, then paints the rendered pages. */
  private anchorAndPaint(): void {
    const model = this.model;
    if (!model) return;
    const claims = this.capture.get().claims;
    const started = performance.now();
    const results = model.anchorAll(claims.map((c) => ({ quote: c.quote, position: c.position ?? null })));
    const placed = new Map<string, PlacedPassage>();
    const changed: CaptureState['changed'] = {};
    results.forEach(({ result, placed: where }, i) => {
      const claim = claims[i]!;
      if (result.status !== 'anchored' || !where) return;
      placed.set(claim.id, where);
      if (!result.exact) changed[claim.id] = { old: claim.quote.exact, now: result.text };
    });
    this.placed = placed;
    mark('pdfAnchorMs', performance.now() - started);
    this.capture.set((s) => ({ ...s, changed }));
    this.finishAnchoring();
  }

  /** After anchoring: orphans, badge, figures, and a claim asked for in the address. */
  private finishAnchoring(): void {
    this.anchoredOnce = true;
    this.repaint();
    mark('pdfAnchoredAt');
    const id = this.pendingReveal;
    this.pendingReveal = null;
    if (id) void this.reveal(id);
  }

  /** A live Range over a page segment, when that page's text layer is in place. */
  private liveRange(segment: PageSegment): Range | null {
    const stack = this.stack;
    if (!stack) return null;
    const a = stack.textNode(segment.page, segment.start.run);
    const b = stack.textNode(segment.page, segment.end.run);
    if (!a || !b) return null;
    const range = document.createRange();
    range.setStart(a, Math.min(segment.start.offset, a.length));
    range.setEnd(b, Math.min(segment.end.offset, b.length));
    return range.collapsed ? null : range;
  }

  /** Paints every placed claim on the pages whose text layers exist; reports orphans and the badge. */
  private repaint(): void {
    const claims = this.capture.get().claims;
    const painted: PaintedClaim[] = [];
    for (const claim of claims) {
      const where = this.placed.get(claim.id);
      if (!where) continue;
      for (const segment of where.segments) {
        const range = this.liveRange(segment);
        if (range) painted.push({ id: claim.id, kind: claim.kind, range });
      }
    }
    this.painter.paint(painted);
    document.documentElement.dataset.recipeLensPainted = String(new Set(painted.map((p) => p.id)).size);
    if (!this.anchoredOnce) return;
    const orphans = claims.filter((c) => !this.placed.has(c.id)).map((c) => c.id);
    const before = this.capture.get().orphans;
    this.capture.set((s) => ({ ...s, orphans }));
    if (orphans.length) void this.ensureUi();
    const anchored = claims.length - orphans.length;
    document.documentElement.dataset.recipeLensClaims = String(anchored);
    document.documentElement.dataset.recipeLensOrphans = String(orphans.length);
    if (orphans.length !== before.length || anchored !== this.lastReported) {
      this.lastReported = anchored;
      void this.api.status(anchored, orphans.length).catch(() => undefined);
    }
  }

  private lastReported = -1;

  private onTextLayer(page: number): void {
    // Only a page that holds a placed passage (or a find match) changes what is painted.
    const holds = [...this.placed.values()].some((p) => p.segments.some((s) => s.page === page));
    if (holds) this.repaint();
    if (this.finder.holds(page)) this.finder.paint();
    if (this.findMatches.length) this.paintFind();
  }

  // ── Revealing claims, pages and matches ──────────────────────────────────

  /** Scrolls to a claim's passage and flashes it; false when it is not placed in this document. */
  async reveal(id: string): Promise<boolean> {
    await this.loading;
    await this.textModel();
    if (!this.anchoredOnce) {
      this.pendingReveal = id;
      return this.capture.get().claims.some((c) => c.id === id);
    }
    const where = this.placed.get(id);
    if (!where || !this.stack) {
      if (this.capture.get().claims.some((c) => c.id === id)) {
        void this.ensureUi().then(() => this.capture.set((s) => ({ ...s, orphanList: true })));
      }
      return false;
    }
    const range = await this.showSegment(where.segments[0]!);
    this.painter.setActive([id]);
    window.setTimeout(() => this.painter.setActive([]), 2500);
    return range !== null;
  }

  /** Brings a segment's page into view, waits for its text layer and centres the segment. */
  private async showSegment(segment: PageSegment): Promise<Range | null> {
    const stack = this.stack!;
    stack.scrollToPage(segment.page);
    await stack.whenTextLayer(segment.page);
    const range = this.liveRange(segment);
    if (range) stack.centerRect(range.getBoundingClientRect());
    return range;
  }

  private onHashChange(): void {
    const params = new URLSearchParams(location.hash.replace(/^#/, ''));
    const claim = params.get('claim');
    const page = Number(params.get('page'));
    if (claim) void this.reveal(claim);
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
    const model = await this.textModel();
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
    await this.showSegment(where.segments[0]!);
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
      const ranges = (where?.segments ?? []).map((s) => this.liveRange(s)).filter((r): r is Range => r !== null);
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
      this.toast(t('pdfGiveAddress'), 'error');
      return;
    }
    this.viewer.set((s) => ({ ...s, sourceUrl: url }));
    if (this.key) this.key = { ...this.key, url };
    if (this.source) this.source = { ...this.source, url };
    await this.reloadClaims();
  }

  // ── The capture UI ───────────────────────────────────────────────────────

  /** Mounts the capture UI (in an open shadow root, as on HTML pages) the first time it is needed. */
  private ensureUi(): Promise<void> {
    this.uiReady ??= (async () => {
      const host = document.createElement('recipe-lens-ui');
      const shadow = host.attachShadow({ mode: 'open' });
      const style = document.createElement('style');
      style.textContent = uiCss;
      const container = document.createElement('div');
      shadow.append(style, container);
      document.body.append(host);
      this.ui = host;
      render(h(CaptureApp, { store: this.capture, actions: this.captureActions }), container);
      this.cleanups.push(() => render(null, container));
      // Keep the selection in the document when our buttons are pressed.
      host.addEventListener('mousedown', (e) => {
        const target = e.composedPath()[0] as HTMLElement | undefined;
        if (target && !/^(INPUT|TEXTAREA|SELECT|OPTION|LABEL)$/.test(target.tagName)) e.preventDefault();
      });
    })();
    return this.uiReady;
  }

  private readonly captureActions: CaptureActions = {
    openForm: () => void this.openForm(),
    closeToolbar: () => this.capture.set((s) => ({ ...s, toolbar: null })),
    save: (values, source, suggested) => this.save(values, source, suggested),
    cancelForm: () => {
      this.painter.markPending(null);
      this.capture.set((s) => ({ ...s, form: null }));
    },
    edit: (id) => this.edit(id),
    remove: (ids) => this.remove(ids),
    undo: (toastId) => this.undo(toastId),
    dismissToast: (id) => this.dismissToast(id),
    closeCard: () => {
      this.painter.setActive([]);
      this.capture.set((s) => ({ ...s, card: null }));
    },
    hoverCard: (inside) => {
      this.insideCard = inside;
      if (!inside) this.scheduleHideCard();
      else clearTimeout(this.hideTimer);
    },
    focusClaim: (ids) => this.painter.setActive(ids),
    confirmText: async (id) => {
      await this.confirmText(id);
    },
    startReattach: (id) => this.startReattach(id),
    attachHere: () => this.attachHere(),
    cancelReattach: () => this.capture.set((s) => ({ ...s, reattach: null, toolbar: null })),
    toggleOrphans: () => this.capture.set((s) => ({ ...s, orphanList: !s.orphanList })),
    finder: {
      acceptCandidate: (key) => void this.finder.accept(key),
      dismissCandidate: async (key) => {
        await this.finder.dismiss(key);
      },
      showCandidate: (key) => void this.finder.show(key),
      recordUndisclosed: () => void this.finder.recordUndisclosed(),
      closeFinder: () => this.finder.close(),
    },
  };

  private toast(text: string, tone: 'info' | 'error' = 'info', undo?: ClaimRecord[]): void {
    const id = ++this.toastSeq;
    if (undo) this.undoable.set(id, undo);
    void this.ensureUi().then(() => {
      this.capture.set((s) => ({ ...s, toasts: [...s.toasts, { id, text, tone, undo: !!undo }].slice(-3) }));
      window.setTimeout(() => this.dismissToast(id), tone === 'error' ? TOAST_MS * 2 : TOAST_MS);
    });
  }

  private dismissToast(id: number): void {
    this.undoable.delete(id);
    this.capture.set((s) => ({ ...s, toasts: s.toasts.filter((x) => x.id !== id) }));
  }

  private onCallError(error: unknown, what: string): void {
    if (isContextInvalidated(error)) {
      this.capture.set((s) => ({ ...s, disconnected: true }));
      void this.ensureUi();
      return;
    }
    this.toast(`${what}: ${error instanceof Error ? error.message : String(error)}`, 'error');
  }

  // ── Selection → the document's text ──────────────────────────────────────

  /** Whether a range lies in the pages (not in the header, sidebar or our UI). */
  private inPages(range: Range): boolean {
    return !!this.host && this.host.contains(range.commonAncestorContainer);
  }

  /** The run point of a DOM boundary in the pages: inside a run, or the first run at or after it on its page. */
  private pointAt(container: Node, offset: number): RunPoint | null {
    const host = this.host;
    const stack = this.stack;
    if (!host || !stack) return null;
    const element = container.nodeType === Node.TEXT_NODE ? container.parentElement : (container as Element);
    const runEl = element?.closest<HTMLElement>('span[data-run]');
    const pageEl = element?.closest<HTMLElement>('.pdf-page');
    if (runEl && pageEl && host.contains(runEl)) {
      const page = Number(pageEl.dataset.page);
      const run = Number(runEl.dataset.run);
      if (container.nodeType === Node.TEXT_NODE) return { page, run, offset };
      return { page, run, offset: offset === 0 ? 0 : (runEl.textContent ?? '').length };
    }
    const probe = document.createRange();
    probe.setStart(container, offset);
    // The page holding the boundary, or the first page after it.
    let page = pageEl && host.contains(pageEl) ? Number(pageEl.dataset.page) : 0;
    if (!page) {
      for (let n = 1; n <= stack.count; n++) {
        if (probe.comparePoint(stack.pageElement(n)!, 0) >= 0) {
          page = n;
          break;
        }
      }
      if (!page) return this.pageEnd(stack.count);
    }
    const spans = [...(stack.pageElement(page)?.querySelectorAll<HTMLElement>('span[data-run]') ?? [])];
    let lo = 0;
    let hi = spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (probe.comparePoint(spans[mid]!, 0) >= 0) hi = mid;
      else lo = mid + 1;
    }
    const next = spans[lo];
    return next ? { page, run: Number(next.dataset.run), offset: 0 } : this.pageEnd(page);
  }

  /** The end of a page's text. */
  private pageEnd(page: number): RunPoint {
    const runs = this.model?.runsOf(page) ?? [];
    let last = runs.length - 1;
    while (last > 0 && !runs[last]!.str) last--;
    return { page, run: Math.max(0, last), offset: runs[last]?.str.length ?? 0 };
  }

  /** Describes a live selection over the document's whole text. */
  private describeRange(model: PdfTextModel, range: Range): (Passage & { page: number }) | null {
    const a = this.pointAt(range.startContainer, range.startOffset);
    const b = this.pointAt(range.endContainer, range.endOffset);
    if (!a || !b) return null;
    const described = model.describe(a, b);
    return described.quote.exact ? { quote: described.quote, position: described.position, page: described.page } : null;
  }

  private onPointerDown(event: PointerEvent): void {
    // While a selection is dragged, the text layer's end marker covers the gaps between lines (no jumps to the page end).
    const layer = (event.target as Element | null)?.closest?.('.pdf-text');
    if (layer) layer.classList.add('pdf-selecting');
  }

  private onPointerUp(event: PointerEvent): void {
    for (const layer of this.host?.querySelectorAll('.pdf-selecting') ?? []) layer.classList.remove('pdf-selecting');
    if (this.isOurs(event)) return;
    window.setTimeout(() => this.checkSelection(), 10);
  }

  private onKeyUp(event: KeyboardEvent): void {
    if (this.isOurs(event)) return;
    if (event.shiftKey || event.key === 'Shift' || ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a')) this.checkSelection();
  }

  private onSelectionChange(): void {
    const selection = document.getSelection();
    if ((!selection || selection.isCollapsed) && this.capture.get().toolbar) this.capture.set((s) => ({ ...s, toolbar: null }));
  }

  private checkSelection(): void {
    if (this.capture.get().form) return;
    const range = selectedRange(window, this.ui);
    if (!range || !this.inPages(range)) return;
    this.lastRange = range;
    const at = toolbarPosition(range, { width: innerWidth, height: innerHeight });
    void this.ensureUi().then(() => this.capture.set((s) => ({ ...s, toolbar: at, card: null })));
  }

  private isOurs(event: Event): boolean {
    const host = this.ui;
    return !!host && event.composedPath().includes(host);
  }

  /** Whether keys typed now go to a text field (ours, the header's or the form's). */
  private typing(event: KeyboardEvent): boolean {
    const target = event.composedPath()[0] as HTMLElement | undefined;
    return !!target && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable);
  }

  private onKeyDown(event: KeyboardEvent): void {
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
      const s = this.capture.get();
      if (s.form && this.isOurs(event)) return; // the form handles its own Escape
      if (s.form || s.toolbar || s.card) {
        this.painter.setActive([]);
        this.painter.markPending(null);
        this.capture.set((st) => ({ ...st, form: null, toolbar: null, card: null }));
        return;
      }
      if (s.finder) {
        this.finder.close();
        return;
      }
      if (this.viewer.get().find.open) this.closeFind();
      return;
    }
    if (mod || event.altKey || this.typing(event) || this.isOurs(event) || !this.stack) return;
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

  // ── The claim form ───────────────────────────────────────────────────────

  /** Opens the form for the current (or last shown) selection; false when nothing in the pages is selected. */
  openForm(): boolean {
    const range = selectedRange(window, this.ui) ?? (this.capture.get().toolbar ? this.lastRange : null);
    if (!range || !this.inPages(range)) {
      this.toast(t('toastSelectFirst'), 'error');
      return false;
    }
    void this.openFormFor(range);
    return true;
  }

  private sourceFields(): SourceFields {
    const c = this.correction;
    const d = this.source;
    return {
      title: c?.title ?? d?.title ?? this.viewer.get().title,
      kind: c?.kind ?? d?.kind ?? 'technical_report',
      publisher: (c ? c.publisher : d?.publisher) ?? '',
      published: (c ? c.published : d?.published) ?? '',
    };
  }

  /**
   * Opens the form on a range: its passage described from the range and prefilled from it, or (a finder
   * candidate, "not disclosed") the passage, values and candidate key given.
   */
  private async openFormFor(
    range: Range,
    given?: { passage: Passage & { page: number }; values: (storeModels: string[]) => ClaimFormValues; candidate: string | null },
  ): Promise<void> {
    await this.ensureUi();
    if (!this.model) this.toast(t('pdfReadingFirst'));
    const model = await this.textModel();
    if (!model) return;
    const passage = given?.passage.quote.exact ? given.passage : this.describeRange(model, range);
    if (!passage) {
      this.toast(t('pdfSelectionNoText'), 'error');
      return;
    }
    if (!this.viewer.get().sourceUrl) {
      this.toast(t('pdfLocalNeedsAddress'), 'error');
      return;
    }
    let storeModels: string[] = [];
    try {
      storeModels = await this.api.modelNames();
    } catch (error) {
      if (isContextInvalidated(error)) return this.onCallError(error, '');
    }
    const fields = this.sourceFields();
    const pageModels = this.source?.models ?? [];
    const values = given ? given.values(storeModels) : prefillValues(passage.quote.exact, { kind: fields.kind, models: pageModels }, storeModels);
    const rect = range.getBoundingClientRect();
    this.pendingPage = passage.page;
    this.formIds = [];
    const session: FormSession = {
      mode: 'new',
      passage: { quote: passage.quote, position: passage.position },
      values,
      source: fields,
      sourceCorrected: !!this.correction,
      pageModels,
      storeModels,
      editing: null,
      at: panelPosition(rect, FORM_SIZE, { width: innerWidth, height: innerHeight }),
      saving: false,
      error: null,
      candidate: given?.candidate ?? null,
    };
    this.capture.set((s) => ({ ...s, toolbar: null, card: null, form: session }));
    this.painter.markPending(range);
  }

  private edit(id: string): void {
    const claim = this.capture.get().claims.find((c) => c.id === id);
    if (!claim) return;
    const where = this.placed.get(id);
    const range = where ? this.liveRange(where.segments[0]!) : null;
    const rect = range?.getBoundingClientRect() ?? { left: 40, top: 40, bottom: 60 };
    this.pendingPage = claim.pdf?.page ?? where?.page ?? null;
    this.formIds = [];
    this.capture.set((s) => ({
      ...s,
      card: null,
      form: {
        mode: 'edit',
        passage: { quote: claim.quote, position: claim.position ?? null },
        values: valuesFromClaim(claim),
        source: { title: claim.source.title, kind: claim.source.kind, publisher: claim.source.publisher ?? '', published: claim.source.published ?? '' },
        sourceCorrected: !!this.correction,
        pageModels: this.source?.models ?? [],
        storeModels: [],
        editing: claim,
        at: panelPosition(rect, FORM_SIZE, { width: innerWidth, height: innerHeight }),
        saving: false,
        error: null,
      },
    }));
  }

  /** Where a claim sits in this document: fingerprint, page, arXiv id. */
  private pdfRef(page: number): PdfRef {
    return { fingerprint: this.key!.fingerprint, page, arxiv: this.key!.arxiv };
  }

  private async save(values: ClaimFormValues, fields: SourceFields, suggested: Evidence): Promise<void> {
    const form = this.capture.get().form;
    const url = this.viewer.get().sourceUrl;
    if (!form || !url || !this.key) return;
    const setForm = (patch: Partial<FormSession>) => this.capture.set((s) => (s.form ? { ...s, form: { ...s.form, ...patch } } : s));
    setForm({ saving: true, error: null });
    try {
      const accessed = form.editing?.source.accessed ?? today();
      const source = sourceFromFields(form.editing?.source.url ?? url, accessed, fields);
      const page = this.pendingPage ?? (form.passage.position ? (this.model?.pageAt(form.passage.position.start) ?? 1) : 1);
      // Ids are minted once per form: saving again after a failure reuses them, so a write that did land is overwritten, not doubled.
      let next = 0;
      const mintId = () => (this.formIds[next++] ??= mintClaimId());
      const built = buildClaims(values, { passage: form.passage, source, suggested, now: nowTimestamp(), mintId, editing: form.editing });
      // A claim on a PDF carries the document's identity and a link that opens the PDF at its page in any reader.
      const claims = built.map((c) => (c.pdf ? c : { ...c, pdf: this.pdfRef(page), link: c.link ?? pdfPageLink(c.source.url, page) }));
      const changedSource = this.sourceChanged(fields, form.source);
      const saved = await withRetry(() => this.api.save(claims), {
        timeoutMs: SAVE_ATTEMPT_MS,
        onRetry: (attempt) => setForm({ saving: true, error: attempt > 1 ? t('savingSlow', attempt) : null }),
      });
      if (changedSource) {
        const { accessed: _accessed, ...override } = source;
        await this.api.correctSource(override);
        this.correction = { ...override, updated_at: nowTimestamp() };
      }
      const ids = new Set(saved.map((c) => c.id));
      this.painter.markPending(null);
      this.capture.set((s) => ({ ...s, form: null, claims: [...s.claims.filter((c) => !ids.has(c.id)), ...saved] }));
      // A new passage is where it was described; an edited claim stays where it was anchored (its stored
      // position may come from another version of the file).
      const position = form.passage.position;
      const where =
        form.mode === 'new'
          ? position && this.model
            ? this.model.place(position.start, position.end)
            : null
          : form.editing
            ? (this.placed.get(form.editing.id) ?? null)
            : null;
      for (const c of saved) {
        if (where) this.placed.set(c.id, where);
      }
      this.claimsSignature = this.capture
        .get()
        .claims.map((c) => `${c.id}@${c.updated_at}`)
        .sort()
        .join('|');
      this.anchoredOnce = this.anchoredOnce || !!this.model;
      this.repaint();
      if (form.candidate) this.finder.accepted(form.candidate);
      document.getSelection()?.removeAllRanges();
      const what = saved.length === 1 ? `${saved[0]!.value}` : `${saved.length} claims`;
      this.toast(form.mode === 'edit' ? t('toastUpdated', what, values.model) : t('toastSaved', what, values.model));
    } catch (error) {
      if (isContextInvalidated(error)) {
        setForm({ saving: false, error: t('errSaveReloaded') });
        this.capture.set((s) => ({ ...s, disconnected: true }));
        return;
      }
      setForm({ saving: false, error: t('errNotSaved', error instanceof Error ? error.message : String(error)) });
    }
  }

  private sourceChanged(a: SourceFields, b: SourceFields): boolean {
    return a.title !== b.title || a.kind !== b.kind || a.publisher !== b.publisher || a.published !== b.published;
  }

  // ── Drifted text and orphans ─────────────────────────────────────────────

  /** Stores the document's current text as a drifted claim's quote; false when it is not placed. */
  private async confirmText(id: string): Promise<boolean> {
    const claim = this.capture.get().claims.find((c) => c.id === id);
    const where = this.placed.get(id);
    const model = this.model;
    if (!claim || !where || !model) return false;
    const described = model.describeOffsets(where.start, where.end);
    return this.replacePassage(claim, { quote: described.quote, position: described.position, page: described.page }, t('toastQuoteUpdated'));
  }

  private startReattach(id: string): void {
    void this.ensureUi().then(() => this.capture.set((s) => ({ ...s, reattach: id, orphanList: false, card: null })));
  }

  private async attachHere(): Promise<void> {
    const id = this.capture.get().reattach;
    const claim = this.capture.get().claims.find((c) => c.id === id);
    const range = selectedRange(window, this.ui) ?? this.lastRange;
    const model = await this.textModel();
    if (!claim || !range || !model) return;
    const passage = this.describeRange(model, range);
    if (!passage) return;
    if (await this.replacePassage(claim, passage, t('toastReattached', claim.value, claim.model))) {
      document.getSelection()?.removeAllRanges();
      this.capture.set((s) => ({ ...s, reattach: null, toolbar: null }));
    }
  }

  /** Gives a claim a new passage in this document, saves it and repaints. */
  private async replacePassage(claim: ClaimRecord, passage: Passage & { page: number }, done: string): Promise<boolean> {
    if (!passage.quote.exact || !this.key) return false;
    try {
      const next: ClaimRecord = { ...claim, quote: passage.quote, position: passage.position, pdf: this.pdfRef(passage.page) };
      const [saved] = await withRetry(() => this.api.save([next]));
      const where = passage.position && this.model ? this.model.place(passage.position.start, passage.position.end) : null;
      if (where) this.placed.set(claim.id, where);
      const changed = { ...this.capture.get().changed };
      delete changed[claim.id];
      this.capture.set((s) => ({ ...s, changed, claims: s.claims.map((c) => (c.id === claim.id ? saved! : c)) }));
      this.repaint();
      this.toast(done);
      return true;
    } catch (error) {
      this.onCallError(error, t('errPassage'));
      return false;
    }
  }

  // ── Deleting and undo ────────────────────────────────────────────────────

  private async remove(ids: string[]): Promise<void> {
    try {
      const deleted = await this.api.remove(ids);
      const gone = new Set(deleted.map((c) => c.id));
      for (const id of gone) this.placed.delete(id);
      this.capture.set((s) => ({ ...s, card: null, claims: s.claims.filter((c) => !gone.has(c.id)) }));
      this.painter.setActive([]);
      this.repaint();
      const label = deleted.length === 1 ? t('toastDeleted', deleted[0]!.value, deleted[0]!.model) : t('toastDeletedMany', deleted.length);
      this.toast(label, 'info', deleted);
    } catch (error) {
      this.onCallError(error, t('errDelete'));
    }
  }

  private async undo(toastId: number): Promise<void> {
    const claims = this.undoable.get(toastId);
    this.dismissToast(toastId);
    if (!claims?.length) return;
    try {
      await this.api.restore(claims);
      this.capture.set((s) => ({ ...s, claims: [...s.claims, ...claims] }));
      this.anchorAndPaint();
      this.toast(claims.length === 1 ? t('toastRestored') : t('toastRestoredMany', claims.length));
    } catch (error) {
      this.onCallError(error, t('errUndo'));
    }
  }

  // ── Hover and click on painted passages ──────────────────────────────────

  private onPointerMove(event: PointerEvent): void {
    if (!this.placed.size || this.pointerFrame || this.isOurs(event)) return;
    const { clientX: x, clientY: y } = event;
    this.pointerFrame = requestAnimationFrame(() => {
      this.pointerFrame = 0;
      const card = this.capture.get().card;
      if (card?.pinned || this.capture.get().form) return;
      const hits = [...new Set(this.painter.hitTest(x, y))];
      clearTimeout(this.hoverTimer);
      if (hits.length) {
        clearTimeout(this.hideTimer);
        this.painter.setActive(hits);
        this.hoverTimer = window.setTimeout(() => this.showCard(hits, x, y, false), 250);
      } else if (card || this.painter.claims().length) {
        this.painter.setActive([]);
        this.scheduleHideCard();
      }
    });
  }

  private onClick(event: MouseEvent): void {
    if (this.isOurs(event) || !this.placed.size) return;
    const selection = document.getSelection();
    if (selection && !selection.isCollapsed) return;
    const hits = [...new Set(this.painter.hitTest(event.clientX, event.clientY))];
    if (hits.length) {
      this.painter.setActive(hits);
      this.showCard(hits, event.clientX, event.clientY, true);
    } else if (this.capture.get().card) {
      this.captureActions.closeCard();
    }
  }

  private showCard(ids: string[], x: number, y: number, pinned: boolean): void {
    void this.ensureUi().then(() => {
      const at = panelPosition({ left: x - 20, top: y - 12, bottom: y + 12 }, CARD_SIZE, { width: innerWidth, height: innerHeight });
      this.capture.set((s) => (s.form ? s : { ...s, card: { ids, at, pinned } }));
    });
  }

  private scheduleHideCard(): void {
    clearTimeout(this.hideTimer);
    this.hideTimer = window.setTimeout(() => {
      const card = this.capture.get().card;
      if (card && !card.pinned && !this.insideCard) this.capture.set((s) => ({ ...s, card: null }));
    }, 400);
  }

  // ── What the evidence panel sees ─────────────────────────────────────────

  /** The document as the evidence panel's "This page" view shows it. */
  pageReport(): PageReport {
    const fields = this.sourceFields();
    const claims = this.capture.get().claims;
    const anchored = claims.filter((c) => this.placed.has(c.id));
    anchored.sort((a, b) => this.placed.get(a.id)!.start - this.placed.get(b.id)!.start || (a.created_at < b.created_at ? -1 : 1));
    const orphans = claims.filter((c) => !this.placed.has(c.id)).map((c) => c.id);
    const title = this.viewer.get().title;
    return {
      url: this.viewer.get().sourceUrl ?? this.viewer.get().file,
      title,
      source: {
        title: fields.title,
        kind: fields.kind,
        publisher: fields.publisher || null,
        published: fields.published || null,
        corrected: !!this.correction,
      },
      models: this.source?.models ?? [],
      order: [...anchored.map((c) => c.id), ...(this.anchoredOnce ? orphans : [])],
      orphans: this.anchoredOnce ? orphans : [],
      changed: Object.entries(this.capture.get().changed).map(([id, x]) => ({ id, old: x.old, now: x.now })),
    };
  }

  /** Claims of this document placed on pages, in reading order, for the sidebar. */
  placedClaims(): Array<{ claim: ClaimRecord; page: number }> {
    return this.capture
      .get()
      .claims.filter((c) => this.placed.has(c.id))
      .map((claim) => ({ claim, page: this.placed.get(claim.id)!.page, start: this.placed.get(claim.id)!.start }))
      .sort((a, b) => a.start - b.start)
      .map(({ claim, page }) => ({ claim, page }));
  }

  /** Counts for the header: painted claims and orphans. */
  counts(): { anchored: number; orphans: number } {
    const orphans = this.capture.get().orphans.length;
    return { anchored: this.capture.get().claims.length - orphans, orphans };
  }
}
