/**
 * The claim finder in a document, over its surface's whole text: one scan,
 * candidates painted faintly where the document is drawn and listed in
 * document order, accepted into the claim form or dismissed for good
 * (through the background). Nothing runs until the curator asks, or the site
 * is opted in. The same for a page and a PDF.
 */
import { candidateValues, type FinderReport, offerUndisclosed, type PageFacts, reportCandidate, unclaimed, undisclosedValues } from '../../lib/capture/finder';
import type { ClaimFormValues, Passage } from '../../lib/capture/draft';
import { type Candidate, findCandidates } from '../../lib/finder';
import { t } from '../../lib/i18n';
import { type Caller, withRetry } from '../../lib/messages';
import type { Store } from '../common/store';
import type { CaptureState } from './state';
import type { DocumentSurface } from './surface';

/** What the finder needs from the capture controller. */
export interface FinderHost<A> {
  readonly store: Store<CaptureState>;
  readonly surface: DocumentSurface<A>;
  /** Paints the candidates faintly, and marks the one shown. */
  paintCandidates(ranges: readonly Range[]): void;
  markPending(range: Range | null): void;
  /** Resolves once the document's claims are loaded and anchored. */
  ready(): Promise<void>;
  /** The document's source kind (with the curator's correction) and the models it names. */
  facts(): PageFacts;
  /** The document's title as the curator sees it (with the correction). */
  title(): string;
  /** The anchors of the document's claims (their passages are not offered again). */
  claimed(): A[];
  ensureUi(): Promise<void>;
  /** Opens the claim form on a passage with these values (`candidate`: the key accepted). */
  openForm(range: Range, given: { passage: Passage; anchor: A; values: (storeModels: string[]) => ClaimFormValues; candidate: string | null }): Promise<void>;
  /** Reads and remembers the candidates the curator dismissed on a document (by its address). */
  call: Caller<'dismissals.get' | 'dismissals.add'>;
  toast(text: string, tone?: 'info' | 'error'): void;
  /** Today's date, YYYY-MM-DD. */
  today(): string;
}

/** A candidate in the document: the finder's result and its anchor. */
interface Placed<A> {
  candidate: Candidate;
  anchor: A;
}

/** Runs the claim finder on one document and keeps its list. */
export class CandidateFinder<A> {
  private placed: Array<Placed<A>> = [];
  private seq = 0;

  constructor(private readonly host: FinderHost<A>) {}

  /** Scans the document, paints and lists the candidates, and reports them. */
  async run(): Promise<FinderReport> {
    const seq = ++this.seq;
    const { store, surface } = this.host;
    await this.host.ensureUi();
    store.set((s) => ({ ...s, finder: { status: 'running', items: s.finder?.items ?? [], talksAboutRl: false, suggestUndisclosed: false, error: null } }));
    try {
      await this.host.ready();
      const view = await surface.textView();
      const url = surface.key()?.url ?? null;
      const dismissed = url ? (await withRetry(() => this.host.call('dismissals.get', { url }))).keys : [];
      const found = findCandidates(view.text, { ...view.hints, models: [...this.host.facts().models], dismissed: new Set(dismissed) });
      // A "not disclosed" finding already recorded here is not offered again.
      const result = { ...found, suggestUndisclosed: offerUndisclosed(found.suggestUndisclosed, store.get().claims) };
      const claimed = this.host.claimed().flatMap((anchor) => view.offsets(anchor) ?? []);
      const placed: Array<Placed<A>> = [];
      for (const candidate of unclaimed(result.candidates, claimed)) {
        const anchor = view.place(candidate.start, candidate.end);
        if (anchor) placed.push({ candidate, anchor });
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
      return report();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (seq === this.seq)
        store.set((s) => ({ ...s, finder: { status: 'error', items: [], talksAboutRl: false, suggestUndisclosed: false, error: message } }));
      throw error;
    }
  }

  /** Opens the claim form prefilled from a candidate (its passage brought into view); false when it is not (or no longer) on the list. */
  async accept(key: string): Promise<boolean> {
    const found = await this.find(key);
    if (!found) return false;
    const facts = this.host.facts();
    return this.openOn(found.anchor, (storeModels) => candidateValues(found.candidate, facts, storeModels), key);
  }

  /** Dismisses a candidate: stored for this document, taken off the list and the page. */
  async dismiss(key: string): Promise<boolean> {
    const found = await this.find(key);
    if (!found) return false;
    const url = this.host.surface.key()?.url;
    if (!url) {
      const why = this.host.surface.unaddressed();
      if (why) this.host.toast(why, 'error');
      return false;
    }
    try {
      await withRetry(() => this.host.call('dismissals.add', { url, key, sentence: found.candidate.sentence.slice(0, 4000) }));
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
  async show(key: string): Promise<void> {
    const found = this.placed.find((p) => p.candidate.key === key);
    if (!found) return;
    this.host.markPending(await this.host.surface.reveal(found.anchor));
  }

  /** Opens the claim form as "not disclosed": the document's headline as the passage, the document as the source. */
  async recordUndisclosed(): Promise<boolean> {
    await this.host.ready();
    const anchor = await this.host.surface.headline(this.host.title());
    if (anchor === null) return false;
    const facts = this.host.facts();
    return this.openOn(anchor, () => undisclosedValues(facts, this.host.today()), null);
  }

  /** Closes the list and takes the candidates off the document. */
  close(): void {
    this.seq++;
    this.placed = [];
    this.host.paintCandidates([]);
    this.host.markPending(null);
    this.host.store.set((s) => ({ ...s, finder: null }));
  }

  /** The document changed address: what was found belongs to the old one. */
  reset(): void {
    if (this.placed.length || this.host.store.get().finder) this.close();
  }

  /** Paints the candidates again; with `touches`, only when a candidate is where the document was drawn again. */
  paint(touches?: (anchor: A) => boolean): void {
    if (touches && !this.placed.some((p) => touches(p.anchor))) return;
    this.host.paintCandidates(this.placed.flatMap((p) => this.host.surface.ranges(p.anchor)));
  }

  /** Brings an anchor into view and opens the form on its passage. */
  private async openOn(anchor: A, values: (storeModels: string[]) => ClaimFormValues, candidate: string | null): Promise<boolean> {
    const range = await this.host.surface.reveal(anchor);
    const passage = range && (await this.host.surface.describeAnchor(anchor));
    if (!range || !passage) return false;
    await this.host.openForm(range, { passage, anchor, values, candidate });
    return true;
  }

  private async find(key: string): Promise<Placed<A> | null> {
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
