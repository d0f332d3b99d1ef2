/**
 * The page script that runs on every page a curator opens. It is kept small:
 * one lookup of the page's claims, a listener for the background's calls, and
 * a glance at selections. A page with claims gets the painting script
 * (anchoring and highlights, no UI); the capture script (toolbar, form, cards,
 * finder) comes only when the curator interacts, or on a site opted in to the
 * finder, and takes the painting over. A page with nothing stored costs one
 * read of the claims index from the extension's storage (which wakes no
 * service worker), no message and no DOM walk.
 */
import { browser, type Browser } from 'wxt/browser';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { ignoreForgedRestarts } from '../shared/forged-restart';
import { offerBridge, offerPaintingBridge, type CaptureSession, type PageLookup, type PaintingHandover, type PaintingSession } from '../shared/capture-bridge';
import { callAsDocument } from '../shared/calls';
import { showReloadNotice } from '../shared/reload-notice';
import { callNameOf } from '../../lib/messages/channel';
import { withRetry } from '../../lib/messages/retry';
import { notFromBackground } from '../../lib/messages/roles';
import { pageAddress, normalizeAddress } from '../../lib/source/url';
import { addressIndexed, CLAIMS_INDEX_KEY, mayHaveClaims } from '../../lib/claims-index';

type Sender = Browser.runtime.MessageSender;

/** Calls that only concern a page with claims: answered "nothing here" when it has none. */
const NOTHING_HERE: Record<string, unknown> = {
  'claims.changed': { reloaded: false },
  'passage.reveal': { found: false },
  'passage.reattach': { started: false },
  'passage.confirm': { confirmed: false },
};

/** The small page script's state on one page. */
export class PageBoot {
  /** The page's own address (the background decides what it is filed under: `document.claims` answers with it). */
  private url = pageAddress(document).url;
  private lookupSeq = 0;
  private last: PageLookup | null = null;
  private session: CaptureSession | null = null;
  private loading: Promise<CaptureSession> | null = null;
  /** The painting script's session, until the capture script takes it over. */
  private painting: PaintingSession | null = null;
  private paintLoading: Promise<PaintingSession> | null = null;
  /** What the painting handed over for the capture script (kept until that script attached). */
  private handedOver: PaintingHandover | null = null;
  /** Ends this script's own DOM listeners once the capture script takes over. */
  private readonly watching = new AbortController();
  private pointerFrame = 0;

  constructor(private readonly ctx: ContentScriptContext) {}

  /** Starts listening and makes the page's one lookup. */
  start(): void {
    ignoreForgedRestarts();
    // This script has the browser's own API, not the promise polyfill (wxt.config.ts): an answer goes back through
    // `sendResponse`, the listener returning true to keep the channel open, as every browser supports.
    const listener = (message: unknown, sender: Sender, sendResponse: (answer: unknown) => void) => {
      const answer = this.onMessage(message, sender);
      if (!answer) return undefined;
      answer.then(sendResponse, (error: unknown) => sendResponse({ ok: false, error: error instanceof Error ? error.message : String(error) }));
      return true;
    };
    browser.runtime.onMessage.addListener(listener as never);
    this.ctx.onInvalidated(() => {
      browser.runtime.onMessage.removeListener(listener as never);
      this.watching.abort();
      // The capture script shows the notice itself; before it runs, a selection in progress means the curator was about to tag.
      if (!this.loading && document.getSelection()?.isCollapsed === false) showReloadNotice();
    });
    // Only the curator's own input counts: events a page's script made (isTrusted false) are ignored.
    const on = (target: EventTarget, type: string, handler: () => void) =>
      target.addEventListener(type, (event) => event.isTrusted && handler(), { signal: this.watching.signal, passive: true });
    on(document, 'selectionchange', () => this.onSelection(false));
    on(document, 'pointerup', () => this.ctx.setTimeout(() => this.onSelection(true), 10));
    on(document, 'keyup', () => this.onSelection(true));
    // Only for claims stored under a new address: the capture script follows navigation itself once it runs.
    this.ctx.addEventListener(window, 'wxt:locationchange', () => this.ctx.setTimeout(() => this.onLocationChange(), 0));
    on(window, 'popstate', () => this.onLocationChange());
    void this.lookupIfIndexed().catch(() => undefined);
  }

  /**
   * The lookup, made only when the claims index says the page may have claims (its address or its canonical link is
   * in it, or its site is opted in to the finder). Reading the index wakes no service worker; without a readable
   * index the page asks, as before there was one.
   */
  private async lookupIfIndexed(): Promise<void> {
    const { url, canonical } = pageAddress(document);
    const stored = await browser.storage.local.get(CLAIMS_INDEX_KEY).catch(() => ({}) as Record<string, unknown>);
    const index = (stored as Record<string, unknown>)[CLAIMS_INDEX_KEY];
    const addresses = [url, canonical ? normalizeAddress(canonical) : null];
    if (mayHaveClaims(index, addresses, location.hostname.toLowerCase())) {
      // One of the page's addresses is in the index: it has claims (a rare false match of a 32-bit hash aside), so the
      // painting script is fetched while the lookup is under way, not after it.
      await this.lookup(addressIndexed(index, addresses));
      return;
    }
    // Nothing stored here. A lookup made for an address before is no longer this page's; the capture script, if it
    // comes, asks for itself. Painting left from the address before (an in-page navigation) shows nothing now.
    this.lookupSeq++;
    this.last = null;
    if (this.painting && !this.session && !this.loading) void this.painting.show({ url, asked: url, claims: [], source: null }).catch(() => undefined);
  }

  /**
   * The one lookup: loads the painting script when the page has claims (with `early`, while the lookup is under way),
   * the capture script on a finder site.
   */
  private async lookup(early = false): Promise<PageLookup> {
    const seq = ++this.lookupSeq;
    const { url, canonical } = pageAddress(document);
    // The answer as it came (its site too, for the capture script's detector), with the address it was asked from.
    const asking = withRetry(() => callAsDocument('document.claims', { url, canonical })).then(
      (data): PageLookup => ({ ...data, url: data.url ?? url, asked: url, autoFind: data.autoFind === true }),
    );
    // The painting script shows this lookup itself once it has the answer.
    const shownByPainting = early && !this.session && !this.loading && !this.painting && !this.paintLoading;
    if (shownByPainting) void this.loadPainting(asking).catch(() => undefined);
    const found = await asking;
    if (seq === this.lookupSeq) this.last = found;
    if (this.session || this.loading) return found;
    // A site the curator opted in to the claim finder: the capture script is needed at once.
    if (found.autoFind) void this.load().catch(() => undefined);
    else if (shownByPainting) return found;
    // The painting script shows every address's claims, none included, once it runs.
    else if (this.painting) void this.painting.show(found).catch(() => undefined);
    else if (found.claims.length) void this.loadPainting(Promise.resolve(found)).catch(() => undefined);
    return found;
  }

  /** Injects the painting script (once) with a lookup (its answer may still be on its way), and resolves with its session. */
  private loadPainting(lookup: Promise<PageLookup>): Promise<PaintingSession> {
    this.paintLoading ??= new Promise<PaintingSession>((resolve, reject) => {
      offerPaintingBridge({
        lookup,
        attach: (session) => {
          this.painting = session;
          // Painted passages show their card on hover and click: the capture script is loaded for them.
          const options = { signal: this.watching.signal, passive: true };
          document.addEventListener('pointermove', (e) => this.onPointer('move', e), options);
          document.addEventListener('click', (e) => this.onPointer('click', e), options);
          resolve(session);
        },
        // Orphans are shown to the curator: that is the capture script's UI.
        needsCapture: () => void this.load().catch(() => undefined),
      });
      callAsDocument('paint.load', {}).catch((error: unknown) => {
        this.paintLoading = null;
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
    return this.paintLoading;
  }

  /** Injects the capture script (once), handing it the painting, and resolves with its session. */
  private load(): Promise<CaptureSession> {
    this.loading ??= (async () => {
      // A painting script on its way is waited for, so that its work is taken over rather than done twice.
      await this.paintLoading?.catch(() => undefined);
      return new Promise<CaptureSession>((resolve, reject) => {
        const lookup = this.last && this.last.asked === this.url ? this.last : null;
        // Handed over once: a load that failed and is tried again passes the same painting on, not a fresh start.
        this.handedOver ??= this.painting?.handOver() ?? null;
        const painting = this.handedOver;
        this.painting = null;
        offerBridge({
          lookup,
          painting,
          attach: (session) => {
            this.session = session;
            this.watching.abort();
            resolve(session);
          },
        });
        // Where the highlights' stylesheet is inserted (Firefox), it comes with the painting script; without one, with this script.
        callAsDocument('capture.load', { styles: !painting }).catch((error: unknown) => {
          this.loading = null;
          reject(error instanceof Error ? error : new Error(String(error)));
        });
      });
    })();
    return this.loading;
  }

  /** The pointer moved over or clicked a painted passage: the capture script shows its card. */
  private onPointer(kind: 'move' | 'click', event: MouseEvent): void {
    const painting = this.painting;
    if (!event.isTrusted || !painting || this.loading || !this.ctx.isValid) return;
    const { clientX: x, clientY: y } = event;
    const passOn = () =>
      void this.load().then(
        (session) => session.pointer(kind, x, y),
        () => undefined,
      );
    if (kind === 'click') {
      if (painting.hits(x, y)) passOn();
      return;
    }
    // A move is looked at once a frame: the hit test reads the layout.
    if (this.pointerFrame) return;
    this.pointerFrame = requestAnimationFrame(() => {
      this.pointerFrame = 0;
      if (this.painting && !this.loading && this.painting.hits(x, y)) passOn();
    });
  }

  private onSelection(settled: boolean): void {
    if (!this.ctx.isValid) return;
    // The capture script attached between the event and now: it missed this event, so hand the selection over.
    if (this.session) {
      if (settled) this.session.checkSelection();
      return;
    }
    const selection = document.getSelection();
    if (!selection || selection.isCollapsed) return;
    // While the curator drags, the capture script is already on its way: the selection's text need not be read again.
    if (!settled && this.loading) return;
    if (!selection.toString().trim()) return;
    // Loading starts while the curator is still selecting; the toolbar is offered once the selection is made.
    const loading = this.load();
    if (settled) void loading.then((session) => session.checkSelection()).catch(() => undefined);
  }

  private onLocationChange(): void {
    if (this.session) return;
    const next = pageAddress(document).url;
    if (next === this.url) return;
    this.url = next;
    void this.lookupIfIndexed().catch(() => undefined);
  }

  /** Answers the background's calls: through the capture script when it runs (or is needed), else "nothing here". */
  private onMessage(message: unknown, sender: Sender): Promise<unknown> | undefined {
    const type = callNameOf(message);
    if (type === null) return undefined;
    if (this.session) return this.session.answer(message, sender);
    const refused = notFromBackground(sender, { id: browser.runtime.id, origin: browser.runtime.getURL('/') });
    if (refused) return Promise.resolve({ ok: false, error: refused });
    return this.answerBeforeLoad(type, message, sender);
  }

  private async answerBeforeLoad(type: string, message: unknown, sender: Sender): Promise<unknown> {
    try {
      if (type in NOTHING_HERE) {
        const about = (message as { payload?: { url?: unknown } }).payload?.url;
        // A change under another address needs no lookup here.
        if (type === 'claims.changed' && typeof about === 'string' && about !== (this.last?.url ?? this.url)) return { ok: true, data: NOTHING_HERE[type] };
        const found = await this.lookup();
        // The painting script shows the lookup just made: a change notice is answered by it.
        if (type === 'claims.changed' && (this.painting || this.paintLoading)) return { ok: true, data: { reloaded: true } };
        if (!found.claims.length) return { ok: true, data: NOTHING_HERE[type] };
        const session = await this.load();
        // The session starts from the lookup just made: a change notice is already answered by it.
        if (type === 'claims.changed') return { ok: true, data: { reloaded: true } };
        return session.answer(message, sender);
      }
      const session = await this.load();
      return session.answer(message, sender);
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
