/**
 * A PDF in the viewer as a document surface: the store knows it by address,
 * fingerprint and arXiv id; its whole text is one model (read once) over
 * which claims are anchored as placed passages (run offsets per page); a
 * passage is painted page by page as each page's text layer appears; a
 * selection in the text layers is mapped back to the model; a claim carries
 * the document's identity and a `#page=` link.
 */
import type { Passage } from '../../lib/capture/draft';
import { t } from '../../lib/i18n';
import type { DocumentKey } from '../../lib/messages';
import { type PageSegment, type PdfSource, type PdfTextModel, type PlacedPassage, pdfPageLink, type RunPoint } from '../../lib/pdf';
import type { ClaimRecord, PdfRef } from '../../lib/schema';
import { partitionPoint } from '../../lib/sorted';
import type { Anchoring, Captured, DocumentFacts, DocumentSurface, Say, Stale, TextView } from '../capture/surface';
import { mark } from './marks';
import type { PageStack } from './pages';

/** Characters of the first page taken as the passage of a "not disclosed" record when the title is not found in the text. */
const TITLE_CHARS = 120;

/** How the viewer tells the surface what it shows. */
export interface PdfViewerFacts {
  /** The title the viewer shows (the file's name until the document is identified). */
  title(): string;
  /** The address the PDF was opened from (a local file's path when it has no web address). */
  file(): string;
}

/** A PDF in the viewer as the capture controller sees it. */
export class PdfSurface implements DocumentSurface<PlacedPassage> {
  private stack: PageStack | null = null;
  private host: HTMLElement | null = null;
  private model: PdfTextModel | null = null;
  private readonly text: Promise<PdfTextModel | null>;
  private settle: (model: PdfTextModel | null) => void = () => {};
  private source: PdfSource | null = null;
  private identity: { fingerprint: string; arxiv: string | null } | null = null;
  private address: string | null = null;
  private readonly listeners = new Set<(change: Stale<PlacedPassage>) => void>();
  private readonly events = new AbortController();

  constructor(private readonly viewer: PdfViewerFacts) {
    this.text = new Promise((resolve) => (this.settle = resolve));
  }

  // ── What the viewer tells the surface ────────────────────────────────────

  /** The pages are laid out in `host` (selections are mapped back to the text there). */
  attach(stack: PageStack, host: HTMLElement): void {
    this.stack = stack;
    this.host = host;
    const on = { signal: this.events.signal, passive: true };
    // While a selection is dragged, the text layer's end marker covers the gaps between lines (no jumps to the page end).
    document.addEventListener('pointerdown', (e) => (e.target as Element | null)?.closest?.('.pdf-text')?.classList.add('pdf-selecting'), on);
    document.addEventListener(
      'pointerup',
      () => {
        for (const layer of host.querySelectorAll('.pdf-selecting')) layer.classList.remove('pdf-selecting');
      },
      on,
    );
  }

  /** What the document is: its detected source, fingerprint and arXiv id (its address is the source's). */
  identify(source: PdfSource, fingerprint: string): void {
    this.source = source;
    this.identity = { fingerprint, arxiv: source.arxiv?.id ?? null };
    this.address = source.url;
  }

  /** A local file was given the web address its claims are stored under. */
  setAddress(url: string): void {
    this.address = url;
    if (this.source) this.source = { ...this.source, url };
  }

  /** The whole text was read (null: it could not be): anchoring can start. */
  textRead(model: PdfTextModel | null): void {
    this.model = model;
    this.settle(model);
    if (model) this.emit({ kind: 'text' });
  }

  /** A page's text layer appeared: what is placed on it can be painted. */
  layerDrawn(page: number): void {
    this.emit({ kind: 'layout', touches: (placed) => placed.segments.some((s) => s.page === page) });
  }

  /** The text model, once every page's text is read (null: unreadable). */
  textModel(): Promise<PdfTextModel | null> {
    return this.text;
  }

  /** A live Range over a page segment, when that page's text layer is in place. */
  liveRange(segment: PageSegment): Range | null {
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

  /** Brings a segment's page into view, waits for its text layer and centres the segment. */
  async show(segment: PageSegment): Promise<Range | null> {
    const stack = this.stack;
    if (!stack) return null;
    stack.scrollToPage(segment.page);
    await stack.whenTextLayer(segment.page);
    const range = this.liveRange(segment);
    if (range) stack.centerRect(range.getBoundingClientRect());
    return range;
  }

  /** Stops listening. */
  destroy(): void {
    this.events.abort();
    this.listeners.clear();
  }

  // ── The document surface ─────────────────────────────────────────────────

  key(): DocumentKey | null {
    return this.identity ? { url: this.address, pdf: this.identity } : null;
  }

  facts(): DocumentFacts {
    const s = this.source;
    return {
      url: this.address ?? this.viewer.file(),
      title: s?.title ?? this.viewer.title(),
      kind: s?.kind ?? 'technical_report',
      publisher: s?.publisher ?? null,
      published: s?.published ?? null,
      models: s?.models ?? [],
    };
  }

  unaddressed(): string | null {
    return this.address ? null : t('pdfLocalNeedsAddress');
  }

  async ready(): Promise<void> {
    await this.text;
  }

  canCapture(range: Range): boolean {
    return !!this.host && this.host.contains(range.commonAncestorContainer);
  }

  async describe(range: Range, say: Say): Promise<Captured<PlacedPassage> | null> {
    if (!this.model) say(t('pdfReadingFirst'));
    const model = await this.text;
    if (!model) return null;
    const a = this.pointAt(range.startContainer, range.startOffset);
    const b = this.pointAt(range.endContainer, range.endOffset);
    const described = a && b ? model.describe(a, b) : null;
    if (!described?.quote.exact) {
      say(t('pdfSelectionNoText'), 'error');
      return null;
    }
    const passage = { quote: described.quote, position: described.position };
    return { passage, anchor: model.place(described.position.start, described.position.end) };
  }

  async describeAnchor(placed: PlacedPassage): Promise<Passage | null> {
    const model = this.model;
    if (!model) return null;
    const { quote, position } = model.describeOffsets(placed.start, placed.end);
    return { quote, position };
  }

  async anchorAll(claims: readonly ClaimRecord[]): Promise<Array<Anchoring<PlacedPassage>> | null> {
    const model = this.model;
    if (!model) return null;
    if (!claims.length) return [];
    const started = performance.now();
    const results = model.anchorAll(claims.map((c) => ({ quote: c.quote, position: c.position ?? null })));
    mark('pdfAnchorMs', performance.now() - started);
    return results.map(({ result, placed }) =>
      result.status === 'anchored' && placed ? { status: 'anchored', anchor: placed, exact: result.exact, text: result.text } : { status: 'orphan' },
    );
  }

  ranges(placed: PlacedPassage): Range[] {
    return placed.segments.flatMap((segment) => this.liveRange(segment) ?? []);
  }

  isLive(): boolean {
    // A passage is placed in the document's text, which does not change: it is painted whenever its page is drawn.
    return true;
  }

  compare(a: PlacedPassage, b: PlacedPassage): number {
    return a.start - b.start;
  }

  async reveal(placed: PlacedPassage): Promise<Range | null> {
    const first = placed.segments[0];
    return first ? this.show(first) : null;
  }

  async textView(): Promise<TextView<PlacedPassage>> {
    const model = await this.text;
    if (!model) throw new Error(t('pdfTextUnreadable'));
    return {
      text: model.text,
      hints: model.finderHints(),
      place: (start, end) => model.place(start, end),
      offsets: (placed) => ({ start: placed.start, end: placed.end }),
    };
  }

  /** The document's title where the text has it, else its first words. */
  async headline(title: string): Promise<PlacedPassage | null> {
    const model = await this.text;
    if (!model) return null;
    const match = title.trim() ? model.find(title.trim(), 1)[0] : undefined;
    const start = match?.start ?? model.text.search(/\S/);
    if (start < 0) return null;
    let end = match?.end ?? Math.min(model.text.length, start + TITLE_CHARS);
    if (!match) {
      const space = model.text.lastIndexOf(' ', end);
      if (space > start + TITLE_CHARS / 4 && end < model.text.length) end = space;
    }
    return model.place(start, end);
  }

  /** A claim on a PDF carries the document's identity and a link that opens the PDF at its page in any reader. */
  stamp(claim: ClaimRecord, passage: Passage, moved: boolean): ClaimRecord {
    const identity = this.identity;
    if (!identity || (claim.pdf && !moved)) return claim;
    const page = passage.position && this.model ? this.model.pageAt(passage.position.start) : 1;
    const pdf: PdfRef = { fingerprint: identity.fingerprint, page, arxiv: identity.arxiv };
    return moved ? { ...claim, pdf } : { ...claim, pdf, link: claim.link ?? pdfPageLink(claim.source.url, page) };
  }

  watch(listener: (change: Stale<PlacedPassage>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: Stale<PlacedPassage>): void {
    for (const listener of this.listeners) listener(change);
  }

  // ── Selections in the text layers → the document's text ──────────────────

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
    // The first run at or after the probe.
    const next = spans[partitionPoint(spans.length, (i) => probe.comparePoint(spans[i]!, 0) < 0)];
    return next ? { page, run: Number(next.dataset.run), offset: 0 } : this.pageEnd(page);
  }

  /** The end of a page's text. */
  private pageEnd(page: number): RunPoint {
    const runs = this.model?.runsOf(page) ?? [];
    let last = runs.length - 1;
    while (last > 0 && !runs[last]!.str) last--;
    return { page, run: Math.max(0, last), offset: runs[last]?.str.length ?? 0 };
  }
}
