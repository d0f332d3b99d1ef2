/**
 * The content script's wiring on one page: asks once for the page's claims,
 * anchors and paints them, re-anchors on late content and in-page
 * navigation, and drives the capture UI (toolbar, form, card, notices).
 * It never touches the database: every read and write is a message.
 */
import { h, render } from 'preact';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { createShadowRootUi, type ShadowRootContentScriptUi } from 'wxt/utils/content-script-ui/shadow-root';
import { anchorAllAsync, buildTextIndexAsync, describe, type TextIndex } from '../../lib/anchoring';
import type { CaptureSession, PageLookup } from '../../lib/capture/bridge';
import { showReloadNotice } from '../../lib/capture/reload-notice';
import { buildClaims, sourceFromFields, valuesFromClaim, type ClaimFormValues, type SourceFields } from '../../lib/capture/draft';
import { mintClaimId } from '../../lib/capture/ids';
import { prefillValues } from '../../lib/capture/prefill';
import { panelPosition, selectedRange, toolbarPosition } from '../../lib/capture/selection';
import { callBackground, contentAnswerer, isContextInvalidated, withRetry, type PageReport } from '../../lib/messages';
import { HighlightPainter, type PaintedClaim } from '../../lib/paint';
import type { ClaimRecord, Evidence, SourceCorrection } from '../../lib/schema';
import { detectSource, documentUrl } from '../../lib/source';
import { nowTimestamp, today } from '../../lib/time';
import { plural, t } from '../../lib/i18n';
import { createStore, type Store } from '../../components/common/store';
import { CaptureApp } from '../../components/capture/CaptureApp';
import { initialCaptureState, type CaptureActions, type CaptureState, type FormSession } from '../../components/capture/state';
import uiCss from '../../components/capture/ui.css?inline';
import { CandidateFinder } from './finder';

const FORM_SIZE = { width: 380, height: 600 };
const CARD_SIZE = { width: 340, height: 300 };
const MUTATION_DEBOUNCE_MS = 300;
const TOAST_MS = 8000;
/** A save attempt unanswered this long is retried (same ids): the worker may have been stopped under it. */
const SAVE_ATTEMPT_MS = 10_000;

function isContextGone(error: unknown): boolean {
  return isContextInvalidated(error);
}

/** Everything the capture script does on one page (the page script hands over to it). */
export class ClaimsSession implements CaptureSession {
  private readonly store: Store<CaptureState> = createStore(initialCaptureState);
  private readonly painter = new HighlightPainter();
  private ui: ShadowRootContentScriptUi<void> | null = null;
  private uiReady: Promise<void> | null = null;
  private url = documentUrl(document);
  private correction: SourceCorrection | null = null;
  private ranges = new Map<string, Range>();
  private observer: MutationObserver | null = null;
  private mutationTimer: number | undefined;
  private hoverTimer: number | undefined;
  private hideTimer: number | undefined;
  private insideCard = false;
  private lastRange: Range | null = null;
  private pendingFormRange: Range | null = null;
  private undoable = new Map<number, ClaimRecord[]>();
  private toastSeq = 0;
  private loadSeq = 0;
  private pointerFrame = 0;
  /** Ids minted for the open form's claims, reused by every save of that form. */
  private formIds: string[] = [];

  /** The run of anchoring in progress; a newer run (navigation, new claims) aborts it. */
  private anchoring: AbortController | null = null;
  /** The page's text index while the DOM has not changed since it was built (anchoring and the finder share it). */
  private readonly indexCache = new IndexCache();
  /** The page whose opted-in automatic finder run was made. */
  private autoFoundFor: string | null = null;

  /** The claim finder on this page (runs only when asked, or on an opted-in site). */
  private readonly finder = new CandidateFinder({
    store: this.store,
    painter: this.painter,
    url: () => this.url,
    page: () => {
      const detected = detectSource(document, location.href, today());
      return { kind: this.sourceFields(detected).kind, models: detected.models };
    },
    ready: () => this.loading,
    textIndex: () => this.indexCache.get(document.body ?? document.documentElement),
    claimedRanges: () => [...this.ranges.values()].filter((r) => this.isLive(r)),
    ensureUi: () => this.ensureUi(),
    openForm: (range, values, candidate) => this.openFormFor(range, values, candidate),
    toast: (text, tone) => this.toast(text, tone),
    today: () => today(),
  });

  /** @param lookup the page script's lookup of this page's claims, used instead of a second one. */
  constructor(
    private readonly ctx: ContentScriptContext,
    private lookup: PageLookup | null = null,
  ) {}

  /** Answers the background's calls (set up by `start`). */
  answer: CaptureSession['answer'] = () => undefined;

  /** Starts listening and paints the page's claims. */
  start(): void {
    this.answer = contentAnswerer({
      'form.open': () => ({ opened: this.openForm() }),
      'claims.changed': async ({ url }) => {
        if (url !== null && url !== this.url) return { reloaded: false };
        this.loading = this.load();
        await this.loading;
        return { reloaded: true };
      },
      'passage.reveal': async ({ id }) => ({ found: await this.reveal(id) }),
      'passage.reattach': async ({ id }) => {
        await this.loading;
        if (!this.store.get().claims.some((c) => c.id === id)) return { started: false };
        this.startReattach(id);
        return { started: true };
      },
      'passage.confirm': async ({ id }) => ({ confirmed: await this.confirmText(id) }),
      'page.report': async () => {
        await this.loading;
        return this.pageReport();
      },
      'finder.run': () => this.finder.run(),
      'finder.accept': async ({ key }) => ({ opened: await this.finder.accept(key) }),
      'finder.dismiss': async ({ key }) => ({ dismissed: await this.finder.dismiss(key) }),
      'finder.undisclosed': async () => ({ opened: await this.finder.recordUndisclosed() }),
    });
    this.ctx.addEventListener(document, 'pointerup', (e) => this.onPointerUp(e as PointerEvent));
    this.ctx.addEventListener(document, 'keyup', (e) => this.onKeyUp(e as KeyboardEvent));
    this.ctx.addEventListener(document, 'keydown', (e) => this.onKeyDown(e as KeyboardEvent), { capture: true });
    this.ctx.addEventListener(document, 'selectionchange', () => this.onSelectionChange());
    this.ctx.addEventListener(document, 'pointermove', (e) => this.onPointerMove(e as PointerEvent), { passive: true });
    this.ctx.addEventListener(document, 'click', (e) => this.onClick(e as MouseEvent));
    // The Navigation API's event fires before the URL changes: read it once the navigation has committed.
    this.ctx.addEventListener(window, 'wxt:locationchange', () => this.ctx.setTimeout(() => this.onLocationChange(), 0));
    this.ctx.addEventListener(window, 'popstate', () => this.onLocationChange());
    this.ctx.onInvalidated(() => this.stop());
    this.loading = this.load();
  }

  private loading: Promise<void> = Promise.resolve();

  /** Scrolls to a claim's passage and flashes it; false when the claim is not painted here. */
  async reveal(id: string): Promise<boolean> {
    await this.loading;
    if (!this.ranges.has(id)) await this.load();
    const range = this.ranges.get(id);
    if (!range || !this.isLive(range)) return false;
    const element = range.startContainer instanceof Element ? range.startContainer : range.startContainer.parentElement;
    element?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    this.painter.setActive([id]);
    this.ctx.setTimeout(() => this.painter.setActive([]), 2500);
    return true;
  }

  /** The page as the evidence panel's "This page" view shows it. */
  pageReport(): PageReport {
    const detected = detectSource(document, location.href, today());
    const fields = this.sourceFields(detected);
    const claims = this.store.get().claims;
    const anchored = claims.filter((c) => this.ranges.has(c.id));
    anchored.sort((a, b) => {
      const ra = this.ranges.get(a.id)!;
      const rb = this.ranges.get(b.id)!;
      try {
        return ra.compareBoundaryPoints(Range.START_TO_START, rb) || (a.created_at < b.created_at ? -1 : 1);
      } catch {
        return 0;
      }
    });
    const orphans = claims.filter((c) => !this.ranges.has(c.id)).map((c) => c.id);
    return {
      url: this.url,
      title: detected.title,
      source: {
        title: fields.title,
        kind: fields.kind,
        publisher: fields.publisher || null,
        published: fields.published || null,
        corrected: !!this.correction,
      },
      models: detected.models,
      order: [...anchored.map((c) => c.id), ...orphans],
      orphans,
      changed: Object.entries(this.store.get().changed).map(([id, t]) => ({ id, old: t.old, now: t.now })),
    };
  }

  /** The extension was reloaded or updated under this page: stop everything and say how to recover. */
  private stop(): void {
    this.anchoring?.abort();
    this.indexCache.drop();
    this.observer?.disconnect();
    this.observer = null;
    // In use: our UI was shown, claims were painted, or the curator is selecting text to tag right now.
    const wasInUse = this.uiReady !== null || this.store.get().claims.length > 0 || document.getSelection()?.isCollapsed === false;
    try {
      this.painter.clear();
    } catch {
      // the page may have replaced CSS.highlights; nothing to clean then
    }
    if (wasInUse) showReloadNotice();
  }

  // ── Loading, anchoring, painting ─────────────────────────────────────────

  /** Fetches this page's claims and paints them. */
  async load(): Promise<void> {
    const seq = ++this.loadSeq;
    let reply: { claims: ClaimRecord[]; source: SourceCorrection | null; autoFind?: boolean };
    const given = this.lookup;
    this.lookup = null;
    if (given && given.url === this.url) reply = given;
    else {
      try {
        reply = await withRetry(() => callBackground('page.claims', { url: this.url }));
      } catch (error) {
        this.onCallError(error, t('errRead'));
        return;
      }
    }
    if (seq !== this.loadSeq) return; // a newer load (navigation) won
    this.correction = reply.source;
    const hadClaims = this.store.get().claims.length > 0;
    this.store.set((s) => ({ ...s, claims: reply.claims }));
    // A site the curator opted in: the finder runs once per page, after the claims are painted.
    if (reply.autoFind && this.autoFoundFor !== this.url) {
      this.autoFoundFor = this.url;
      void this.loading.then(() => this.finder.run()).catch(() => undefined);
    }
    if (!reply.claims.length) {
      this.anchoring?.abort();
      this.ranges.clear();
      this.painter.clear();
      this.observer?.disconnect();
      this.observer = null;
      if (hadClaims) void this.report();
      return;
    }
    await this.anchorAndPaint();
    if (seq === this.loadSeq) this.observe();
  }

  /**
   * Anchors every claim that has no live range, in slices that leave the page
   * responsive (a 2 MB report with hundreds of claims included), then
   * repaints. A newer run aborts this one; a run the DOM changed under is
   * done again, so no range is built from text that moved.
   */
  private async anchorAndPaint(): Promise<void> {
    this.anchoring?.abort();
    const run = new AbortController();
    this.anchoring = run;
    const claims = this.store.get().claims;
    const missing = claims.filter((c) => !this.isLive(this.ranges.get(c.id)));
    if (missing.length) {
      const root = document.body ?? document.documentElement;
      const selectors = missing.map((c) => ({ quote: c.quote, position: c.position ?? null }));
      let results: Awaited<ReturnType<typeof anchorAllAsync>> | null = null;
      for (let attempt = 0; attempt < 3 && !results; attempt++) {
        const moved = watchForChanges(root);
        try {
          const index = await this.indexCache.get(root, run.signal);
          const found = await anchorAllAsync(root, selectors, { index, signal: run.signal });
          // The DOM changed under the run: its ranges may point at text that moved. The last attempt keeps what it found.
          if (!moved.stop() || attempt === 2) results = found;
        } catch (error) {
          moved.stop();
          if (run.signal.aborted) return;
          throw error;
        }
      }
      if (run.signal.aborted || !results) return;
      const changed = { ...this.store.get().changed };
      results.forEach((result, i) => {
        const claim = missing[i]!;
        delete changed[claim.id];
        if (result.status === 'anchored') {
          this.ranges.set(claim.id, result.range);
          if (!result.exact) changed[claim.id] = { old: claim.quote.exact, now: result.text };
        } else this.ranges.delete(claim.id);
      });
      this.store.set((st) => ({ ...st, changed }));
    }
    if (this.anchoring === run) this.anchoring = null;
    const current = this.store.get().claims;
    for (const id of [...this.ranges.keys()]) if (!current.some((c) => c.id === id)) this.ranges.delete(id);
    this.repaint();
  }

  private isLive(range: Range | undefined): boolean {
    return !!range && !range.collapsed && range.startContainer.isConnected && range.endContainer.isConnected;
  }

  private repaint(): void {
    const claims = this.store.get().claims;
    const painted: PaintedClaim[] = [];
    const orphans: string[] = [];
    for (const claim of claims) {
      const range = this.ranges.get(claim.id);
      if (range) painted.push({ id: claim.id, kind: claim.kind, range });
      else orphans.push(claim.id);
    }
    this.painter.paint(painted);
    const before = this.store.get().orphans;
    this.store.set((s) => ({ ...s, orphans }));
    if (orphans.length) void this.ensureUi();
    if (orphans.length !== before.length || painted.length !== this.lastReported) void this.report();
  }

  private lastReported = -1;

  private async report(): Promise<void> {
    const orphans = this.store.get().orphans.length;
    const anchored = this.store.get().claims.length - orphans;
    this.lastReported = anchored;
    await callBackground('page.status', { url: this.url, anchored, orphans }).catch(() => undefined);
  }

  /** Late content: while claims are stored here, re-anchor the missing ones after the page settles. */
  private observe(): void {
    if (this.observer) return;
    this.observer = new MutationObserver((records) => {
      const host = this.ui?.shadowHost;
      if (host && records.every((r) => host === r.target || host.contains(r.target) || [...r.addedNodes, ...r.removedNodes].every((n) => n === host))) return;
      clearTimeout(this.mutationTimer);
      this.mutationTimer = this.ctx.setTimeout(() => {
        const claims = this.store.get().claims;
        if (claims.some((c) => !this.isLive(this.ranges.get(c.id)))) void this.anchorAndPaint();
      }, MUTATION_DEBOUNCE_MS);
    });
    this.observer.observe(document.body ?? document.documentElement, { childList: true, subtree: true, characterData: true });
  }

  private onLocationChange(): void {
    const next = documentUrl(document);
    if (next === this.url) return;
    this.url = next;
    this.anchoring?.abort();
    this.finder.reset();
    this.ranges.clear();
    this.painter.clear();
    this.store.set((s) => ({ ...s, claims: [], orphans: [], card: null, toolbar: null }));
    void this.load();
  }

  // ── The capture UI ───────────────────────────────────────────────────────

  private ensureUi(): Promise<void> {
    this.uiReady ??= (async () => {
      this.ui = await createShadowRootUi(this.ctx, {
        name: 'recipe-lens-ui',
        position: 'inline',
        anchor: 'html',
        append: 'last',
        css: uiCss,
        onMount: (container) => {
          render(h(CaptureApp, { store: this.store, actions: this.actions }), container);
        },
        onRemove: () => {
          const container = this.ui?.uiContainer;
          if (container) render(null, container);
        },
      });
      this.ui.mount();
      // Keep the page's selection when our buttons are pressed.
      this.ui.shadowHost.addEventListener('mousedown', (e) => {
        const target = e.composedPath()[0] as HTMLElement | undefined;
        if (target && !/^(INPUT|TEXTAREA|SELECT|OPTION|LABEL)$/.test(target.tagName)) e.preventDefault();
      });
    })();
    return this.uiReady;
  }

  private readonly actions: CaptureActions = {
    openForm: () => void this.openForm(),
    closeToolbar: () => this.store.set((s) => ({ ...s, toolbar: null })),
    save: (values, source, suggested) => this.save(values, source, suggested),
    cancelForm: () => {
      this.painter.markPending(null);
      this.store.set((s) => ({ ...s, form: null }));
    },
    edit: (id) => this.edit(id),
    remove: (ids) => this.remove(ids),
    undo: (toastId) => this.undo(toastId),
    dismissToast: (id) => this.dismissToast(id),
    closeCard: () => {
      this.painter.setActive([]);
      this.store.set((s) => ({ ...s, card: null }));
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
    cancelReattach: () => this.store.set((s) => ({ ...s, reattach: null, toolbar: null })),
    toggleOrphans: () => this.store.set((s) => ({ ...s, orphanList: !s.orphanList })),
    finder: {
      acceptCandidate: (key) => void this.finder.accept(key),
      dismissCandidate: async (key) => {
        await this.finder.dismiss(key);
      },
      showCandidate: (key) => this.finder.show(key),
      recordUndisclosed: () => void this.finder.recordUndisclosed(),
      closeFinder: () => this.finder.close(),
    },
  };

  // ── Drifted text and orphans ─────────────────────────────────────────────

  /** Stores the passage's current text as a drifted claim's quote; false when it is not painted. */
  private async confirmText(id: string): Promise<boolean> {
    const claim = this.store.get().claims.find((c) => c.id === id);
    const range = this.ranges.get(id);
    if (!claim || !range || !this.isLive(range)) return false;
    return this.replacePassage(claim, range, t('toastQuoteUpdated'));
  }

  /** Re-attach mode: the next selection becomes the orphan's passage. */
  private startReattach(id: string): void {
    void this.ensureUi().then(() => this.store.set((s) => ({ ...s, reattach: id, orphanList: false, card: null })));
  }

  private async attachHere(): Promise<void> {
    const id = this.store.get().reattach;
    const claim = this.store.get().claims.find((c) => c.id === id);
    const range = selectedRange(window, this.ui?.shadowHost) ?? this.lastRange;
    if (!claim || !range) return;
    if (await this.replacePassage(claim, range, t('toastReattached', claim.value, claim.model))) {
      document.getSelection()?.removeAllRanges();
      this.store.set((s) => ({ ...s, reattach: null, toolbar: null }));
    }
  }

  /** Gives a claim a new passage (its selectors described from `range`), saves it and repaints. */
  private async replacePassage(claim: ClaimRecord, range: Range, done: string): Promise<boolean> {
    const passage = await describePassage(range);
    if (!passage.quote.exact) return false;
    try {
      const [saved] = (await withRetry(() => callBackground('claims.save', { claims: [{ ...claim, quote: passage.quote, position: passage.position }] })))
        .claims;
      this.ranges.set(claim.id, range);
      const changed = { ...this.store.get().changed };
      delete changed[claim.id];
      this.store.set((s) => ({ ...s, changed, claims: s.claims.map((c) => (c.id === claim.id ? saved! : c)) }));
      this.repaint();
      this.toast(done);
      return true;
    } catch (error) {
      this.onCallError(error, t('errPassage'));
      return false;
    }
  }

  private toast(text: string, tone: 'info' | 'error' = 'info', undo?: ClaimRecord[]): void {
    const id = ++this.toastSeq;
    if (undo) this.undoable.set(id, undo);
    void this.ensureUi().then(() => {
      this.store.set((s) => ({ ...s, toasts: [...s.toasts, { id, text, tone, undo: !!undo }].slice(-3) }));
      this.ctx.setTimeout(() => this.dismissToast(id), tone === 'error' ? TOAST_MS * 2 : TOAST_MS);
    });
  }

  private dismissToast(id: number): void {
    this.undoable.delete(id);
    this.store.set((s) => ({ ...s, toasts: s.toasts.filter((t) => t.id !== id) }));
  }

  private onCallError(error: unknown, what: string): void {
    if (isContextGone(error) || !this.ctx.isValid) {
      this.store.set((s) => ({ ...s, disconnected: true }));
      void this.ensureUi().catch(() => undefined);
      return;
    }
    this.toast(`${what}: ${error instanceof Error ? error.message : String(error)}`, 'error');
  }

  // ── Selection and the toolbar ────────────────────────────────────────────

  private onPointerUp(event: PointerEvent): void {
    if (this.isOurs(event)) return;
    this.ctx.setTimeout(() => this.checkSelection(), 10);
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
    // After an extension reload nothing can be saved: checking validity stops this script and shows the reload notice.
    if (!this.ctx.isValid || this.store.get().form) return;
    const range = selectedRange(window, this.ui?.shadowHost);
    if (!range) return;
    this.lastRange = range;
    const at = toolbarPosition(range, { width: innerWidth, height: innerHeight });
    void this.ensureUi().then(() => this.store.set((s) => ({ ...s, toolbar: at, card: null })));
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (event.key !== 'Escape') return;
    const s = this.store.get();
    if (s.form && this.isOurs(event)) return; // the form handles its own Escape
    if (s.form || s.toolbar || s.card) {
      this.painter.setActive([]);
      this.painter.markPending(null);
      this.store.set((st) => ({ ...st, form: null, toolbar: null, card: null }));
    } else if (s.finder) this.finder.close();
  }

  private isOurs(event: Event): boolean {
    const host = this.ui?.shadowHost;
    return !!host && event.composedPath().includes(host);
  }

  // ── The claim form ───────────────────────────────────────────────────────

  /** Opens the form for the current (or last shown) selection; false when nothing is selected. */
  openForm(): boolean {
    const range = selectedRange(window, this.ui?.shadowHost) ?? (this.store.get().toolbar ? this.lastRange : null);
    if (!range) {
      this.toast(t('toastSelectFirst'), 'error');
      return false;
    }
    this.pendingFormRange = range;
    this.formIds = [];
    void this.openFormFor(range);
    return true;
  }

  /** Opens the form on a range: prefilled from the passage, or with `prefill`'s values (a finder candidate, "not disclosed"). */
  private async openFormFor(range: Range, prefill?: (storeModels: string[]) => ClaimFormValues, candidate: string | null = null): Promise<void> {
    // Without the Navigation API (Firefox before it shipped it) an in-page navigation is seen by polling, up to a
    // second late: catch up now, so that the claim is filed under the address the page shows.
    this.onLocationChange();
    await this.ensureUi();
    this.pendingFormRange = range;
    this.formIds = [];
    const root = document.body ?? document.documentElement;
    const passage = describe(range, root, await this.indexCache.get(root));
    const detected = detectSource(document, location.href, today());
    const fields = this.sourceFields(detected);
    let storeModels: string[] = [];
    try {
      storeModels = (await callBackground('models.names', {})).names;
    } catch (error) {
      if (isContextGone(error)) return this.onCallError(error, '');
    }
    const values = prefill ? prefill(storeModels) : prefillValues(passage.quote.exact, { kind: fields.kind, models: detected.models }, storeModels);
    const rect = range.getBoundingClientRect();
    const session: FormSession = {
      mode: 'new',
      passage: { quote: passage.quote, position: passage.position },
      values,
      source: fields,
      sourceCorrected: !!this.correction,
      pageModels: detected.models,
      storeModels,
      editing: null,
      at: panelPosition(rect, FORM_SIZE, { width: innerWidth, height: innerHeight }),
      saving: false,
      error: null,
      candidate,
    };
    this.store.set((s) => ({ ...s, toolbar: null, card: null, form: session }));
    this.painter.markPending(range);
    if (candidate) range.startContainer.parentElement?.scrollIntoView({ block: 'center' });
  }

  private sourceFields(detected: ReturnType<typeof detectSource>): SourceFields {
    const c = this.correction;
    return {
      title: c?.title ?? detected.title,
      kind: c?.kind ?? detected.kind,
      publisher: (c ? c.publisher : detected.publisher) ?? '',
      published: (c ? c.published : detected.published) ?? '',
    };
  }

  private edit(id: string): void {
    const claim = this.store.get().claims.find((c) => c.id === id);
    if (!claim) return;
    const detected = detectSource(document, location.href, today());
    const range = this.ranges.get(id);
    const rect = range?.getBoundingClientRect() ?? { left: 40, top: 40, bottom: 60 };
    this.pendingFormRange = range ?? null;
    this.formIds = [];
    this.store.set((s) => ({
      ...s,
      card: null,
      form: {
        mode: 'edit',
        passage: { quote: claim.quote, position: claim.position ?? null },
        values: valuesFromClaim(claim),
        source: {
          title: claim.source.title,
          kind: claim.source.kind,
          publisher: claim.source.publisher ?? '',
          published: claim.source.published ?? '',
        },
        sourceCorrected: !!this.correction,
        pageModels: detected.models,
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
    if (!form) return;
    const setForm = (patch: Partial<FormSession>) => this.store.set((s) => (s.form ? { ...s, form: { ...s.form, ...patch } } : s));
    setForm({ saving: true, error: null });
    try {
      const accessed = form.editing?.source.accessed ?? today();
      const source = sourceFromFields(this.url, accessed, fields);
      // Ids are minted once per form: saving again after a failure reuses them, so a write that did land is overwritten, not doubled.
      let next = 0;
      const mintId = () => (this.formIds[next++] ??= mintClaimId());
      const claims = buildClaims(values, { passage: form.passage, source, suggested, now: nowTimestamp(), mintId, editing: form.editing });
      const changedSource = this.sourceChanged(fields, form.source);
      // The ids are minted here, so retrying after the service worker stopped mid-save cannot duplicate.
      const { claims: saved } = await withRetry(() => callBackground('claims.save', { claims }), {
        timeoutMs: SAVE_ATTEMPT_MS,
        onRetry: (attempt) => setForm({ saving: true, error: attempt > 1 ? t('savingSlow', attempt) : null }),
      });
      if (changedSource) {
        const { accessed: _accessed, ...override } = source;
        await callBackground('source.correct', { source: override });
        this.correction = { ...override, updated_at: nowTimestamp() };
      }
      const range = this.pendingFormRange;
      const ids = new Set(saved.map((c) => c.id));
      this.painter.markPending(null);
      this.store.set((s) => ({ ...s, form: null, claims: [...s.claims.filter((c) => !ids.has(c.id)), ...saved] }));
      if (range) for (const c of saved) this.ranges.set(c.id, range);
      if (changedSource) await this.load();
      else void this.anchorAndPaint();
      this.observe();
      document.getSelection()?.removeAllRanges();
      if (form.candidate) this.finder.accepted(form.candidate);
      const what = saved.length === 1 ? saved[0]!.value : plural(saved.length, 'claimsOne', 'claimsMany');
      this.toast(t(form.mode === 'edit' ? 'toastUpdated' : 'toastSaved', what, values.model));
    } catch (error) {
      if (isContextGone(error)) {
        setForm({ saving: false, error: t('errSaveReloaded') });
        this.store.set((s) => ({ ...s, disconnected: true }));
        return;
      }
      setForm({ saving: false, error: t('errNotSaved', error instanceof Error ? error.message : String(error)) });
    }
  }

  private sourceChanged(a: SourceFields, b: SourceFields): boolean {
    return a.title !== b.title || a.kind !== b.kind || a.publisher !== b.publisher || a.published !== b.published;
  }

  // ── Deleting and undo ────────────────────────────────────────────────────

  private async remove(ids: string[]): Promise<void> {
    try {
      const { deleted } = await callBackground('claims.delete', { ids });
      const gone = new Set(deleted.map((c) => c.id));
      for (const id of gone) this.ranges.delete(id);
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
    const claims = this.undoable.get(toastId);
    this.dismissToast(toastId);
    if (!claims?.length) return;
    try {
      await callBackground('claims.restore', { claims });
      this.store.set((s) => ({ ...s, claims: [...s.claims, ...claims] }));
      void this.anchorAndPaint();
      this.observe();
      this.toast(claims.length === 1 ? t('toastRestored') : t('toastRestoredMany', claims.length));
    } catch (error) {
      this.onCallError(error, t('errUndo'));
    }
  }

  // ── Hover and click on painted passages ──────────────────────────────────

  private onPointerMove(event: PointerEvent): void {
    if (!this.ranges.size || this.pointerFrame || this.isOurs(event)) return;
    const { clientX: x, clientY: y } = event;
    this.pointerFrame = requestAnimationFrame(() => {
      this.pointerFrame = 0;
      const card = this.store.get().card;
      if (card?.pinned || this.store.get().form) return;
      const hits = this.painter.hitTest(x, y);
      clearTimeout(this.hoverTimer);
      if (hits.length) {
        clearTimeout(this.hideTimer);
        this.painter.setActive(hits);
        this.hoverTimer = this.ctx.setTimeout(() => this.showCard(hits, x, y, false), 250);
      } else if (card || this.painter.claims().length) {
        this.painter.setActive([]);
        this.scheduleHideCard();
      }
    });
  }

  private onClick(event: MouseEvent): void {
    if (this.isOurs(event) || !this.ranges.size) {
      return;
    }
    const selection = document.getSelection();
    if (selection && !selection.isCollapsed) return;
    const hits = this.painter.hitTest(event.clientX, event.clientY);
    if (hits.length) {
      this.painter.setActive(hits);
      this.showCard(hits, event.clientX, event.clientY, true);
    } else if (this.store.get().card) {
      this.actions.closeCard();
    }
  }

  private showCard(ids: string[], x: number, y: number, pinned: boolean): void {
    void this.ensureUi().then(() => {
      const at = panelPosition({ left: x - 20, top: y - 12, bottom: y + 12 }, CARD_SIZE, { width: innerWidth, height: innerHeight });
      this.store.set((s) => (s.form ? s : { ...s, card: { ids, at, pinned } }));
    });
  }

  private scheduleHideCard(): void {
    clearTimeout(this.hideTimer);
    this.hideTimer = this.ctx.setTimeout(() => {
      const card = this.store.get().card;
      if (card && !card.pinned && !this.insideCard) this.store.set((s) => ({ ...s, card: null }));
    }, 400);
  }
}

/**
 * The page's text index, built in slices, kept while the page's DOM does not
 * change (anchoring, describing passages and the finder read the same one).
 * A change is noticed synchronously (`takeRecords`), so a stale index is never
 * handed out.
 */
class IndexCache {
  private index: TextIndex | null = null;
  private observer: MutationObserver | null = null;

  /** The index of `root`: the kept one while nothing changed, else a new one (kept when the DOM held still while it was built). */
  async get(root: Document | Element, signal?: AbortSignal): Promise<TextIndex> {
    if (this.index && this.index.root === root && !this.observer?.takeRecords().length) return this.index;
    this.drop();
    const moved = watchForChanges(root);
    const index = await buildTextIndexAsync(root, { signal });
    if (!moved.stop()) this.keep(root, index);
    return index;
  }

  /** Forgets the kept index. */
  drop(): void {
    this.observer?.disconnect();
    this.observer = null;
    this.index = null;
  }

  private keep(root: Node, index: TextIndex): void {
    this.index = index;
    this.observer = new MutationObserver(() => this.drop());
    this.observer.observe(root, { childList: true, subtree: true, characterData: true });
  }
}

/** Describes a passage's selectors from a text index built in slices: a 2 MB page costs no long task. */
async function describePassage(range: Range): Promise<ReturnType<typeof describe>> {
  const root = document.body ?? document.documentElement;
  return describe(range, root, await buildTextIndexAsync(root));
}

/** Watches `root` for changes until `stop()`, which says whether any happened. */
function watchForChanges(root: Node): { stop(): boolean } {
  let changed = false;
  const observer = new MutationObserver(() => (changed = true));
  observer.observe(root, { childList: true, subtree: true, characterData: true });
  return {
    stop() {
      if (observer.takeRecords().length) changed = true;
      observer.disconnect();
      return changed;
    },
  };
}
