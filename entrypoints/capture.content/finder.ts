/**
 * The claim finder on a page: one scan of the page's text index (the one
 * anchoring reads), candidates painted faintly and listed in document order,
 * accepted into the claim form or dismissed for good (through the
 * background). Nothing runs until the curator asks, or the site is opted in.
 */
import { offsetsOfRange, rangeFromOffsets, type TextIndex } from '../../lib/anchoring';
import { candidateValues, offerUndisclosed, reportCandidate, unclaimed, undisclosedValues, type PageFacts } from '../../lib/capture/finder';
import type { ClaimFormValues } from '../../lib/capture/draft';
import { findCandidates, type Candidate } from '../../lib/finder';
import type { FinderReport } from '../../lib/capture/finder';
import { withRetry } from '../../lib/messages';
import { callBackground } from '../shared/messaging';
import type { HighlightPainter } from '../../lib/paint';
import { t } from '../../lib/i18n';
import type { Store } from '../../components/common/store';
import type { CaptureState } from '../../components/capture/state';

/** What the finder needs from the capture session. */
export interface FinderHost {
  readonly store: Store<CaptureState>;
  readonly painter: HighlightPainter;
  /** The page's normalised URL. */
  url(): string;
  /** The page's source kind and models (with the curator's correction). */
  page(): PageFacts;
  /** Resolves once the page's claims are anchored. */
  ready(): Promise<void>;
  /** The text index of the page as it is now (shared with anchoring). */
  textIndex(): Promise<TextIndex>;
  /** Live ranges of the painted claims. */
  claimedRanges(): Range[];
  ensureUi(): Promise<void>;
  /** Opens the claim form on a range with these values (`candidate`: the key accepted). */
  openForm(range: Range, values: (storeModels: string[]) => ClaimFormValues, candidate: string | null): Promise<void>;
  toast(text: string, tone?: 'info' | 'error'): void;
  /** Today's date, YYYY-MM-DD. */
  today(): string;
}

/** A candidate on the page: the finder's result and its live range. */
interface Placed {
  candidate: Candidate;
  range: Range;
}

/** Runs the claim finder on one page and keeps its list. */
export class CandidateFinder {
  private placed: Placed[] = [];
  private seq = 0;

  constructor(private readonly host: FinderHost) {}

  /** Scans the page, paints and lists the candidates, and reports them. */
  async run(): Promise<FinderReport> {
    const seq = ++this.seq;
    const { store } = this.host;
    await this.host.ensureUi();
    store.set((s) => ({ ...s, finder: { status: 'running', items: s.finder?.items ?? [], talksAboutRl: false, suggestUndisclosed: false, error: null } }));
    try {
      await this.host.ready();
      const url = this.host.url();
      const [index, dismissed] = await Promise.all([this.host.textIndex(), withRetry(() => callBackground('dismissals.get', { url }))]);
      const page = this.host.page();
      const found = findCandidates(index.text, { models: [...page.models], dismissed: new Set(dismissed.keys) });
      // A "not disclosed" finding already recorded here is not offered again.
      const result = { ...found, suggestUndisclosed: offerUndisclosed(found.suggestUndisclosed, store.get().claims) };
      const claimed = this.host.claimedRanges().map((r) => offsetsOfRange(r, index));
      const placed: Placed[] = [];
      for (const candidate of unclaimed(result.candidates, claimed)) {
        const range = rangeFromOffsets(index, candidate.start, candidate.end);
        if (range) placed.push({ candidate, range });
      }
      if (seq !== this.seq) return this.report(url, result.talksAboutRl, result.suggestUndisclosed);
      this.placed = placed;
      this.paint();
      store.set((s) => ({
        ...s,
        finder: {
          status: 'done',
          items: placed.map((p) => reportCandidate(p.candidate)),
          talksAboutRl: result.talksAboutRl,
          suggestUndisclosed: result.suggestUndisclosed,
          error: null,
        },
      }));
      return this.report(url, result.talksAboutRl, result.suggestUndisclosed);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (seq === this.seq)
        store.set((s) => ({ ...s, finder: { status: 'error', items: [], talksAboutRl: false, suggestUndisclosed: false, error: message } }));
      throw error;
    }
  }

  private report(url: string, talksAboutRl: boolean, suggestUndisclosed: boolean): FinderReport {
    return { url, candidates: this.placed.map((p) => reportCandidate(p.candidate)), talksAboutRl, suggestUndisclosed };
  }

  /** Opens the claim form prefilled from a candidate; false when it is not (or no longer) on the list. */
  async accept(key: string): Promise<boolean> {
    const found = await this.find(key);
    if (!found) return false;
    const page = this.host.page();
    await this.host.openForm(found.range, (storeModels) => candidateValues(found.candidate, page, storeModels), key);
    return true;
  }

  /** Dismisses a candidate: stored for this page, taken off the list and the page. */
  async dismiss(key: string): Promise<boolean> {
    const found = await this.find(key);
    if (!found) return false;
    try {
      await withRetry(() => callBackground('dismissals.add', { url: this.host.url(), key, sentence: found.candidate.sentence.slice(0, 4000) }));
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

  /** Scrolls to a candidate and marks it while the curator looks. */
  show(key: string): void {
    const found = this.placed.find((p) => p.candidate.key === key);
    if (!found) return;
    const node = found.range.startContainer;
    (node instanceof Element ? node : node.parentElement)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    this.host.painter.markPending(found.range);
  }

  /** Opens the claim form as "not disclosed": the page's main heading (else its first text) as the passage, the page as the source. */
  async recordUndisclosed(): Promise<boolean> {
    await this.host.ready();
    const range = headingRange();
    if (!range) return false;
    const page = this.host.page();
    await this.host.openForm(range, () => undisclosedValues(page, this.host.today()), null);
    return true;
  }

  /** Closes the list and takes the candidates off the page. */
  close(): void {
    this.seq++;
    this.placed = [];
    this.host.painter.paintCandidates([]);
    this.host.painter.markPending(null);
    this.host.store.set((s) => ({ ...s, finder: null }));
  }

  /** The page changed address: what was found belongs to the old one. */
  reset(): void {
    if (this.placed.length || this.host.store.get().finder) this.close();
  }

  /** Paints the candidates again (after the page's claims were painted). */
  paint(): void {
    this.host.painter.paintCandidates(this.placed.filter((p) => p.range.startContainer.isConnected).map((p) => p.range));
  }

  private async find(key: string): Promise<Placed | null> {
    // Asked from the panel before the list was made here (a reload in between): find again first.
    if (!this.placed.length && !this.host.store.get().finder) await this.run();
    return this.placed.find((p) => p.candidate.key === key) ?? null;
  }

  private drop(key: string): void {
    this.placed = this.placed.filter((p) => p.candidate.key !== key);
    this.paint();
    this.host.store.set((s) => (s.finder ? { ...s, finder: { ...s.finder, items: s.finder.items.filter((c) => c.key !== key) } } : s));
  }
}

/** A range over the page's main heading (the first h1, else the first heading, else the first paragraph). */
function headingRange(): Range | null {
  const root = document.body ?? document.documentElement;
  for (const selector of ['h1', 'h1, h2, h3', 'p']) {
    for (const el of root.querySelectorAll(selector)) {
      if (!el.textContent?.trim() || (el as HTMLElement).closest('[hidden], script, style, template')) continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      return range;
    }
  }
  return null;
}
