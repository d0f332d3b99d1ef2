import { describe, expect, it } from 'vitest';
import { browser } from 'wxt/browser';
import {
  CHANNEL,
  anyToBackground,
  contentToBackground,
  dispatch,
  fromOurBackground,
  fromOurContentScript,
  fromOurContentScriptOrPage,
  fromOurPage,
  pageToBackground,
  routes,
} from '../../lib/messages';
import { claim } from './fixtures/records';

const id = browser.runtime.id;
const tabSender = { id, tab: { id: 7 } as never, frameId: 0, url: 'https://example.org/page' };
const pageSender = { id, url: browser.runtime.getURL('/options.html') };

function table(handler = async (req: unknown) => ({ echoed: req })) {
  const content = Object.fromEntries(Object.keys(contentToBackground).map((k) => [k, handler]));
  const pages = Object.fromEntries(Object.keys(pageToBackground).map((k) => [k, handler]));
  const shared = Object.fromEntries(Object.keys(anyToBackground).map((k) => [k, handler]));
  return routes([
    { schemas: contentToBackground, rule: fromOurContentScript, handlers: content },
    { schemas: anyToBackground, rule: fromOurContentScriptOrPage, handlers: shared },
    { schemas: pageToBackground, rule: fromOurPage, handlers: pages },
  ]);
}
const msg = (type: string, payload: unknown) => ({ channel: CHANNEL, type, payload });

describe('dispatching protocol calls', () => {
  it('answers a valid call from our content script', async () => {
    const reply = await dispatch(table(), msg('page.claims', { url: 'https://example.org/page' }), tabSender);
    expect(reply).toEqual({ ok: true, data: { echoed: { url: 'https://example.org/page' } } });
  });

  it('stays silent for messages that are not ours', async () => {
    expect(await dispatch(table(), { hello: 'world' }, tabSender)).toBeUndefined();
  });

  it.each([
    ['another extension', msg('page.claims', { url: 'https://a.org/' }), { ...tabSender, id: 'evil-extension' }, /another extension/],
    ['a sub-frame', msg('page.claims', { url: 'https://a.org/' }), { ...tabSender, frameId: 3 }, /top frame/],
    [
      'a content script asking for a page-only call',
      msg('import.preview', { text: '', fileName: 'x', format: 'jsonl', mode: 'merge' }),
      tabSender,
      /not from an extension page/,
    ],
    ['a page asking for a content-only call', msg('page.claims', { url: 'https://a.org/' }), pageSender, /not from a tab/],
    ['another extension asking for a shared call', msg('claims.save', { claims: [claim()] }), { ...pageSender, id: 'evil' }, /another extension/],
    ['an unknown call', msg('db.drop', {}), tabSender, /unknown call/],
    ['an invalid request', msg('claims.save', { claims: [{ ...claim(), evidence: 'Z' }] }), tabSender, /invalid "claims.save" request: claims.0.evidence/],
    ['an empty batch', msg('claims.delete', { ids: [] }), tabSender, /invalid/],
  ])('refuses %s', async (_name, message, sender, error) => {
    const reply = await dispatch(table(), message, sender as never);
    expect(reply?.ok).toBe(false);
    if (reply && !reply.ok) expect(reply.error).toMatch(error);
  });

  it('answers shared calls from both content scripts and pages', async () => {
    for (const sender of [tabSender, pageSender]) {
      const reply = await dispatch(table(), msg('models.names', {}), sender as never);
      expect(reply?.ok).toBe(true);
    }
  });

  it('turns a handler failure into an error value', async () => {
    const failing = table(async () => {
      throw new Error('database is closed');
    });
    expect(await dispatch(failing, msg('models.names', {}), tabSender)).toEqual({ ok: false, error: 'database is closed' });
  });

  it('accepts background messages in content scripts only without a tab', () => {
    expect(fromOurBackground({ id })).toBeNull();
    expect(fromOurBackground({ id, tab: { id: 1 } as never })).toMatch(/not from the background/);
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
    for (const payload of ok) expect(await dispatch(table(), msg('tab.finder', payload), pageSender as never)).toMatchObject({ ok: true });
    for (const payload of [
      { tabId: 3, action: 'accept' },
      { tabId: 3, action: 'run', key: '0123456789abcdef' },
      { tabId: 3, action: 'dismiss', key: 'not-a-key' },
      { tabId: 3, action: 'delete-everything' },
    ])
      expect(await dispatch(table(), msg('tab.finder', payload), pageSender as never)).toMatchObject({
        ok: false,
        error: expect.stringMatching(/invalid "tab.finder"/),
      });
    expect(await dispatch(table(), msg('tab.finder', ok[0]), tabSender)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not from an extension page/),
    });
  });

  it('stores dismissals for content scripts and pages only, with a well-formed key', async () => {
    const payload = { url: 'https://example.org/page', key: '0123456789abcdef', sentence: 'Unlike GRPO, we use PPO.' };
    expect(await dispatch(table(), msg('dismissals.add', payload), tabSender)).toMatchObject({ ok: true });
    expect(await dispatch(table(), msg('dismissals.get', { url: payload.url }), pageSender as never)).toMatchObject({ ok: true });
    expect(await dispatch(table(), msg('dismissals.add', { ...payload, key: '<script>' }), tabSender)).toMatchObject({ ok: false });
    expect(await dispatch(table(), msg('dismissals.add', payload), { ...tabSender, id: 'evil' } as never)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/another extension/),
    });
  });

  it('accepts the finder sites setting only as host names', async () => {
    expect(await dispatch(table(), msg('settings.set', { finderSites: ['openai.com', '*.qwen.ai'] }), pageSender as never)).toMatchObject({ ok: true });
    expect(await dispatch(table(), msg('settings.set', { finderSites: ['javascript:alert(1)'] }), pageSender as never)).toMatchObject({ ok: false });
  });
});
