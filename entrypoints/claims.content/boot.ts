/**
 * The page script that runs on every page a curator opens. It is kept small:
 * one lookup of the page's claims, a listener for the background's calls, and
 * a glance at selections. Everything else (toolbar, form, anchoring,
 * painting) is the capture script, which the background injects only when
 * this page has claims or the curator starts tagging. A page with nothing
 * stored costs one message and no DOM walk.
 */
import { browser, type Browser } from 'wxt/browser';
import type { ContentScriptContext } from 'wxt/utils/content-script-context';
import { ignoreForgedRestarts } from '../shared/forged-restart';
import { offerBridge, type CaptureSession, type PageLookup } from '../shared/capture-bridge';
import { showReloadNotice } from '../shared/reload-notice';
import { callNameOf, CHANNEL, unwrapReply } from '../../lib/messages/channel';
import { withRetry } from '../../lib/messages/retry';
import { refusal } from '../../lib/messages/roles';
import { documentUrl } from '../../lib/source/url';

type Sender = Browser.runtime.MessageSender;

/** Calls that only concern a page with claims: answered "nothing here" when it has none. */
const NOTHING_HERE: Record<string, unknown> = {
  'claims.changed': { reloaded: false },
  'passage.reveal': { found: false },
  'passage.reattach': { started: false },
  'passage.confirm': { confirmed: false },
};

/** Sends a content → background call and unwraps its answer. */
async function ask<T>(type: 'document.claims' | 'capture.load', payload: unknown): Promise<T> {
  return unwrapReply<T>(await browser.runtime.sendMessage({ channel: CHANNEL, type, payload }), type);
}

/** The small page script's state on one page. */
export class PageBoot {
  private url = documentUrl(document);
  private lookupSeq = 0;
  private last: PageLookup | null = null;
  private session: CaptureSession | null = null;
  private loading: Promise<CaptureSession> | null = null;
  /** Ends this script's own DOM listeners once the capture script takes over. */
  private readonly watching = new AbortController();

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
    const on = (target: EventTarget, type: string, handler: () => void) =>
      target.addEventListener(type, handler, { signal: this.watching.signal, passive: true });
    on(document, 'selectionchange', () => this.onSelection(false));
    on(document, 'pointerup', () => this.ctx.setTimeout(() => this.onSelection(true), 10));
    on(document, 'keyup', () => this.onSelection(true));
    // Only for claims stored under a new address: the capture script follows navigation itself once it runs.
    this.ctx.addEventListener(window, 'wxt:locationchange', () => this.ctx.setTimeout(() => this.onLocationChange(), 0));
    on(window, 'popstate', () => this.onLocationChange());
    void this.lookup().catch(() => undefined);
  }

  /** The one lookup: loads the capture script when the page has claims. */
  private async lookup(): Promise<PageLookup> {
    const seq = ++this.lookupSeq;
    const url = this.url;
    const data = await withRetry(() => ask<{ claims: PageLookup['claims']; source: PageLookup['source']; autoFind?: boolean }>('document.claims', { url }));
    const found: PageLookup = { url, claims: data.claims, source: data.source, autoFind: data.autoFind === true };
    if (seq === this.lookupSeq) this.last = found;
    // Claims to paint, or a site the curator opted in to the claim finder: the capture script is needed.
    if ((found.claims.length || found.autoFind) && !this.session) void this.load().catch(() => undefined);
    return found;
  }

  /** Injects the capture script (once) and resolves with its session. */
  private load(): Promise<CaptureSession> {
    this.loading ??= new Promise<CaptureSession>((resolve, reject) => {
      const lookup = this.last && this.last.url === this.url ? this.last : null;
      offerBridge({
        lookup,
        attach: (session) => {
          this.session = session;
          this.watching.abort();
          resolve(session);
        },
      });
      ask('capture.load', {}).catch((error: unknown) => {
        this.loading = null;
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
    return this.loading;
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
    const next = documentUrl(document);
    if (next === this.url) return;
    this.url = next;
    void this.lookup().catch(() => undefined);
  }

  /** Answers the background's calls: through the capture script when it runs (or is needed), else "nothing here". */
  private onMessage(message: unknown, sender: Sender): Promise<unknown> | undefined {
    const type = callNameOf(message);
    if (type === null) return undefined;
    if (this.session) return this.session.answer(message, sender);
    const refused = refusal('background', sender, { id: browser.runtime.id, origin: browser.runtime.getURL('/') });
    if (refused) return Promise.resolve({ ok: false, error: refused });
    return this.answerBeforeLoad(type, message, sender);
  }

  private async answerBeforeLoad(type: string, message: unknown, sender: Sender): Promise<unknown> {
    try {
      if (type in NOTHING_HERE) {
        const about = (message as { payload?: { url?: unknown } }).payload?.url;
        // A change under another address needs no lookup here.
        if (type === 'claims.changed' && typeof about === 'string' && about !== this.url) return { ok: true, data: NOTHING_HERE[type] };
        const found = await this.lookup();
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
