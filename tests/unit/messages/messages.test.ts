import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browser } from 'wxt/browser';
import { CHANNEL, type CallName, dispatch, protocol, type Role, refusal, routes, type Sender } from '../../../lib/messages';
import { claim } from '../fixtures/records';

const id = browser.runtime.id;
const SELF = { id, origin: browser.runtime.getURL('/') };
const tabSender: Sender = { id, tab: { id: 7 }, frameId: 0, url: 'https://example.org/page' };
const pageSender: Sender = { id, url: browser.runtime.getURL('/options.html') };
const viewerSender: Sender = { id, tab: { id: 8 }, frameId: 0, url: `${browser.runtime.getURL('/pdf-viewer.html')}?file=https%3A%2F%2Fa.org%2Fr.pdf` };
const backgroundSender: Sender = { id };

/** A table answering every call the background answers by echoing the request. */
function table(handler = async (req: unknown) => ({ echoed: req })) {
  const background = (Object.keys(protocol) as CallName[]).filter((type) => protocol[type].from !== 'background');
  return routes(Object.fromEntries(background.map((type) => [type, handler])));
}
const msg = (type: string, payload: unknown) => ({ channel: CHANNEL, type, payload });
const send = (message: unknown, sender: Sender, t = table()) => dispatch(t, message, sender, SELF);

describe('one protocol entry per call', () => {
  it('gives every call a role, a request schema and a doc line', () => {
    const source = readProtocolSource();
    for (const [type, entry] of Object.entries(protocol)) {
      expect(['document', 'page', 'any', 'background']).toContain(entry.from);
      expect(typeof entry.request.safeParse).toBe('function');
      expect(source.includes(`*/\n  '${type}': {`) || source.includes(`*/\n  '${type}': addressed({`), `${type} has a doc line just above it`).toBe(true);
    }
  });

  it('has no twin calls for PDFs: the viewer asks for its claims and sets its badge like a page', () => {
    expect(Object.keys(protocol).filter((type) => /^(pdf|page)\.(claims|status)$/.test(type))).toEqual([]);
    expect(protocol['document.claims'].from).toBe('document');
    expect(protocol['document.status'].from).toBe('document');
  });
});

describe('sender rules per role', () => {
  const senders: Record<string, Sender> = {
    'a content script (top frame, http(s) tab)': tabSender,
    'the PDF viewer': viewerSender,
    'an extension page': pageSender,
    'the background': backgroundSender,
    'a sub-frame content script': { ...tabSender, frameId: 3 },
    'a content script on a non-http page': { ...tabSender, url: 'file:///home/a.html' },
    'another extension': { ...tabSender, id: 'evil-extension' },
    "another extension's page": { id: 'evil-extension', url: 'chrome-extension://evil-extension/pdf-viewer.html' },
  };
  // Which senders each role admits.
  const admitted: Record<Role, string[]> = {
    document: ['a content script (top frame, http(s) tab)', 'the PDF viewer'],
    page: ['the PDF viewer', 'an extension page'],
    any: ['a content script (top frame, http(s) tab)', 'the PDF viewer', 'an extension page'],
    // A message without a tab: the service worker, or one of our pages outside a tab (it has no reason to call a document).
    background: ['the background', 'an extension page'],
  };
  const cases = (Object.keys(admitted) as Role[]).flatMap((role) => Object.keys(senders).map((name) => [role, name] as const));

  it.each(cases)('role %s: %s', (role, name) => {
    const refused = refusal(role, senders[name]!, SELF);
    if (admitted[role].includes(name)) expect(refused).toBeNull();
    else expect(refused).toMatch(/^refused: /);
  });

  it('says why in words the log reader understands', () => {
    expect(refusal('document', { ...tabSender, frameId: 3 }, SELF)).toMatch(/top frame/);
    expect(refusal('page', tabSender, SELF)).toMatch(/not from an extension page/);
    expect(refusal('document', pageSender, SELF)).toMatch(/not from a tab/);
    expect(refusal('any', { ...pageSender, id: 'evil' }, SELF)).toMatch(/another extension/);
    expect(refusal('background', tabSender, SELF)).toMatch(/not from the background/);
  });
});

describe("the PDF engine's keeper", () => {
  it('is an extension page to the sender rules (an offscreen document has no tab), so its call to let the engine go is admitted, and a page script is refused', () => {
    const keeper: Sender = { id, url: browser.runtime.getURL('/pdf-engine.html') };
    expect(refusal('page', keeper, SELF)).toBeNull();
    expect(refusal('page', tabSender, SELF)).toMatch(/^refused: /);
  });
});

describe('dispatching protocol calls', () => {
  it('answers a valid call from our content script', async () => {
    const reply = await send(msg('document.claims', { url: 'https://example.org/page' }), tabSender);
    expect(reply).toEqual({ ok: true, data: { echoed: { url: 'https://example.org/page' } } });
  });

  it('answers the PDF viewer asking for a document by fingerprint, also without an address', async () => {
    const key = { url: null, pdf: { fingerprint: 'abc', arxiv: '2501.12948' } };
    expect(await send(msg('document.claims', key), viewerSender)).toEqual({ ok: true, data: { echoed: key } });
    expect(await send(msg('document.status', { anchored: 2, orphans: 1 }), viewerSender)).toMatchObject({ ok: true });
    // A web page is known by its address.
    expect(await send(msg('document.claims', { url: null }), tabSender)).toMatchObject({ ok: false, error: expect.stringMatching(/invalid/) });
  });

  it('stays silent for messages that are not ours', async () => {
    expect(await send({ hello: 'world' }, tabSender)).toBeUndefined();
  });

  it.each([
    ['another extension', msg('document.claims', { url: 'https://a.org/' }), { ...tabSender, id: 'evil-extension' }, /another extension/],
    ['a sub-frame', msg('document.claims', { url: 'https://a.org/' }), { ...tabSender, frameId: 3 }, /top frame/],
    [
      'a content script asking for a page-only call',
      msg('import.preview', { text: '', fileName: 'x', format: 'jsonl', mode: 'merge' }),
      tabSender,
      /not from an extension page/,
    ],
    ['an extension page asking for a document call', msg('document.claims', { url: 'https://a.org/' }), pageSender, /not from a tab/],
    ['another extension asking for a shared call', msg('claims.save', { claims: [claim()] }), { ...pageSender, id: 'evil' }, /another extension/],
    ['an unknown call', msg('db.drop', {}), tabSender, /unknown call/],
    ['a call the background sends, sent to it', msg('form.open', {}), tabSender, /unknown call/],
    ['an invalid request', msg('claims.save', { claims: [{ ...claim(), evidence: 'Z' }] }), tabSender, /invalid "claims.save" request: claims.0.evidence/],
    ['an empty batch', msg('claims.delete', { ids: [] }), tabSender, /invalid/],
  ])('refuses %s', async (_name, message, sender, error) => {
    const reply = await send(message, sender as Sender);
    expect(reply?.ok).toBe(false);
    if (reply && !reply.ok) expect(reply.error).toMatch(error);
  });

  it('answers shared calls from both content scripts and pages', async () => {
    for (const sender of [tabSender, pageSender, viewerSender]) {
      const reply = await send(msg('models.names', {}), sender);
      expect(reply?.ok).toBe(true);
    }
  });

  it('turns a handler failure into an error value', async () => {
    const failing = table(async () => {
      throw new Error('database is closed');
    });
    expect(await send(msg('models.names', {}), tabSender, failing)).toEqual({ ok: false, error: 'database is closed' });
  });

  it("answers the background's calls in a document only from the background", async () => {
    const document = routes({ 'form.open': () => ({ opened: true }) });
    expect(await dispatch(document, msg('form.open', {}), backgroundSender, SELF)).toEqual({ ok: true, data: { opened: true } });
    expect(await dispatch(document, msg('form.open', {}), tabSender, SELF)).toMatchObject({ ok: false, error: expect.stringMatching(/background/) });
  });

  it('refuses to build routes for names outside the protocol', () => {
    expect(() => routes({ 'db.drop': () => ({}) } as never)).toThrow(/not a call of the protocol/);
  });
});

describe('claim finder calls', () => {
  it('lets the panel and popup run the finder in a tab, naming a candidate only to accept or dismiss it', async () => {
    const ok = [
      { tabId: 3, action: 'run' },
      { tabId: 3, action: 'undisclosed' },
      { tabId: 3, action: 'accept', key: '0123456789abcdef' },
      { tabId: 3, action: 'dismiss', key: '0123456789abcdef' },
    ];
    for (const payload of ok) expect(await send(msg('tab.finder', payload), pageSender)).toMatchObject({ ok: true });
    for (const payload of [
      { tabId: 3, action: 'accept' },
      { tabId: 3, action: 'run', key: '0123456789abcdef' },
      { tabId: 3, action: 'dismiss', key: 'not-a-key' },
      { tabId: 3, action: 'delete-everything' },
    ])
      expect(await send(msg('tab.finder', payload), pageSender)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/invalid "tab.finder"/),
      });
    expect(await send(msg('tab.finder', ok[0]), tabSender)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not from an extension page/),
    });
  });

  it('stores dismissals for content scripts and pages only, with a well-formed key', async () => {
    const payload = { url: 'https://example.org/page', key: '0123456789abcdef', sentence: 'Unlike GRPO, we use PPO.' };
    expect(await send(msg('dismissals.add', payload), tabSender)).toMatchObject({ ok: true });
    expect(await send(msg('dismissals.get', { url: payload.url }), pageSender)).toMatchObject({ ok: true });
    expect(await send(msg('dismissals.add', { ...payload, key: '<script>' }), tabSender)).toMatchObject({ ok: false });
    expect(await send(msg('dismissals.add', payload), { ...tabSender, id: 'evil' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/another extension/),
    });
  });

  it('accepts the finder sites setting only as host names', async () => {
    expect(await send(msg('settings.set', { finderSites: ['openai.com', '*.qwen.ai'] }), pageSender)).toMatchObject({ ok: true });
    expect(await send(msg('settings.set', { finderSites: ['javascript:alert(1)'] }), pageSender)).toMatchObject({ ok: false });
  });
});

/** The protocol file's text, to check each entry carries a doc line. */
function readProtocolSource(): string {
  return readFileSync(path.resolve(__dirname, '../../../lib/messages/protocol.ts'), 'utf8');
}
