/**
 * Anchoring many passages of one page together, in small steps (so the
 * chunked API can yield between them and get the same results as the plain
 * one): the cheap exact pass for every passage first; then the approximate
 * pass for the rest, which knows from the placed neighbours how far the text
 * around each passage moved; then, once confidently placed edited passages
 * have become landmarks too, the approximate pass again for the orphans whose
 * neighbours changed (a run of edited sentences is placed from the inside
 * out rather than from a far-away unchanged one).
 */
import {
  anchorAtPosition,
  anchorExactPass,
  anchorFuzzyPass,
  prepareSelectors,
  type AnchorResult,
  type AnchorSelectors,
  type PreparedSelectors,
} from './anchor';
import { DEFAULT_THRESHOLDS, type Thresholds } from './confidence';
import { Landmarks, type Neighbour } from './landmarks';
import { builtQGramIndexOf, QGRAM_MIN_PASSAGES, wantsQGramIndex } from './qgram';
import { buildTextIndex, type TextIndex } from './text-index';

/** A passage left to the approximate pass. */
interface Pending {
  i: number;
  prepared: PreparedSelectors;
  /** The neighbours it was last placed with, to tell whether another try can change anything. */
  seen?: string;
}

/** The neighbours' estimates as a comparable string. */
function signature(neighbours: readonly Neighbour[]): string {
  return neighbours.map((n) => `${n.shift}@${n.gap}`).join(',');
}

/** The work of anchoring a list of passages against one text index, done a step (one passage) at a time. */
export class AnchorBatch {
  /** One result per input passage, in input order (filled in as steps run). */
  readonly results: AnchorResult[];
  private readonly marks = new Landmarks();
  private readonly later: Pending[] = [];
  private retry: Pending[] = [];
  private phase: 'exact' | 'approximate' | 'again' | 'done' = 'exact';
  private cursor = 0;
  private settledCount = 0;
  /** A passage whose exact search waits for the q-gram index (see `needsQGramIndex`). */
  private held: { i: number; prepared: PreparedSelectors } | null = null;
  /** Whether the exact pass scans the text rather than build the q-gram index (too few passages to pay for it). */
  private readonly scanExact: boolean;

  /** `thresholds`: the confidence model's (the calibrated ones by default; the calibration script varies them). */
  constructor(
    private readonly index: TextIndex,
    private readonly list: readonly AnchorSelectors[],
    private readonly thresholds: Thresholds = DEFAULT_THRESHOLDS,
  ) {
    this.results = new Array(list.length);
    this.scanExact = list.length < QGRAM_MIN_PASSAGES;
    if (list.length === 0) this.phase = 'done';
  }

  /**
   * Whether the next step would build the page's q-gram index in one go: a caller working in slices builds it first
   * (`qgramIndexOf(index, index.folded).step()`), so that no step is long.
   */
  get needsQGramIndex(): boolean {
    if (this.phase === 'exact') return this.held !== null && this.searchBuildsIndex();
    return this.phase !== 'done' && this.qgramsWanted();
  }

  /** Passages with a result so far (a second try does not count again). */
  get settled(): number {
    return this.settledCount;
  }

  /** Does one step of the work; returns false once every passage has its final result. */
  step(): boolean {
    if (this.phase === 'exact') this.exactStep();
    else if (this.phase === 'approximate') this.approximateStep();
    else if (this.phase === 'again') this.againStep();
    return this.phase !== 'done';
  }

  private exactStep(): void {
    let job = this.held;
    this.held = null;
    if (!job) {
      const i = this.cursor++;
      const prepared = prepareSelectors(this.index, this.list[i] as AnchorSelectors);
      if ('status' in prepared) {
        this.results[i] = prepared;
        this.settledCount++;
      } else {
        const placed = anchorAtPosition(this.index, prepared);
        if (placed) this.settleExact(i, prepared, placed);
        // The search would build the q-gram index in one go: held for the next step, so a caller in slices builds it first.
        else if (this.searchBuildsIndex()) {
          this.held = { i, prepared };
          return;
        } else job = { i, prepared };
      }
    }
    if (job) this.settleExact(job.i, job.prepared, anchorExactPass(this.index, job.prepared, this.scanExact));
    if (this.cursor >= this.list.length) this.next('approximate');
  }

  /** Files the exact pass's result for passage `i`: settled (and a landmark), or left to the approximate pass. */
  private settleExact(i: number, prepared: PreparedSelectors, exact: AnchorResult | null): void {
    if (exact) {
      this.results[i] = exact;
      this.marks.add(prepared, exact);
      this.settledCount++;
    } else this.later.push({ i, prepared });
  }

  /** Whether the exact pass's search would build the page's q-gram index now. */
  private searchBuildsIndex(): boolean {
    return !this.scanExact && this.qgramsWanted();
  }

  /** Whether the page is large enough for a q-gram index and it is not built yet. */
  private qgramsWanted(): boolean {
    return wantsQGramIndex(this.index.text.length) && !builtQGramIndexOf(this.index);
  }

  private approximateStep(): void {
    const p = this.later[this.cursor++] as Pending;
    this.place(p);
    this.settledCount++;
    if (this.cursor < this.later.length) return;
    // Confident approximate results become landmarks only now, so no result depends on the order of the list.
    for (const q of this.later) this.marks.add(q.prepared, this.results[q.i] as AnchorResult);
    this.retry = this.later.filter((q) => this.results[q.i]?.status === 'orphan' && q.prepared.hint !== null);
    this.next('again');
  }

  private againStep(): void {
    const p = this.retry[this.cursor++] as Pending;
    const before = p.seen;
    this.marks.correct(p.prepared);
    if (signature(p.prepared.neighbours) !== before) this.place(p);
    if (this.cursor >= this.retry.length) this.next('done');
  }

  /** Runs the approximate pass for a pending passage with its current neighbours. */
  private place(p: Pending): void {
    this.marks.correct(p.prepared);
    p.seen = signature(p.prepared.neighbours);
    this.results[p.i] = anchorFuzzyPass(this.index, p.prepared, this.thresholds);
  }

  /** Moves to the next phase, skipping empty ones. */
  private next(phase: 'approximate' | 'again' | 'done'): void {
    this.cursor = 0;
    this.phase = phase;
    if (phase === 'approximate' && this.later.length === 0) this.phase = 'done';
    if (phase === 'again' && this.retry.length === 0) this.phase = 'done';
  }
}

/**
 * Anchors many passages against one root, building the text index once;
 * results keep the input order. Every passage first gets the cheap exact
 * pass; only those it cannot settle pay for the approximate search, which
 * then also knows how far the text moved around each of them (from the
 * settled neighbours).
 */
export function anchorAll(root: Document | Element, list: readonly AnchorSelectors[], index?: TextIndex, thresholds?: Thresholds): AnchorResult[] {
  const batch = new AnchorBatch(index ?? buildTextIndex(root), list, thresholds);
  while (batch.step());
  return batch.results;
}
