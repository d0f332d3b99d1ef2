/**
 * The claim finder in the PDF viewer: one scan of the document's whole text
 * (the text model anchoring reads), candidates painted faintly on the pages
 * whose text layers are drawn and listed in document order, accepted into the
 * claim form or dismissed for good (stored under the PDF's address).
 */
import { candidateValues, offerUndisclosed, reportCandidate, unclaimed, undisclosedValues, type PageFacts } from '../../lib/capture/finder';
import type { ClaimFormValues, Passage } from '../../lib/capture/draft';
import { findCandidates, type Candidate } from '../../lib/finder';
import { t } from '../../lib/i18n';
import type { FinderReport } from '../../lib/capture/finder';
import type { HighlightPainter } from '../../lib/paint';
import type { PageSegment, PdfTextModel, PlacedPassage } from '../../lib/pdf';
import type { Store } from '../common/store';
import type { CaptureState } from '../capture/state';

/** What the finder needs from the viewer's session. */
export interface PdfFinderHost {
  readonly capture: Store<CaptureState>;
  readonly painter: HighlightPainter;
  /** The document's text model, once the whole document has been read (null: unreadable). */
  model(): Promise<PdfTextModel | null>;
  /** Resolves once the document's claims are anchored. */
  ready(): Promise<void>;
  /** The PDF's web address (null for a local file without one). */
  url(): string | null;
  page(): PageFacts;
  /** Where the document's claims are placed. */
  claimed(): PlacedPassage[];
  liveRange(segment: PageSegment): Range | null;
  /** Brings a segment into view (its page drawn) and returns its live range. */
  show(segment: PageSegment): Promise<Range | null>;
  ensureUi(): Promise<void>;
  openForm(range: Range, passage: Passage & { page: number }, values: (storeModels: string[]) => ClaimFormValues, candidate: string | null): Promise<void>;
  dismissed(url: string): Promise<string[]>;
  dismiss(url: string, key: string, sentence: string): Promise<void>;
  toast(text: string, tone?: 'info' | 'error'): void;
  today(): string;
  /** The document's title as detected (or corrected). */
  title(): string;
}

/** Characters of the first page taken as the passage of a "not disclosed" record when the title is not found in the text. */
const TITLE_CHARS = 120;

interface Placed {
  candidate: Candidate;
  where: PlacedPassage;
}

/** Runs the claim finder on the open PDF and keeps its list. */
export class PdfCandidateFinder {
  private placed: Placed[] = [];
  private seq = 0;

  constructor(private readonly host: PdfFinderHost) {}

  /** Scans the document, paints and lists the candidates, and reports them. */
  async run(): Promise<FinderReport> {
    const seq = ++this.seq;
    const { capture } = this.host;
    await this.host.ensureUi();
    capture.set((s) => ({ ...s, finder: { status: 'running', items: s.finder?.items ?? [], talksAboutRl: false, suggestUndisclosed: false, error: null } }));
    try {
      await this.host.ready();
      const model = await this.host.model();
      if (!model) throw new Error(t('pdfTextUnreadable'));
      const url = this.host.url();
      const dismissed = url ? await this.host.dismissed(url) : [];
      const found = findCandidates(model.text, { ...model.finderHints(), models: [...this.host.page().models], dismissed: new Set(dismissed) });
      // A "not disclosed" finding already recorded here is not offered again.
      const result = { ...found, suggestUndisclosed: offerUndisclosed(found.suggestUndisclosed, capture.get().claims) };
      const placed: Placed[] = [];
      for (const candidate of unclaimed(result.candidates, this.host.claimed())) {
        const where = model.place(candidate.start, candidate.end);
        if (where) placed.push({ candidate, where });
      }
      const report = (): FinderReport => ({
        url: url ?? '',
        candidates: this.placed.map((p) => reportCandidate(p.candidate)),
        talksAboutRl: result.talksAboutRl,
        suggestUndisclosed: result.suggestUndisclosed,
      });
      if (seq !== this.seq) return report();
      this.placed = placed;
      this.paint();
      capture.set((s) => ({
        ...s,
        finder: {
          status: 'done',
          items: placed.map((p) => reportCandidate(p.candidate)),
          talksAboutRl: result.talksAboutRl,
          suggestUndisclosed: result.suggestUndisclosed,
          error: null,
        },
      }));
      return report();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (seq === this.seq)
        capture.set((s) => ({ ...s, finder: { status: 'error', items: [], talksAboutRl: false, suggestUndisclosed: false, error: message } }));
      throw error;
    }
  }

  /** Opens the claim form prefilled from a candidate (its page brought into view); false when it is not on the list. */
  async accept(key: string): Promise<boolean> {
    const found = await this.find(key);
    const model = await this.host.model();
    if (!found || !model) return false;
    const range = await this.host.show(found.where.segments[0]!);
    if (!range) return false;
    const described = model.describeOffsets(found.candidate.start, found.candidate.end);
    const page = this.host.page();
    await this.host.openForm(range, described, (storeModels) => candidateValues(found.candidate, page, storeModels), key);
    return true;
  }

  /** Dismisses a candidate: stored under the PDF's address, taken off the list and the pages. */
  async dismiss(key: string): Promise<boolean> {
    const found = await this.find(key);
    if (!found) return false;
    const url = this.host.url();
    if (!url) {
      this.host.toast(t('pdfLocalNeedsAddress'), 'error');
      return false;
    }
    try {
      await this.host.dismiss(url, key, found.candidate.sentence.slice(0, 4000));
    } catch (error) {
      this.host.toast(t('finderError', error instanceof Error ? error.message : String(error)), 'error');
      return false;
    }
    this.drop(key);
    this.host.toast(t('finderDismissed'));
    return true;
  }

  /** A candidate was saved as a claim: it leaves the list. */
  accepted(key: string): void {
    this.drop(key);
  }

  /** Scrolls to a candidate and marks it. */
  async show(key: string): Promise<void> {
    const found = this.placed.find((p) => p.candidate.key === key);
    if (!found) return;
    const range = await this.host.show(found.where.segments[0]!);
    this.host.painter.markPending(range);
  }

  /** Opens the claim form as "not disclosed": the document's title (else its first words) as the passage, the PDF as the source. */
  async recordUndisclosed(): Promise<boolean> {
    await this.host.ready();
    const model = await this.host.model();
    if (!model) return false;
    const title = this.host.title().trim();
    const match = title ? model.find(title, 1)[0] : undefined;
    const start = match?.start ?? model.text.search(/\S/);
    let end = match?.end ?? Math.min(model.text.length, start + TITLE_CHARS);
    if (start < 0) return false;
    if (!match) {
      const space = model.text.lastIndexOf(' ', end);
      if (space > start + TITLE_CHARS / 4 && end < model.text.length) end = space;
    }
    const where = model.place(start, end);
    if (!where) return false;
    const range = await this.host.show(where.segments[0]!);
    if (!range) return false;
    const page = this.host.page();
    await this.host.openForm(range, model.describeOffsets(start, end), () => undisclosedValues(page, this.host.today()), null);
    return true;
  }

  /** Closes the list and takes the candidates off the pages. */
  close(): void {
    this.seq++;
    this.placed = [];
    this.host.painter.paintCandidates([]);
    this.host.painter.markPending(null);
    this.host.capture.set((s) => ({ ...s, finder: null }));
  }

  /** Whether a page holds a candidate (its text layer appearing changes what is painted). */
  holds(page: number): boolean {
    return this.placed.some((p) => p.where.segments.some((s) => s.page === page));
  }

  /** Paints the candidates on the pages whose text layers are drawn. */
  paint(): void {
    const ranges: Range[] = [];
    for (const p of this.placed) {
      for (const segment of p.where.segments) {
        const range = this.host.liveRange(segment);
        if (range) ranges.push(range);
      }
    }
    this.host.painter.paintCandidates(ranges);
  }

  private async find(key: string): Promise<Placed | null> {
    if (!this.placed.length && !this.host.capture.get().finder) await this.run();
    return this.placed.find((p) => p.candidate.key === key) ?? null;
  }

  private drop(key: string): void {
    this.placed = this.placed.filter((p) => p.candidate.key !== key);
    this.paint();
    this.host.capture.set((s) => (s.finder ? { ...s, finder: { ...s.finder, items: s.finder.items.filter((c) => c.key !== key) } } : s));
  }
}
