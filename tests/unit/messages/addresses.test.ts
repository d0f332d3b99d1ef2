// Addresses a sender names are claims (issue 24): the document address rule, and the sender rule of every call
// that names an address, through the same dispatch the background runs (with the Public Suffix List's sites).
import { describe, expect, it } from 'vitest';
import { browser } from 'wxt/browser';
import { CHANNEL, type CallName, dispatch, protocol, routes, type Sender } from '../../../lib/messages';
import { addressRefusal, documentAddress } from '../../../lib/messages/addresses';
import { sameSite } from '../../../lib/source/url';
import { siteOf } from '../../../lib/source/sites';
import { claim } from '../fixtures/records';

const id = browser.runtime.id;
const SELF = { id, origin: browser.runtime.getURL('/'), siteOf };
const inTab = (url: string): Sender => ({ id, tab: { id: 7 }, frameId: 0, url });
const viewer = (file: string | null): Sender => ({
  id,
  tab: { id: 8 },
  frameId: 0,
  url: `${browser.runtime.getURL('/pdf-viewer.html')}${file === null ? '' : `?file=${encodeURIComponent(file)}`}`,
});
const options: Sender = { id, url: browser.runtime.getURL('/options.html') };

describe('sites by the Public Suffix List', () => {
  it.each([
    ['https://a.github.io/x', 'https://b.github.io/x', false],
    ['https://x.readthedocs.io/en/latest/', 'https://y.readthedocs.io/en/latest/', false],
    ['https://a.notion.site/p', 'https://b.notion.site/p', false],
    ['https://shop.other.com.mx/', 'https://www.other.com.mx/', true],
    ['https://uno.com.mx/', 'https://dos.com.mx/', false],
    ['https://blog.example.co.uk/a', 'https://example.co.uk/b', true],
    ['https://www.example.com/a', 'https://example.com/b', true],
    ['http://127.0.0.1:8080/a', 'http://127.0.0.1:9090/b', true],
    ['http://127.0.0.1/a', 'http://127.0.0.2/a', false],
  ])('%s and %s on one site: %s', (a, b, same) => {
    expect(sameSite(a, b, siteOf)).toBe(same);
  });
});

describe('a page’s address', () => {
  it('is the browser’s, with a canonical link honoured on the same registrable domain only', () => {
    expect(documentAddress('https://www.example.com/post?utm_source=x#top', null, 'https://example.com/post', siteOf)).toBe('https://example.com/post');
    expect(documentAddress('https://a.github.io/card', null, 'https://b.github.io/card', siteOf)).toBe('https://a.github.io/card');
    expect(documentAddress('https://a.readthedocs.io/rl.html', null, 'https://b.readthedocs.io/rl.html', siteOf)).toBe('https://a.readthedocs.io/rl.html');
    expect(documentAddress('https://a.github.io/card', null, '/card/', siteOf)).toBe('https://a.github.io/card/');
    expect(documentAddress('https://a.github.io/card', null, 'javascript:alert(1)', siteOf)).toBe('https://a.github.io/card');
  });

  it('follows the page script’s address on the same origin only (the History API), never another origin', () => {
    expect(documentAddress('https://app.example.com/', 'https://app.example.com/models/glm-5', null, siteOf)).toBe('https://app.example.com/models/glm-5');
    expect(documentAddress('https://app.example.com/', 'https://docs.example.com/models', null, siteOf)).toBe('https://app.example.com/');
    expect(documentAddress('https://a.github.io/', 'https://b.github.io/card', null, siteOf)).toBe('https://a.github.io/');
  });
});

describe('who may speak for an address', () => {
  it('a page: its own site only', () => {
    expect(addressRefusal('https://a.github.io/other', inTab('https://a.github.io/card'), SELF, siteOf)).toBeNull();
    expect(addressRefusal('https://b.github.io/card', inTab('https://a.github.io/card'), SELF, siteOf)).toMatch(/own site/);
    expect(addressRefusal(null, inTab('https://a.github.io/card'), SELF, siteOf)).toMatch(/address/);
  });

  it('the PDF viewer: the report its address names; a local file any address the curator gives it', () => {
    expect(addressRefusal('https://arxiv.org/pdf/2505.09388', viewer('https://arxiv.org/pdf/2505.09388#page=3'), SELF, siteOf)).toBeNull();
    expect(addressRefusal('https://evil.example/x.pdf', viewer('https://arxiv.org/pdf/2505.09388'), SELF, siteOf)).toMatch(/report it shows/);
    expect(addressRefusal(null, viewer('https://arxiv.org/pdf/2505.09388'), SELF, siteOf)).toBeNull();
    expect(addressRefusal('https://arxiv.org/abs/2505.09388', viewer('file:///home/me/report.pdf'), SELF, siteOf)).toBeNull();
  });

  it('our other pages: any address (the curator’s own store)', () => {
    expect(addressRefusal('https://b.github.io/card', options, SELF, siteOf)).toBeNull();
  });
});

describe('the sender rule of every call that names an address', () => {
  const addressed = (Object.keys(protocol) as CallName[]).filter((type) => 'speaksFor' in protocol[type]);
  const echo = routes(Object.fromEntries(addressed.map((type) => [type, async () => ({ ran: true })])));
  const own = 'https://a.github.io/card';
  const neighbour = 'https://b.github.io/card';
  const requests = (url: string): Record<string, unknown> => ({
    'document.claims': { url, canonical: null },
    'claims.save': { claims: [claim({ source: { ...claim().source, url } })] },
    'claims.restore': { claims: [claim({ source: { ...claim().source, url } })] },
    'source.correct': { source: { ...claim().source, url } },
    'dismissals.get': { url },
    'dismissals.add': { url, key: '0123456789abcdef', sentence: 'A sentence.' },
  });

  it('covers the calls that name one', () => {
    expect(addressed.sort()).toEqual(['claims.restore', 'claims.save', 'dismissals.add', 'dismissals.get', 'document.claims', 'source.correct']);
  });

  it.each(['document.claims', 'claims.save', 'claims.restore', 'source.correct', 'dismissals.get', 'dismissals.add'])(
    '%s: a page speaks for its own site, not for a neighbour on a shared suffix; the options page for any',
    async (type) => {
      const call = (url: string, sender: Sender) => dispatch(echo, { channel: CHANNEL, type, payload: requests(url)[type] }, sender, SELF);
      expect(await call(own, inTab(own))).toEqual({ ok: true, data: { ran: true } });
      const refused = await call(neighbour, inTab(own));
      expect(refused?.ok).toBe(false);
      expect((refused as { error: string }).error).toMatch(/own site/);
      if (protocol[type as CallName].from !== 'document') expect(await call(neighbour, options)).toEqual({ ok: true, data: { ran: true } });
    },
  );

  it('is not applied where the receiver has no site rule (a document answering the background)', async () => {
    const { siteOf: _none, ...plain } = SELF;
    const reply = await dispatch(echo, { channel: CHANNEL, type: 'dismissals.get', payload: { url: neighbour } }, inTab(own), plain);
    expect(reply).toEqual({ ok: true, data: { ran: true } });
  });
});
