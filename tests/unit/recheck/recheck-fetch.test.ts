// Fetching a source for a recheck, on a fake network: the per-host limit, retries with Retry-After and backoff,
// redirects on the source's site only, the size cap (by header and while streaming), the timeout, and every failure
// as a reason in words.
import { describe, expect, it } from 'vitest';
import { fetchSource, HostLimiter, RECHECK_LIMITS, retryAfterMs, type FetchLimits } from '../../../lib/recheck';
import { siteOf } from '../../../lib/source/sites';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

function network(handler: Handler) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fake = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init });
    return handler(url, init);
  }) as typeof fetch;
  const waits: number[] = [];
  const deps = { fetch: fake, siteOf, sleep: async (ms: number) => void waits.push(ms), now: () => Date.parse('2026-12-05T12:00:00Z') };
  return { deps, calls, waits };
}

const html = (body = '<p>hi</p>', init: ResponseInit = {}) => new Response(body, { status: 200, headers: { 'content-type': 'text/html' }, ...init });
const limits = (over: Partial<FetchLimits> = {}): FetchLimits => ({ ...RECHECK_LIMITS, ...over });

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-12-05T12:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Sat, 05 Dec 2026 12:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('Sat, 05 Dec 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});

describe('fetchSource', () => {
  it('reads a page with credentials omitted and redirects left to it', async () => {
    const n = network(() => html('<p>hello</p>'));
    const r = await fetchSource('https://example.org/a', n.deps);
    expect(r).toMatchObject({ ok: true, url: 'https://example.org/a', contentType: 'text/html' });
    expect(new TextDecoder().decode((r as { body: Uint8Array }).body)).toBe('<p>hello</p>');
    expect(n.calls[0]!.init).toMatchObject({ credentials: 'omit', redirect: 'manual' });
  });

  it('says the status of an HTTP error, never retrying a 404 or a 500', async () => {
    for (const status of [404, 500]) {
      const n = network(() => new Response('no', { status }));
      const r = await fetchSource('https://example.org/a', n.deps);
      expect(r).toMatchObject({ ok: false, status, reason: expect.stringMatching(new RegExp(`^HTTP ${status}`)) });
      expect(n.calls).toHaveLength(1);
    }
  });

  it('waits out a 429 or 503 as long as Retry-After asks, else backs off, then gives up with the count', async () => {
    let k = 0;
    const n = network(() => (k++ === 0 ? new Response('', { status: 503, headers: { 'retry-after': '2' } }) : html()));
    expect(await fetchSource('https://example.org/a', n.deps)).toMatchObject({ ok: true });
    expect(n.waits).toEqual([2000]);
    const busy = network(() => new Response('', { status: 429 }));
    expect(await fetchSource('https://example.org/a', busy.deps, limits({ retries: 2, backoffMs: 100 }))).toMatchObject({
      ok: false,
      reason: 'HTTP 429 after 3 attempts',
    });
    expect(busy.waits).toEqual([100, 200]);
  });

  it('does not wait longer than it may: a server asking for an hour is unreachable now', async () => {
    const n = network(() => new Response('', { status: 503, headers: { 'retry-after': '3600' } }));
    expect(await fetchSource('https://example.org/a', n.deps)).toMatchObject({ ok: false, reason: 'HTTP 503; the server asks to wait 3600 s' });
    expect(n.waits).toEqual([]);
  });

  it('follows redirects on the registrable domain, and refuses one to another site (a neighbour on a shared suffix too)', async () => {
    const n = network((url) =>
      url === 'https://docs.example.org/old'
        ? new Response(null, { status: 301, headers: { location: '/new' } })
        : url === 'https://docs.example.org/new'
          ? new Response(null, { status: 302, headers: { location: 'https://www.example.org/page' } })
          : html(),
    );
    expect(await fetchSource('https://docs.example.org/old', n.deps)).toMatchObject({ ok: true });
    expect(n.calls.map((c) => c.url)).toEqual(['https://docs.example.org/old', 'https://docs.example.org/new', 'https://www.example.org/page']);
    const away = network(() => new Response(null, { status: 302, headers: { location: 'https://b.github.io/x' } }));
    expect(await fetchSource('https://a.github.io/x', away.deps)).toMatchObject({ ok: false, reason: 'moved to another site (https://b.github.io/x)' });
    expect(away.calls).toHaveLength(1);
  });

  it('refuses a followed response that ended on another site, endless redirects, and a redirect with no Location', async () => {
    const followed = network(() => Object.defineProperty(html(), 'url', { value: 'https://elsewhere.net/p' }));
    expect(await fetchSource('https://example.org/a', followed.deps)).toMatchObject({ ok: false, reason: 'moved to another site (https://elsewhere.net/p)' });
    const loop = network(() => new Response(null, { status: 302, headers: { location: '/again' } }));
    expect(await fetchSource('https://example.org/a', loop.deps, limits({ maxRedirects: 3 }))).toMatchObject({ ok: false, reason: 'more than 3 redirects' });
    const bare = network(() => new Response(null, { status: 302 }));
    expect(await fetchSource('https://example.org/a', bare.deps)).toMatchObject({ ok: false, reason: 'HTTP 302 without a usable Location' });
  });

  it('cuts a body over the limit: by its Content-Length unread, or as it streams, without reading the rest', async () => {
    const declared = network(() => html('x', { headers: { 'content-length': String(50 * 1024 * 1024) } }));
    expect(await fetchSource('https://example.org/a', declared.deps)).toMatchObject({ ok: false, reason: 'too large (over 20 MB)' });
    let pulled = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
      cancel() {
        cancelled = true;
      },
    });
    const endless = network(() => new Response(stream, { status: 200 }));
    expect(await fetchSource('https://example.org/a', endless.deps, limits({ maxBytes: 10 * 1024 }))).toMatchObject({
      ok: false,
      reason: 'too large (over 10 KB)',
    });
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(20);
  });

  it('times out a server that never answers, without retrying, and says a network error after its retries', async () => {
    const silent = network(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );
    expect(await fetchSource('https://example.org/a', silent.deps, limits({ timeoutMs: 100 }))).toMatchObject({ ok: false, reason: 'timed out after 0.1 s' });
    expect(silent.calls).toHaveLength(1);
    const down = network(() => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    });
    expect(await fetchSource('https://example.org/a', down.deps, limits({ retries: 1 }))).toMatchObject({
      ok: false,
      reason: 'network error (ECONNREFUSED) after 2 attempts',
    });
  });

  it('refuses an address that is not http(s) without a request', async () => {
    const n = network(() => html());
    expect(await fetchSource('file:///etc/passwd', n.deps)).toMatchObject({ ok: false, reason: 'not an http(s) address' });
    expect(n.calls).toEqual([]);
  });
});

describe('HostLimiter', () => {
  it('runs at most N tasks at a time per host, others freely, all in order of arrival', async () => {
    const limiter = new HostLimiter(2);
    const running = new Map<string, number>();
    const peak = new Map<string, number>();
    const order: string[] = [];
    const task = (url: string, i: number) =>
      limiter.run(url, async () => {
        const host = new URL(url).host;
        running.set(host, (running.get(host) ?? 0) + 1);
        peak.set(host, Math.max(peak.get(host) ?? 0, running.get(host)!));
        await new Promise((r) => setTimeout(r, 5));
        running.set(host, running.get(host)! - 1);
        order.push(`${host}#${i}`);
        return i;
      });
    const results = await Promise.all([
      ...Array.from({ length: 7 }, (_, i) => task(`https://a.example/${i}`, i)),
      ...Array.from({ length: 3 }, (_, i) => task(`https://b.example/${i}`, i)),
    ]);
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 0, 1, 2]);
    expect(peak.get('a.example')).toBe(2);
    expect(peak.get('b.example')).toBe(2);
    expect(order.filter((o) => o.startsWith('a.'))).toEqual(Array.from({ length: 7 }, (_, i) => `a.example#${i}`));
  });

  it('frees the slot of a task that throws', async () => {
    const limiter = new HostLimiter(1);
    await expect(limiter.run('https://a.example/', async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await limiter.run('https://a.example/', async () => 'next')).toBe('next');
  });
});
