// The small page script: one lookup, the painting script for a page with claims, the capture script only when needed
// (taking the painting over), calls answered before it runs.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { ContentScriptContext } from 'wxt/utils/content-script-context';
import { PageBoot } from '../../../entrypoints/claims.content/boot';
import {
  type CaptureBridge,
  type CaptureSession,
  type PageLookup,
  type PaintingBridge,
  type PaintingHandover,
  type PaintingSession,
  takeBridge,
  takePaintingBridge,
} from '../../../entrypoints/shared/capture-bridge';
import { CHANNEL } from '../../../lib/messages/channel';
import { buildClaimsIndex, CLAIMS_INDEX_KEY } from '../../../lib/claims-index';
import { asCurator } from '../../support/trusted';
import type { ClaimRecord } from '../../../lib/schema';

const PAGE = 'https://example.com/blog/model';
const fromBackground = { id: fakeBrowser.runtime.id } as never;

interface Harness {
  sent: Array<{ type: string; payload: unknown }>;
  /** What the page script handed to the capture script. */
  handed: unknown;
  /** The whole bridge the capture script took. */
  bridge: CaptureBridge | null;
  /** The bridge the painting script took. */
  paintBridge: PaintingBridge | null;
  answered: unknown[];
  pointers: Array<[string, number, number]>;
  session: CaptureSession & { checks: number };
  painting: PaintingSession & { shown: PageLookup[]; handedOver: number; hit: boolean };
  ctx: ContentScriptContext;
}

/** Stands in for the background: answers lookups with `claims`, and "injects" the capture script by attaching a session. */
function start(claims: unknown[], autoFind = false, answered: Promise<void> = Promise.resolve()): Harness {
  const h: Harness = {
    sent: [],
    handed: undefined,
    bridge: null,
    paintBridge: null,
    answered: [],
    pointers: [],
    painting: {
      shown: [],
      handedOver: 0,
      hit: false,
      show: async (lookup) => {
        h.painting.shown.push(lookup);
      },
      reload: async () => undefined,
      hits: () => h.painting.hit,
      handOver: () => {
        h.painting.handedOver++;
        return HANDOVER;
      },
    },
    session: {
      checks: 0,
      answer: (message) => {
        h.answered.push(message);
        return Promise.resolve({ ok: true, data: { from: 'session' } });
      },
      checkSelection() {
        h.session.checks++;
      },
      pointer(kind, x, y) {
        h.pointers.push([kind, x, y]);
      },
    },
    ctx: new ContentScriptContext('claims'),
  };
  vi.spyOn(fakeBrowser.runtime, 'sendMessage').mockImplementation((async (message: { type: string; payload: unknown }) => {
    h.sent.push({ type: message.type, payload: message.payload });
    if (message.type === 'document.claims') {
      await answered;
      return { ok: true, data: { claims, source: null, autoFind } };
    }
    if (message.type === 'capture.load') {
      const bridge = takeBridge();
      h.bridge = bridge;
      h.handed = bridge?.lookup;
      queueMicrotask(() => bridge?.attach(h.session));
      return { ok: true, data: { loaded: true } };
    }
    if (message.type === 'paint.load') {
      const bridge = takePaintingBridge();
      h.paintBridge = bridge;
      queueMicrotask(() => bridge?.attach(h.painting));
      return { ok: true, data: { loaded: true } };
    }
    return { ok: false, error: 'unexpected' };
  }) as never);
  new PageBoot(h.ctx).start();
  return h;
}

/** What the fake painting script hands over (the page script passes it on untouched). */
const HANDOVER = { surface: {}, painter: {}, state: null } as unknown as PaintingHandover;

/** Selects the page's paragraph and releases the key, as a curator's keyboard selection ends. */
function selectParagraph(): void {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector('p')!);
  getSelection()!.removeAllRanges();
  getSelection()!.addRange(range);
  document.dispatchEvent(asCurator(new Event('keyup')));
}

const settle = () => new Promise((r) => setTimeout(r, 20));
/**
 * Delivers a message to the page script's listener as the browser does, and returns every listener's answer: the page
 * script (without the polyfill) answers through `sendResponse` and returns true; a listener that does not answer
 * returns undefined.
 */
async function deliver(message: unknown, sender: unknown): Promise<unknown[]> {
  let respond: (answer: unknown) => void = () => undefined;
  const answered = new Promise((resolve) => (respond = resolve));
  const trigger = fakeBrowser.runtime.onMessage.trigger as (...args: unknown[]) => Promise<unknown[]>;
  const returned = await trigger(message, sender, respond);
  return Promise.all(returned.map((r) => (r === true ? answered : r)));
}
const call = (type: string, payload: unknown) => deliver({ channel: CHANNEL, type, payload }, fromBackground);

beforeEach(() => {
  fakeBrowser.reset();
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(PAGE);
  document.body.innerHTML = '<p>GRPO was used for the reasoning stage.</p>';
});
afterEach(() => vi.restoreAllMocks());

describe('a page with nothing stored', () => {
  it('costs one lookup and loads nothing', async () => {
    const h = start([]);
    await settle();
    expect(h.sent).toEqual([{ type: 'document.claims', payload: { url: PAGE, canonical: null } }]);
    h.ctx.abort();
  });

  it("ignores a page's synthetic events: its own selection and pretend keys and clicks load nothing", async () => {
    const h = start([]);
    await settle();
    const range = document.createRange();
    range.selectNodeContents(document.querySelector('p')!);
    getSelection()!.removeAllRanges();
    getSelection()!.addRange(range);
    document.dispatchEvent(new KeyboardEvent('keyup', { key: 'Shift', shiftKey: true }));
    document.dispatchEvent(new PointerEvent('pointerup'));
    document.dispatchEvent(new Event('selectionchange'));
    await settle();
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims']);
    // The curator's own key does.
    document.dispatchEvent(asCurator(new Event('keyup')));
    await settle();
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims', 'capture.load']);
    h.ctx.abort();
  });

  it('answers "nothing here" to calls about claims, a change elsewhere without even a lookup', async () => {
    const h = start([]);
    await settle();
    expect(await call('claims.changed', { url: 'https://other.example/' })).toEqual([{ ok: true, data: { reloaded: false } }]);
    expect(h.sent.filter((m) => m.type === 'document.claims')).toHaveLength(1);
    expect(await call('passage.reveal', { id: 'clm_x' })).toEqual([{ ok: true, data: { found: false } }]);
    expect(await call('passage.confirm', { id: 'clm_x' })).toEqual([{ ok: true, data: { confirmed: false } }]);
    expect(h.sent.some((m) => m.type === 'capture.load')).toBe(false);
    h.ctx.abort();
  });

  it('loads the capture script for the form, and hands it the call', async () => {
    const h = start([]);
    await settle();
    expect(await call('form.open', {})).toEqual([{ ok: true, data: { from: 'session' } }]);
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims', 'capture.load']);
    // No painting ran: the capture script brings the highlights' stylesheet.
    expect(h.sent[1]!.payload).toEqual({ styles: true });
    expect(h.answered).toHaveLength(1);
    // Once loaded, every call goes to the session.
    await call('passage.reveal', { id: 'clm_x' });
    expect(h.answered).toHaveLength(2);
    h.ctx.abort();
  });

  it('loads the capture script for the claim finder, and hands it the call', async () => {
    const h = start([]);
    await settle();
    expect(await call('finder.run', {})).toEqual([{ ok: true, data: { from: 'session' } }]);
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims', 'capture.load']);
    expect(h.answered).toEqual([{ channel: CHANNEL, type: 'finder.run', payload: {} }]);
    h.ctx.abort();
  });

  it('loads the capture script once a selection is made, and offers the toolbar for it', async () => {
    const h = start([]);
    await settle();
    selectParagraph();
    await settle();
    expect(h.sent.filter((m) => m.type === 'capture.load')).toHaveLength(1);
    expect(h.session.checks).toBe(1);
    h.ctx.abort();
  });

  it('refuses calls that do not come from the background, and ignores messages not ours', async () => {
    const h = start([]);
    await settle();
    const fromTab = { id: fakeBrowser.runtime.id, tab: { id: 3 } } as never;
    const [refused] = await deliver({ channel: CHANNEL, type: 'form.open', payload: {} }, fromTab);
    expect(refused).toMatchObject({ ok: false });
    expect(await deliver({ hello: 'world' }, fromBackground)).toEqual([undefined]);
    expect(h.sent.some((m) => m.type === 'capture.load')).toBe(false);
    h.ctx.abort();
  });
});

describe('a page with claims', () => {
  const claim = { id: 'clm_boot_000001' } as ClaimRecord;

  it('loads the painting script (not the capture script) after the one lookup and hands over what it found', async () => {
    const h = start([claim]);
    await settle();
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims', 'paint.load']);
    expect(await h.paintBridge?.lookup).toEqual({ url: PAGE, asked: PAGE, claims: [claim], source: null, autoFind: false });
    h.ctx.abort();
  });

  it('answers a change notice through the painting script, which shows the new lookup', async () => {
    const h = start([claim]);
    await settle();
    expect(await call('claims.changed', { url: PAGE })).toEqual([{ ok: true, data: { reloaded: true } }]);
    expect(h.painting.shown).toEqual([{ url: PAGE, asked: PAGE, claims: [claim], source: null, autoFind: false }]);
    expect(h.sent.some((m) => m.type === 'capture.load')).toBe(false);
    h.ctx.abort();
  });

  it('loads the capture script for a selection, handing it the painting', async () => {
    const h = start([claim]);
    await settle();
    selectParagraph();
    await settle();
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims', 'paint.load', 'capture.load']);
    // The painting brought the highlights' stylesheet: the capture script does not bring it again.
    expect(h.sent[2]!.payload).toEqual({ styles: false });
    expect(h.painting.handedOver).toBe(1);
    expect(h.bridge?.painting).toBe(HANDOVER);
    expect(h.session.checks).toBe(1);
    h.ctx.abort();
  });

  it('loads the capture script for a click on a painted passage and passes the click on; a click elsewhere loads nothing', async () => {
    const h = start([claim]);
    await settle();
    document.dispatchEvent(asCurator(new MouseEvent('click', { clientX: 5, clientY: 6 })));
    await settle();
    expect(h.sent.some((m) => m.type === 'capture.load')).toBe(false);
    h.painting.hit = true;
    document.dispatchEvent(asCurator(new MouseEvent('click', { clientX: 15, clientY: 16 })));
    await settle();
    expect(h.sent.filter((m) => m.type === 'capture.load')).toHaveLength(1);
    expect(h.pointers).toEqual([['click', 15, 16]]);
    h.ctx.abort();
  });

  it('passes the same painting on when loading the capture script failed and is tried again', async () => {
    const h = start([claim]);
    await settle();
    const send = fakeBrowser.runtime.sendMessage as unknown as { getMockImplementation(): (m: unknown) => Promise<unknown> };
    const answer = send.getMockImplementation();
    let failures = 1;
    vi.spyOn(fakeBrowser.runtime, 'sendMessage').mockImplementation((async (message: { type: string }) => {
      if (message.type === 'capture.load' && failures-- > 0) throw new Error('The message port closed before a response was received.');
      return answer(message);
    }) as never);
    expect(await call('form.open', {})).toEqual([{ ok: false, error: 'The message port closed before a response was received.' }]);
    expect(await call('form.open', {})).toEqual([{ ok: true, data: { from: 'session' } }]);
    expect(h.painting.handedOver).toBe(1);
    expect(h.bridge?.painting).toBe(HANDOVER);
    h.ctx.abort();
  });

  it('loads the capture script when the painting found orphans (they are shown to the curator)', async () => {
    const h = start([claim]);
    await settle();
    expect(h.sent.some((m) => m.type === 'capture.load')).toBe(false);
    h.paintBridge?.needsCapture();
    await settle();
    expect(h.sent.filter((m) => m.type === 'capture.load')).toHaveLength(1);
    expect(h.bridge?.painting).toBe(HANDOVER);
    h.ctx.abort();
  });

  it('loads the capture script for the form, handing it the painting, and gives it every call from then on', async () => {
    const h = start([claim]);
    await settle();
    expect(await call('form.open', {})).toEqual([{ ok: true, data: { from: 'session' } }]);
    expect(h.bridge?.painting).toBe(HANDOVER);
    await call('claims.changed', { url: PAGE });
    expect(h.answered).toHaveLength(2);
    expect(h.painting.shown).toEqual([]);
    h.ctx.abort();
  });
});

describe('a site the curator opted in to the claim finder', () => {
  it('loads the capture script after the lookup even without claims, handing over that the finder runs by itself', async () => {
    const h = start([], true);
    await settle();
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims', 'capture.load']);
    expect(h.handed).toEqual({ url: PAGE, asked: PAGE, claims: [], source: null, autoFind: true });
    h.ctx.abort();
  });
});

describe('the claims index: a page with nothing stored sends no message', () => {
  const OTHER = 'https://example.com/blog/other-model';
  const index = (addresses: string[], sites: string[] = []) => fakeBrowser.storage.local.set({ [CLAIMS_INDEX_KEY]: buildClaimsIndex(addresses, sites) });

  it('stays silent when the index has neither its address nor its site', async () => {
    await index([OTHER]);
    const h = start([]);
    await settle();
    expect(h.sent).toEqual([]);
    h.ctx.abort();
  });

  it('looks up a page whose address the index holds, and one whose canonical link it holds (the painting script fetched beside the lookup)', async () => {
    await index([PAGE]);
    const h = start([]);
    await settle();
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims', 'paint.load']);
    // The index was stale here (no claims came back): the painting script shows the empty answer, nothing else loads.
    expect(await h.paintBridge?.lookup).toMatchObject({ url: PAGE, claims: [] });
    h.ctx.abort();

    await index(['https://example.com/canonical-model']);
    document.head.innerHTML = '<link rel="canonical" href="https://example.com/canonical-model#top">';
    const c = start([]);
    await settle();
    expect(c.sent).toEqual([
      { type: 'document.claims', payload: { url: PAGE, canonical: 'https://example.com/canonical-model#top' } },
      { type: 'paint.load', payload: {} },
    ]);
    document.head.innerHTML = '';
    c.ctx.abort();
  });

  it('asks for the painting script beside the lookup when the index holds the page, and the painting script shows the answer when it comes', async () => {
    await index([PAGE]);
    let answer: () => void = () => undefined;
    const h = start([{ id: 'clm_boot_000001' } as ClaimRecord], false, new Promise<void>((resolve) => (answer = resolve)));
    await settle();
    // Both asked before the lookup is answered; the painting script is running and waits for the answer.
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims', 'paint.load']);
    expect(h.paintBridge).not.toBeNull();
    let arrived: unknown = null;
    void h.paintBridge!.lookup.then((lookup) => (arrived = lookup));
    await settle();
    expect(arrived).toBeNull();
    answer();
    await settle();
    expect(arrived).toEqual({ url: PAGE, asked: PAGE, claims: [{ id: 'clm_boot_000001' }], source: null, autoFind: false });
    // Shown once, by the painting script from its bridge: the page script does not show it again.
    expect(h.painting.shown).toEqual([]);
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims', 'paint.load']);
    h.ctx.abort();
  });

  it('does not fetch the painting script early for a finder site alone (its pages need the capture script)', async () => {
    await index([OTHER], ['example.com']);
    const h = start([], true);
    await settle();
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims', 'capture.load']);
    h.ctx.abort();
  });

  it('looks up every page of a site opted in to the finder', async () => {
    await index([OTHER], ['example.com']);
    const h = start([], true);
    await settle();
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims', 'capture.load']);
    h.ctx.abort();
  });

  it('asks when the stored index is not one it can read', async () => {
    await fakeBrowser.storage.local.set({ [CLAIMS_INDEX_KEY]: { version: 99, keys: 'zzz' } });
    const h = start([]);
    await settle();
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims']);
    h.ctx.abort();
  });

  it('follows an in-page navigation: an indexed address is looked up, and the painting from the address before shows nothing on an unindexed one', async () => {
    await index([PAGE, OTHER]);
    const h = start([{ id: 'clm_boot_000001' } as ClaimRecord]);
    await settle();
    expect(h.paintBridge).not.toBeNull();
    await index([PAGE]);
    history.pushState(null, '', '/blog/unindexed');
    window.dispatchEvent(asCurator(new PopStateEvent('popstate')));
    await settle();
    expect(h.sent.map((m) => m.type)).toEqual(['document.claims', 'paint.load']);
    expect(h.painting.shown.at(-1)).toMatchObject({ claims: [], url: 'https://example.com/blog/unindexed' });
    h.ctx.abort();
  });
});
