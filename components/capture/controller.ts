/**
 * The capture flow, once, for every document: selection → toolbar → claim
 * form → save (retried with the same ids) → card → delete and undo → toasts
 * → re-attaching orphans and confirming drifted text → repainting → the
 * toolbar badge → the panel's page report, and the claim finder's list. It
 * works over a document surface (a page, a PDF) and a capture API (the
 * background) passed in, so it never knows which kind of document it is in
 * and never touches the database.
 */
import { buildClaims, type ClaimFormValues, type Passage, type SourceFields, sourceFromFields, valuesFromClaim } from '../../lib/capture/draft';
import type { PageFacts } from '../../lib/capture/finder';
import { mintClaimId } from '../../lib/capture/ids';
import type { PageReport } from '../../lib/capture/page-report';
import { prefillValues } from '../../lib/capture/prefill';
import { panelPosition, selectedRange, toolbarPosition } from '../../lib/capture/selection';
import { plural, t } from '../../lib/i18n';
import { type DocumentCall, type DocumentClaims, type Handlers, isContextInvalidated, withRetry } from '../../lib/messages';
import { HighlightPainter } from '../../lib/paint';
import type { ClaimRecord, Evidence, SourceCorrection } from '../../lib/schema';
import { nowTimestamp, today } from '../../lib/time';
import { createStore, type Store } from '../common/store';
import { type Anchored, anchorPass, isCurrent, orphanIds, paintList } from './anchor-pass';
import type { PaintedState } from './paint-session';
import { CandidateFinder } from './finder';
import { HoverCards } from './hover';
import { type MountUi, mountInShadowRoot, type UiHost } from './mount';
import { Notices } from './notices';
import { type CaptureActions, type CaptureState, type FormSession, initialCaptureState } from './state';
import type { CaptureApi, Captured, DocumentFacts, DocumentSurface, Painter, Stale } from './surface';

const FORM_SIZE = { width: 380, height: 600 };
/** A save attempt unanswered this long is retried (same ids): the worker may have been stopped under it. */
const SAVE_ATTEMPT_MS = 10_000;
/** Change notices arriving together are answered with one reload. */
const CHANGE_DEBOUNCE_MS = 150;

/** What a repaint drew: for the viewer's marks (tests, benchmark). `settled`: the claims were anchored at least once. */
export interface PaintSummary {
  painted: number;
  anchored: number;
  orphans: number;
  settled: boolean;
}

/** What the controller is given. */
export interface CaptureOptions<A> {
  surface: DocumentSurface<A>;
  api: CaptureApi;
  /** Puts the capture UI into the document (default: an open shadow root at the end of `<body>`). */
  mountUi?: MountUi;
  painter?: Painter;
  /** Timers (a content script's end with it). */
  setTimeout?: (callback: () => void, ms: number) => number;
  /** Whether this script may still talk to the extension (false once the extension was reloaded under the page). */
  alive?: () => boolean;
  /** Keys the capture UI does not take, for the host's own shortcuts (the PDF viewer's find, zoom and pages). */
  onKey?: (event: KeyboardEvent) => void;
  /** After every repaint. */
  onPaint?: (summary: PaintSummary) => void;
  /** After every anchoring pass. */
  onAnchored?: () => void;
}

/** The capture flow over one document. */
export class CaptureController<A> {
  /** Everything the capture UI shows. */
  readonly store: Store<CaptureState> = createStore(initialCaptureState);
  private readonly surface: DocumentSurface<A>;
  private readonly api: CaptureApi;
  private readonly painter: Painter;
  private readonly mountUi: MountUi;
  private readonly later: (callback: () => void, ms: number) => number;
  private readonly alive: () => boolean;
  private readonly events = new AbortController();
  private readonly stops: Array<() => void> = [];
  private anchors = new Map<string, Anchored<A>>();
  private correction: SourceCorrection | null = null;
  /** The lookup the page script already made, used instead of asking again (once). */
  private lookup: (DocumentClaims & { url: string }) | null = null;
  /** The address whose claims are shown (or being asked for): an in-page navigation away from it starts again. */
  private shownFor: string | null = null;
  private loadSeq = 0;
  private loaded = false;
  /** Whether the claims were anchored at least once (orphans are known, the badge is right). */
  private anchoredOnce = false;
  /** The run of anchoring in progress; a newer run aborts it. */
  private anchoring: AbortController | null = null;
  private staleDuringRun = false;
  private pendingReveal: string | null = null;
  private autoFoundFor: string | null = null;
  private lastReported = -1;
  private ui: UiHost | null = null;
  private uiReady: Promise<void> | null = null;
  private lastRange: Range | null = null;
  /** The open form's anchor, and the ids minted for its claims (reused by every save of that form). */
  private formAnchor: A | null = null;
  private formIds: string[] = [];
  private changeTimer: number | undefined;
  private readonly notices: Notices;
  private readonly cards: HoverCards;

  /** Resolves once the latest load (claims asked for, anchored and painted) is done. */
  loading: Promise<void> = Promise.resolve();

  /** The claim finder over the document's text (runs only when asked, or on an opted-in site). */
  private readonly finder: CandidateFinder<A>;

  constructor(private readonly options: CaptureOptions<A>) {
    this.surface = options.surface;
    this.api = options.api;
    this.painter = options.painter ?? new HighlightPainter();
    this.mountUi = options.mountUi ?? mountInShadowRoot();
    this.later = options.setTimeout ?? ((callback, ms) => window.setTimeout(callback, ms));
    this.alive = options.alive ?? (() => true);
    this.notices = new Notices(this.store, () => this.ensureUi(), this.later);
    this.cards = new HoverCards({
      store: this.store,
      painter: this.painter,
      ensureUi: () => this.ensureUi(),
      later: this.later,
      isOurs: (event) => this.isOurs(event),
      anything: () => this.anchors.size > 0,
    });
    this.finder = new CandidateFinder<A>({
      store: this.store,
      surface: this.surface,
      paintCandidates: (ranges) => this.painter.paintCandidates(ranges),
      markPending: (range) => this.painter.markPending(range),
      ready: () => this.loading,
      facts: () => this.pageFacts(),
      title: () => this.sourceFields(this.surface.facts()).title,
      claimed: () => [...this.anchors.values()].map((a) => a.anchor),
      ensureUi: () => this.ensureUi(),
      openForm: (range, given) => this.openFormFor(range, given),
      call: this.api.call,
      toast: (text, tone) => this.toast(text, tone),
      today: () => today(),
    });
  }

  /** The background's calls to this document. */
  readonly answers: Handlers<DocumentCall> = {
    'form.open': () => ({ opened: this.openForm() }),
    'claims.changed': async ({ url }) => {
      if (!this.concerns(url)) return { reloaded: false };
      await this.load();
      return { reloaded: true };
    },
    'passage.reveal': async ({ id }) => ({ found: await this.reveal(id) }),
    'page.report': async () => {
      await this.loading;
      return this.pageReport();
    },
    'passage.reattach': async ({ id }) => {
      await this.loading;
      if (!this.store.get().claims.some((c) => c.id === id)) return { started: false };
      this.startReattach(id);
      return { started: true };
    },
    'passage.confirm': async ({ id }) => ({ confirmed: await this.confirmText(id) }),
    'finder.run': () => this.finder.run(),
    'finder.accept': async ({ key }) => ({ opened: await this.finder.accept(key) }),
    'finder.dismiss': async ({ key }) => ({ dismissed: await this.finder.dismiss(key) }),
    'finder.undisclosed': async () => ({ opened: await this.finder.recordUndisclosed() }),
  };

  /**
   * Starts listening to the document and loads its claims (with `lookup`, the answer the page script already
   * has). A document not known yet (a PDF still opening) loads once its host calls `load()`.
   */
  start(lookup: (DocumentClaims & { url: string }) | null = null, painted: PaintedState<A> | null = null): void {
    this.lookup = lookup;
    // Only the curator's own input counts: an event a page's script made (isTrusted false) is ignored.
    const on = (target: EventTarget, type: string, handler: (event: never) => void, options: AddEventListenerOptions = {}) =>
      target.addEventListener(type, ((event: Event) => event.isTrusted && handler(event as never)) as EventListener, {
        ...options,
        signal: this.events.signal,
      });
    on(document, 'pointerup', (e: PointerEvent) => this.onPointerUp(e));
    on(document, 'keyup', (e: KeyboardEvent) => this.onKeyUp(e));
    on(document, 'keydown', (e: KeyboardEvent) => this.onKeyDown(e), { capture: true });
    on(document, 'selectionchange', () => this.onSelectionChange());
    on(document, 'pointermove', (e: PointerEvent) => this.cards.onPointerMove(e), { passive: true });
    on(document, 'click', (e: MouseEvent) => this.cards.onClick(e));
    this.stops.push(this.surface.watch((change) => this.onStale(change)));
    if (this.api.onChange) {
      this.stops.push(
        this.api.onChange((url) => {
          if (!this.concerns(url)) return;
          clearTimeout(this.changeTimer);
          this.changeTimer = this.later(() => void this.load(), CHANGE_DEBOUNCE_MS);
        }),
      );
    }
    // Loaded for a selection still being made: the UI starts loading now, so the toolbar is ready when it ends.
    if (document.getSelection()?.isCollapsed === false) void this.ensureUi().catch(() => undefined);
    if (painted && painted.url === this.surface.key()?.url) this.adopt(painted);
    else if (this.surface.key()) void this.load();
  }

  /** Takes over what the painting script showed: its claims and anchors, repainted by difference, anchoring only what it could not. */
  private adopt(painted: PaintedState<A>): void {
    // What the painting showed is newer than the page script's lookup: a later load asks the background again.
    this.lookup = null;
    this.shownFor = painted.url;
    this.correction = painted.source;
    this.loaded = true;
    this.anchors = painted.anchors;
    this.lastReported = painted.reported;
    const orphans = painted.settled ? orphanIds(painted.claims, painted.anchors) : [];
    this.store.set((s) => ({ ...s, claims: painted.claims, changed: painted.changed, orphans }));
    this.anchoredOnce = painted.settled;
    // Orphans stay orphans until the document changes; an anchor that went away since is looked for again.
    if (painted.settled && painted.claims.every((c) => !this.anchors.has(c.id) || this.current(c))) this.repaint();
    else this.loading = this.anchorAndPaint();
  }

  /** The pointer rested on (`move`) or clicked (`click`) at (x, y) before this controller listened: as if it had heard it. */
  pointer(kind: 'move' | 'click', x: number, y: number): void {
    if (kind === 'move') this.cards.onPointerMove(new PointerEvent('pointermove', { clientX: x, clientY: y }));
    else this.cards.onClick(new MouseEvent('click', { clientX: x, clientY: y }));
  }

  /** Stops everything: listeners, anchoring, painting, the UI (the document is going away, or the extension under it). */
  destroy(): void {
    this.events.abort();
    this.anchoring?.abort();
    for (const stop of this.stops.splice(0)) stop();
    clearTimeout(this.changeTimer);
    this.cards.stop();
    try {
      this.painter.clear();
    } catch {
      // the page may have replaced CSS.highlights; nothing to clean then
    }
    this.ui?.destroy();
    this.ui = null;
  }

  /** Whether the curator was using Recipe Lens here: its UI was shown, claims are painted, or text is being selected. */
  inUse(): boolean {
    return this.uiReady !== null || this.store.get().claims.length > 0 || document.getSelection()?.isCollapsed === false;
  }

  /** Whether an event happened inside the capture UI. */
  isOurs(event: Event): boolean {
    return !!this.ui && this.ui.owns(event);
  }

  /** The document's claims that are anchored, with their anchors, in document order. */
  anchoredClaims(): Array<{ claim: ClaimRecord; anchor: A }> {
    return this.store
      .get()
      .claims.flatMap((claim) => {
        const entry = this.anchors.get(claim.id);
        return entry ? [{ claim, anchor: entry.anchor }] : [];
      })
      .sort((a, b) => this.order(a, b));
  }

  /** Painted claims and orphans, for a header. */
  counts(): { anchored: number; orphans: number } {
    const orphans = this.store.get().orphans.length;
    return { anchored: this.store.get().claims.length - orphans, orphans };
  }

  // ── Loading, anchoring, painting ─────────────────────────────────────────

  /** Asks for the document's claims, then anchors and paints them. */
  load(): Promise<void> {
    const run = this.fetchAndAnchor();
    this.loading = run;
    return run;
  }

  /** The document's address changed (in-page navigation): what was shown belongs to the old one. */
  addressChanged(): void {
    const url = this.surface.key()?.url ?? null;
    if (url === this.shownFor) return;
    this.anchoring?.abort();
    this.finder.reset();
    this.anchors.clear();
    this.painter.clear();
    this.store.set((s) => ({ ...s, claims: [], orphans: [], changed: {}, card: null, toolbar: null }));
    void this.load();
  }

  private async fetchAndAnchor(): Promise<void> {
    const key = this.surface.key();
    if (!key) return;
    const seq = ++this.loadSeq;
    this.shownFor = key.url;
    let reply: DocumentClaims;
    const given = this.lookup;
    this.lookup = null;
    if (given && given.url === key.url) reply = given;
    else {
      try {
        reply = await withRetry(() => this.api.call('document.claims', key));
      } catch (error) {
        this.onCallError(error, t('errRead'));
        return;
      }
    }
    if (seq !== this.loadSeq) return; // a newer load (navigation, another change) won
    // The store answered for the address the browser says this page has: that is the page's address from now on.
    if (reply.url) {
      this.surface.adoptAddress?.(reply.url, reply.site);
      this.shownFor = reply.url;
    }
    this.correction = reply.source;
    this.loaded = true;
    this.store.set((s) => ({ ...s, claims: reply.claims }));
    // A site the curator opted in: the finder runs once per page, after the claims are painted.
    if (reply.autoFind && key.url && this.autoFoundFor !== key.url) {
      this.autoFoundFor = key.url;
      void this.loading.then(() => this.finder.run()).catch(() => undefined);
    }
    await this.anchorAndPaint();
  }

  /** Whether a claim has an anchor that is still live and was made for its current version. */
  private current(claim: ClaimRecord): boolean {
    return isCurrent(this.surface, this.anchors, claim);
  }

  /**
   * Anchors every claim without a current anchor (the surface works in slices that leave the page responsive),
   * then repaints. A newer run aborts this one; a change of the document during the run is looked at again after it.
   */
  private async anchorAndPaint(): Promise<void> {
    if (!this.loaded) return;
    this.anchoring?.abort();
    const run = new AbortController();
    this.anchoring = run;
    this.staleDuringRun = false;
    let changed: Awaited<ReturnType<typeof anchorPass>>;
    try {
      changed = await anchorPass(this.surface, this.store.get().claims, this.anchors, this.store.get().changed, run.signal);
    } catch (error) {
      if (run.signal.aborted) return;
      throw error;
    }
    if (run.signal.aborted) return;
    if (this.anchoring === run) this.anchoring = null;
    if (!changed) return; // the text cannot be read yet: the surface says when it can
    this.store.set((s) => ({ ...s, changed: changed! }));
    this.anchoredOnce = true;
    this.repaint();
    this.options.onAnchored?.();
    const pending = this.pendingReveal;
    this.pendingReveal = null;
    if (pending) void this.reveal(pending);
    if (this.staleDuringRun && this.store.get().claims.some((c) => !this.current(c))) void this.anchorAndPaint();
  }

  /** The document changed: anchor again what lost its passage, or paint again where it was drawn. */
  private onStale(change: Stale<A>): void {
    if (change.kind === 'layout') {
      if ([...this.anchors.values()].some((a) => change.touches(a.anchor))) this.repaint();
      this.finder.paint(change.touches);
      return;
    }
    if (this.anchoring) {
      this.staleDuringRun = true;
      return;
    }
    if (!this.anchoredOnce || this.store.get().claims.some((c) => !this.current(c))) void this.anchorAndPaint();
  }

  /** Paints every anchored claim where the document is drawn; reports orphans and the badge. */
  private repaint(): void {
    const claims = this.store.get().claims;
    const painted = paintList(this.surface, claims, this.anchors);
    this.painter.paint(painted);
    const shown = new Set(painted.map((p) => p.id)).size;
    if (!this.anchoredOnce) {
      this.options.onPaint?.({ painted: shown, anchored: 0, orphans: 0, settled: false });
      return;
    }
    const orphans = orphanIds(claims, this.anchors);
    const before = this.store.get().orphans;
    this.store.set((s) => ({ ...s, orphans }));
    if (orphans.length) void this.ensureUi();
    const anchored = claims.length - orphans.length;
    this.options.onPaint?.({ painted: shown, anchored, orphans: orphans.length, settled: true });
    if (orphans.length !== before.length || anchored !== this.lastReported) {
      this.lastReported = anchored;
      void this.api.call('document.status', { anchored, orphans: orphans.length }).catch(() => undefined);
    }
  }

  /** Whether a change notice for `url` may concern this document's claims. */
  private concerns(url: string | null): boolean {
    return url === null || url === this.surface.key()?.url || this.store.get().claims.some((c) => c.source.url === url);
  }

  // ── Revealing and reporting ──────────────────────────────────────────────

  /** Scrolls to a claim's passage and flashes it; false when it is not anchored here (an orphan opens the orphan list). */
  async reveal(id: string): Promise<boolean> {
    await this.loading;
    if (!this.store.get().claims.some((c) => c.id === id)) await this.load();
    await this.surface.ready();
    if (!this.anchoredOnce) {
      this.pendingReveal = id;
      return this.store.get().claims.some((c) => c.id === id);
    }
    const entry = this.anchors.get(id);
    if (!entry) {
      if (this.store.get().claims.some((c) => c.id === id)) void this.ensureUi().then(() => this.store.set((s) => ({ ...s, orphanList: true })));
      return false;
    }
    const range = await this.surface.reveal(entry.anchor);
    if (!range) return false;
    this.painter.setActive([id]);
    this.later(() => this.painter.setActive([]), 2500);
    return true;
  }

  /** The document as the evidence panel's "This page" view shows it. */
  pageReport(): PageReport {
    const facts = this.surface.facts();
    const fields = this.sourceFields(facts);
    const claims = this.store.get().claims;
    const anchored = this.anchoredClaims().map((a) => a.claim.id);
    const orphans = this.anchoredOnce ? claims.filter((c) => !this.anchors.has(c.id)).map((c) => c.id) : [];
    return {
      url: this.surface.key()?.url ?? facts.url,
      title: facts.title,
      source: {
        title: fields.title,
        kind: fields.kind,
        publisher: fields.publisher || null,
        published: fields.published || null,
        corrected: !!this.correction,
      },
      models: facts.models,
      order: [...anchored, ...orphans],
      orphans,
      changed: Object.entries(this.store.get().changed).map(([id, c]) => ({ id, old: c.old, now: c.now })),
    };
  }

  private order(a: { claim: ClaimRecord; anchor: A }, b: { claim: ClaimRecord; anchor: A }): number {
    try {
      return this.surface.compare(a.anchor, b.anchor) || (a.claim.created_at < b.claim.created_at ? -1 : 1);
    } catch {
      return 0;
    }
  }

  /** The form's source fields: the curator's correction, else what the document says. */
  private sourceFields(facts: DocumentFacts): SourceFields {
    const c = this.correction;
    return {
      title: c?.title ?? facts.title,
      kind: c?.kind ?? facts.kind,
      publisher: (c ? c.publisher : facts.publisher) ?? '',
      published: (c ? c.published : facts.published) ?? '',
    };
  }

  private pageFacts(): PageFacts {
    const facts = this.surface.facts();
    return { kind: this.sourceFields(facts).kind, models: facts.models };
  }

  // ── The capture UI ───────────────────────────────────────────────────────

  private ensureUi(): Promise<void> {
    this.uiReady ??= this.mountUi(this.store, this.actions).then((host) => {
      this.ui = host;
    });
    return this.uiReady;
  }

  /** What the capture UI can ask for. */
  readonly actions: CaptureActions = {
    openForm: () => void this.openForm(),
    closeToolbar: () => this.store.set((s) => ({ ...s, toolbar: null })),
    escape: () => void this.escape(),
    save: (values, source, suggested) => this.save(values, source, suggested),
    cancelForm: () => {
      this.painter.markPending(null);
      this.store.set((s) => ({ ...s, form: null }));
    },
    edit: (id) => this.edit(id),
    remove: (ids) => this.remove(ids),
    undo: (toastId) => this.undo(toastId),
    dismissToast: (id) => this.notices.dismiss(id),
    closeCard: () => this.cards.close(),
    hoverCard: (inside) => this.cards.hover(inside),
    focusClaim: (ids) => this.painter.setActive(ids),
    confirmText: async (id) => {
      await this.confirmText(id);
    },
    startReattach: (id) => this.startReattach(id),
    attachHere: () => this.attachHere(),
    cancelReattach: () => this.store.set((s) => ({ ...s, reattach: null, toolbar: null })),
    toggleOrphans: () => this.store.set((s) => ({ ...s, orphanList: !s.orphanList })),
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

  /** Shows a notice (with undo for deleted claims); it goes by itself after a while. */
  toast(text: string, tone: 'info' | 'error' = 'info', undo?: ClaimRecord[]): void {
    this.notices.show(text, tone, undo);
  }

  private onCallError(error: unknown, what: string): void {
    if (isContextInvalidated(error) || !this.alive()) {
      this.store.set((s) => ({ ...s, disconnected: true }));
      void this.ensureUi().catch(() => undefined);
      return;
    }
    this.toast(`${what}: ${error instanceof Error ? error.message : String(error)}`, 'error');
  }

  // ── Selection and the toolbar ────────────────────────────────────────────

  private onPointerUp(event: PointerEvent): void {
    if (this.isOurs(event)) return;
    this.later(() => this.checkSelection(), 10);
  }

  private onKeyUp(event: KeyboardEvent): void {
    if (this.isOurs(event)) return;
    if (event.shiftKey || event.key === 'Shift' || ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'a')) this.checkSelection();
  }

  private onSelectionChange(): void {
    const selection = document.getSelection();
    if ((!selection || selection.isCollapsed) && this.store.get().toolbar) this.store.set((s) => ({ ...s, toolbar: null }));
  }

  /** Offers the toolbar for the current selection (also called by the page script for the selection that loaded this script). */
  checkSelection(): void {
    // After an extension reload nothing can be saved: asking whether the script is alive stops it and shows the reload notice.
    if (!this.alive() || this.store.get().form) return;
    const range = selectedRange(window);
    if (!range || !this.surface.canCapture(range)) return;
    this.lastRange = range;
    const at = toolbarPosition(range, { width: innerWidth, height: innerHeight });
    void this.ensureUi().then(() => this.store.set((s) => ({ ...s, toolbar: at, card: null })));
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      if (this.store.get().form && this.isOurs(event)) return; // the form handles its own Escape
      if (this.escape()) return;
    }
    this.options.onKey?.(event);
  }

  /** Escape: closes the form, toolbar or card, else the finder's list; false when nothing was open. */
  private escape(): boolean {
    const s = this.store.get();
    if (s.form || s.toolbar || s.card) {
      this.painter.setActive([]);
      this.painter.markPending(null);
      this.store.set((st) => ({ ...st, form: null, toolbar: null, card: null }));
      return true;
    }
    if (s.finder) {
      this.finder.close();
      return true;
    }
    return false;
  }

  // ── The claim form ───────────────────────────────────────────────────────

  /** Opens the form for the current (or last shown) selection; false when nothing in the document is selected. */
  openForm(): boolean {
    const range = selectedRange(window) ?? (this.store.get().toolbar ? this.lastRange : null);
    if (!range || !this.surface.canCapture(range)) {
      this.toast(t('toastSelectFirst'), 'error');
      return false;
    }
    void this.openFormFor(range);
    return true;
  }

  /**
   * Opens the form on a range: its passage described by the surface and prefilled from it, or (a finder candidate,
   * "not disclosed") the passage, anchor, values and candidate key given.
   */
  private async openFormFor(
    range: Range,
    given?: { passage: Passage; anchor: A | null; values: (storeModels: string[]) => ClaimFormValues; candidate: string | null },
  ): Promise<void> {
    // Without the Navigation API (Firefox before it shipped it) an in-page navigation is seen by polling, up to a
    // second late: catch up now, so that the claim is filed under the address the document shows.
    this.addressChanged();
    await this.ensureUi();
    const captured: Captured<A> | null = given ?? (await this.surface.describe(range, (text, tone) => this.toast(text, tone)));
    if (!captured) return;
    const unaddressed = this.surface.unaddressed();
    if (unaddressed) {
      this.toast(unaddressed, 'error');
      return;
    }
    let storeModels: string[] = [];
    try {
      storeModels = (await this.api.call('models.names', {})).names;
    } catch (error) {
      if (isContextInvalidated(error)) return this.onCallError(error, '');
    }
    const facts = this.surface.facts();
    const fields = this.sourceFields(facts);
    const values = given ? given.values(storeModels) : prefillValues(captured.passage.quote.exact, { kind: fields.kind, models: facts.models }, storeModels);
    const rect = range.getBoundingClientRect();
    this.formAnchor = captured.anchor;
    this.formIds = [];
    const session: FormSession = {
      mode: 'new',
      passage: { quote: captured.passage.quote, position: captured.passage.position },
      values,
      source: fields,
      sourceCorrected: !!this.correction,
      pageModels: facts.models,
      storeModels,
      editing: null,
      at: panelPosition(rect, FORM_SIZE, { width: innerWidth, height: innerHeight }),
      saving: false,
      error: null,
      candidate: given?.candidate ?? null,
    };
    this.store.set((s) => ({ ...s, toolbar: null, card: null, form: session }));
    this.painter.markPending(range);
  }

  private edit(id: string): void {
    const claim = this.store.get().claims.find((c) => c.id === id);
    if (!claim) return;
    const entry = this.anchors.get(id);
    const range = entry ? this.surface.ranges(entry.anchor)[0] : undefined;
    const rect = range?.getBoundingClientRect() ?? { left: 40, top: 40, bottom: 60 };
    this.formAnchor = entry?.anchor ?? null;
    this.formIds = [];
    this.store.set((s) => ({
      ...s,
      card: null,
      form: {
        mode: 'edit',
        passage: { quote: claim.quote, position: claim.position ?? null },
        values: valuesFromClaim(claim),
        source: { title: claim.source.title, kind: claim.source.kind, publisher: claim.source.publisher ?? '', published: claim.source.published ?? '' },
        sourceCorrected: !!this.correction,
        pageModels: this.surface.facts().models,
        storeModels: [],
        editing: claim,
        at: panelPosition(rect, FORM_SIZE, { width: innerWidth, height: innerHeight }),
        saving: false,
        error: null,
      },
    }));
  }

  private async save(values: ClaimFormValues, fields: SourceFields, suggested: Evidence): Promise<void> {
    const form = this.store.get().form;
    const url = this.surface.key()?.url;
    if (!form || !url) return;
    const setForm = (patch: Partial<FormSession>) => this.store.set((s) => (s.form ? { ...s, form: { ...s.form, ...patch } } : s));
    setForm({ saving: true, error: null });
    try {
      const accessed = form.editing?.source.accessed ?? today();
      const source = sourceFromFields(form.editing?.source.url ?? url, accessed, fields);
      // Ids are minted once per form: saving again after a failure reuses them, so a write that did land is overwritten, not doubled.
      let next = 0;
      const mintId = () => (this.formIds[next++] ??= mintClaimId());
      const built = buildClaims(values, { passage: form.passage, source, suggested, now: nowTimestamp(), mintId, editing: form.editing });
      const claims = built.map((c) => this.surface.stamp(c, form.passage, false));
      const changedSource = sourceChanged(fields, form.source);
      const { claims: saved } = await withRetry(() => this.api.call('claims.save', { claims }), {
        timeoutMs: SAVE_ATTEMPT_MS,
        onRetry: (attempt) => setForm({ saving: true, error: attempt > 1 ? t('savingSlow', attempt) : null }),
      });
      if (changedSource) {
        const { accessed: _accessed, ...override } = source;
        await this.api.call('source.correct', { source: override });
        this.correction = { ...override, updated_at: nowTimestamp() };
      }
      const ids = new Set(saved.map((c) => c.id));
      this.painter.markPending(null);
      this.store.set((s) => ({ ...s, form: null, claims: [...s.claims.filter((c) => !ids.has(c.id)), ...saved] }));
      // A new passage is where it was described; an edited claim stays where it was anchored.
      const anchor = this.formAnchor;
      for (const c of saved) {
        if (anchor !== null) this.anchors.set(c.id, { anchor, version: c.updated_at });
        else this.anchors.delete(c.id);
      }
      if (changedSource) await this.load();
      else void this.anchorAndPaint();
      document.getSelection()?.removeAllRanges();
      if (form.candidate) this.finder.accepted(form.candidate);
      const what = saved.length === 1 ? saved[0]!.value : plural(saved.length, 'claimsOne', 'claimsMany');
      this.toast(t(form.mode === 'edit' ? 'toastUpdated' : 'toastSaved', what, values.model));
    } catch (error) {
      if (isContextInvalidated(error)) {
        setForm({ saving: false, error: t('errSaveReloaded') });
        this.store.set((s) => ({ ...s, disconnected: true }));
        return;
      }
      setForm({ saving: false, error: t('errNotSaved', error instanceof Error ? error.message : String(error)) });
    }
  }

  // ── Drifted text and orphans ─────────────────────────────────────────────

  /** Stores the passage's current text as a drifted claim's quote; false when it is not anchored here. */
  private async confirmText(id: string): Promise<boolean> {
    const claim = this.store.get().claims.find((c) => c.id === id);
    const entry = this.anchors.get(id);
    if (!claim || !entry || !this.surface.isLive(entry.anchor)) return false;
    const passage = await this.surface.describeAnchor(entry.anchor);
    if (!passage) return false;
    return this.replacePassage(claim, { passage, anchor: entry.anchor }, t('toastQuoteUpdated'));
  }

  /** Re-attach mode: the next selection becomes the orphan's passage. */
  private startReattach(id: string): void {
    void this.ensureUi().then(() => this.store.set((s) => ({ ...s, reattach: id, orphanList: false, card: null })));
  }

  private async attachHere(): Promise<void> {
    const id = this.store.get().reattach;
    const claim = this.store.get().claims.find((c) => c.id === id);
    const range = selectedRange(window) ?? this.lastRange;
    if (!claim || !range) return;
    const captured = await this.surface.describe(range, (text, tone) => this.toast(text, tone));
    if (!captured) return;
    if (await this.replacePassage(claim, captured, t('toastReattached', claim.value, claim.model))) {
      document.getSelection()?.removeAllRanges();
      this.store.set((s) => ({ ...s, reattach: null, toolbar: null }));
    }
  }

  /** Gives a claim a new passage in this document, saves it and repaints. */
  private async replacePassage(claim: ClaimRecord, captured: Captured<A>, done: string): Promise<boolean> {
    const { passage, anchor } = captured;
    if (!passage.quote.exact) return false;
    try {
      const next = this.surface.stamp({ ...claim, quote: passage.quote, position: passage.position }, passage, true);
      const [saved] = (await withRetry(() => this.api.call('claims.save', { claims: [next] }))).claims;
      if (anchor !== null) this.anchors.set(claim.id, { anchor, version: saved!.updated_at });
      else this.anchors.delete(claim.id);
      const changed = { ...this.store.get().changed };
      delete changed[claim.id];
      this.store.set((s) => ({ ...s, changed, claims: s.claims.map((c) => (c.id === claim.id ? saved! : c)) }));
      if (anchor !== null) this.repaint();
      else void this.anchorAndPaint();
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
      const { deleted } = await this.api.call('claims.delete', { ids });
      const gone = new Set(deleted.map((c) => c.id));
      for (const id of gone) this.anchors.delete(id);
      this.store.set((s) => ({ ...s, card: null, claims: s.claims.filter((c) => !gone.has(c.id)) }));
      this.painter.setActive([]);
      this.repaint();
      const label = deleted.length === 1 ? t('toastDeleted', deleted[0]!.value, deleted[0]!.model) : t('toastDeletedMany', deleted.length);
      this.toast(label, 'info', deleted);
    } catch (error) {
      this.onCallError(error, t('errDelete'));
    }
  }

  private async undo(toastId: number): Promise<void> {
    const claims = this.notices.takeUndo(toastId);
    if (!claims.length) return;
    try {
      await this.api.call('claims.restore', { claims });
      this.store.set((s) => ({ ...s, claims: [...s.claims, ...claims] }));
      void this.anchorAndPaint();
      this.toast(claims.length === 1 ? t('toastRestored') : t('toastRestoredMany', claims.length));
    } catch (error) {
      this.onCallError(error, t('errUndo'));
    }
  }
}

/** Whether the curator changed the source fields in the form. */
function sourceChanged(a: SourceFields, b: SourceFields): boolean {
  return a.title !== b.title || a.kind !== b.kind || a.publisher !== b.publisher || a.published !== b.published;
}
