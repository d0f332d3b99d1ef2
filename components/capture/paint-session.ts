/**
 * The painting alone, for a page with claims that the curator only reads:
 * anchor the claims the page script looked up, paint them, set the badge,
 * anchor again when the page or its claims change. No UI, no schema library:
 * the capture script (toolbar, form, cards) is loaded only when the curator
 * interacts, and takes this session's anchors and painter over, so nothing is
 * anchored twice.
 */
import type { Calls } from '../../lib/messages/caller';
import type { HighlightPainter } from '../../lib/paint/painter';
import type { ClaimRecord, SourceCorrection } from '../../lib/schema';
import { type Anchored, anchorPass, type ChangedText, orphanIds, paintList } from './anchor-pass';
import type { DocumentSurface, Painter } from './surface';

/** The background calls the painting needs: the document's claims, and how they anchored (the toolbar badge). */
export type PaintApi = Calls<'document.claims' | 'document.status'>;

/** What a paint session hands the capture controller: the claims it showed and how they anchored. */
export interface PaintedState<A> {
  /** The address the claims were looked up for. */
  url: string;
  claims: ClaimRecord[];
  source: SourceCorrection | null;
  anchors: Map<string, Anchored<A>>;
  changed: ChangedText;
  /** Whether every claim was anchored at least once (orphans are known). */
  settled: boolean;
  /** The anchored count last reported for the badge. */
  reported: number;
}

/** The claims looked up for one address. */
export interface Lookup {
  url: string;
  claims: ClaimRecord[];
  source: SourceCorrection | null;
}

/** Anchors and paints a document's claims until the capture controller takes over. */
export class PaintSession<A> {
  private claims: ClaimRecord[] = [];
  private source: SourceCorrection | null = null;
  private url: string | null = null;
  private readonly anchors = new Map<string, Anchored<A>>();
  private changed: ChangedText = {};
  private settled = false;
  private reported = -1;
  private reportedOrphans = -1;
  private run: AbortController | null = null;
  private staleDuringRun = false;
  private stopWatching: (() => void) | null = null;
  private seq = 0;
  /** Resolves when the latest showing (anchored and painted) is done. */
  showing: Promise<void> = Promise.resolve();

  constructor(
    private readonly surface: DocumentSurface<A>,
    private readonly painter: Painter & Partial<Pick<HighlightPainter, 'paintInBatches'>>,
    private readonly api: PaintApi,
    /** After every pass that anchored (tests, benchmark marks). */
    private readonly onPainted?: (painted: number, orphans: number) => void,
  ) {}

  /** Shows `lookup`'s claims: anchors, paints, reports; watches the page for changes from then on. */
  show(lookup: Lookup): Promise<void> {
    this.seq++;
    if (lookup.url !== this.url) {
      this.anchors.clear();
      this.changed = {};
      this.settled = false;
    }
    this.url = lookup.url;
    this.claims = lookup.claims;
    this.source = lookup.source;
    this.stopWatching ??= this.surface.watch((change) => {
      if (change.kind === 'layout') void this.paint();
      else if (this.run) this.staleDuringRun = true;
      else this.showing = this.anchorAndPaint();
    });
    this.showing = this.anchorAndPaint();
    return this.showing;
  }

  /** The claims of the current address changed in the store: looks them up again and shows them. */
  async reload(): Promise<void> {
    const key = this.surface.key();
    if (!key) return;
    const seq = ++this.seq;
    const reply = await this.api.call('document.claims', key);
    if (seq !== this.seq) return;
    this.surface.adoptAddress?.(reply.url, reply.site);
    await this.show({ url: reply.url ?? key.url ?? '', claims: reply.claims, source: reply.source });
  }

  /** Whether a claim of this page is painted under the viewport point (x, y). */
  hits(x: number, y: number): boolean {
    return this.painter.hitTest(x, y).length > 0;
  }

  /** Stops watching and anchoring, and hands what was shown to the capture controller (which keeps the painter). */
  handOver(): PaintedState<A> | null {
    this.stop();
    if (this.url === null) return null;
    return {
      url: this.url,
      claims: this.claims,
      source: this.source,
      anchors: this.anchors,
      changed: this.changed,
      settled: this.settled,
      reported: this.reported,
    };
  }

  /** Stops watching and anchoring (the painted highlights stay: `clear` removes them). */
  stop(): void {
    this.run?.abort();
    this.run = null;
    this.stopWatching?.();
    this.stopWatching = null;
  }

  /** Stops and removes every highlight (the extension went away under the page). */
  clear(): void {
    this.stop();
    try {
      this.painter.clear();
    } catch {
      // the page may have replaced CSS.highlights; nothing to clean then
    }
  }

  private async anchorAndPaint(): Promise<void> {
    this.run?.abort();
    const run = new AbortController();
    this.run = run;
    this.staleDuringRun = false;
    let changed: ChangedText | null;
    try {
      changed = await anchorPass(this.surface, this.claims, this.anchors, this.changed, run.signal);
    } catch (error) {
      if (run.signal.aborted) return;
      throw error;
    }
    if (run.signal.aborted) return;
    this.run = null;
    if (!changed) return;
    this.changed = changed;
    this.settled = true;
    await this.paint();
    if (this.staleDuringRun) {
      this.staleDuringRun = false;
      await this.anchorAndPaint();
    }
  }

  /** Paints the anchored claims (new ranges in one frame, up to `PAINT_BATCH`), then reports. */
  private async paint(): Promise<void> {
    const painted = paintList(this.surface, this.claims, this.anchors);
    if (this.painter.paintInBatches) {
      // A newer paint took over: it reports.
      if (!(await this.painter.paintInBatches(painted))) return;
    } else this.painter.paint(painted);
    if (!this.settled) return;
    const orphans = orphanIds(this.claims, this.anchors).length;
    const anchored = this.claims.length - orphans;
    this.onPainted?.(new Set(painted.map((p) => p.id)).size, orphans);
    if (anchored === this.reported && orphans === this.reportedOrphans) return;
    this.reported = anchored;
    this.reportedOrphans = orphans;
    void this.api.call('document.status', { anchored, orphans }).catch(() => undefined);
  }
}
