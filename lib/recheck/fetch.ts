/**
 * Fetching a source again for a recheck, within limits a curator's team can live with: at most `perHost` requests
 * at a time to one host, a timeout over the whole request (headers and body), backoff on 429 and 5xx-gateway answers
 * honouring `Retry-After`, redirects followed only on the source's registrable domain, and a body cut at `maxBytes`
 * without reading the rest. Every failure is a reason in words (`unreachable`), never an exception. Pure: the
 * `fetch`, the clock and the Public Suffix List come in as arguments, so Node (the `survey` CLI) and the extension's
 * background share it.
 */
import { parseHttpUrl, type SiteOf, sameSite } from '../source/url';

/** The limits of one recheck's fetching. */
export interface FetchLimits {
  /** Requests at a time to one host. */
  perHost: number;
  /** Milliseconds one attempt may take, body included. */
  timeoutMs: number;
  /** Bytes of body read at most; a longer body is `too large`. */
  maxBytes: number;
  /** Further attempts after a 429, 502, 503, 504 or a network error. */
  retries: number;
  /** The first backoff (doubled each retry) when the server names none. */
  backoffMs: number;
  /** The longest `Retry-After` waited for; a server asking for longer is `unreachable`. */
  maxRetryAfterMs: number;
  /** Redirects followed at most. */
  maxRedirects: number;
}

/** The limits the `survey` CLI and the extension use. */
export const RECHECK_LIMITS: FetchLimits = {
  perHost: 2,
  timeoutMs: 30_000,
  maxBytes: 20 * 1024 * 1024,
  retries: 2,
  backoffMs: 1_000,
  maxRetryAfterMs: 60_000,
  maxRedirects: 5,
};

/** A source as served now, or why it could not be read. */
export type Fetched =
  | { ok: true; url: string; contentType: string | null; body: Uint8Array }
  | { ok: false; url: string; reason: string; status: number | null };

/** What fetching needs from its host. */
export interface FetchDeps {
  fetch: typeof fetch;
  siteOf: SiteOf;
  /** Waits `ms` (a test may pass a clock of its own). */
  sleep?: (ms: number) => Promise<void>;
  /** The time now in milliseconds (for an HTTP-date `Retry-After`). */
  now?: () => number;
}

/** Status codes worth another attempt after a wait. */
const RETRIED = new Set([429, 502, 503, 504]);

/** Milliseconds a `Retry-After` header asks for (seconds or an HTTP date), or null when it names none. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function mb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Reads a body up to `max` bytes; null when it is longer (the rest is not read: the stream is cancelled). */
async function readCapped(response: Response, max: number): Promise<Uint8Array | null> {
  const length = Number(response.headers.get('content-length'));
  if (Number.isFinite(length) && length > max) {
    await response.body?.cancel().catch(() => {});
    return null;
  }
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

type Attempt = Fetched | { retry: true; waitMs: number | null; reason: string; status: number | null };

/** One attempt: the request and its redirects on the source's site, the body read within the limits. */
async function attempt(url: string, deps: FetchDeps, limits: FetchLimits): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limits.timeoutMs);
  const now = deps.now ?? Date.now;
  let current = url;
  try {
    for (let hops = 0; ; hops++) {
      const response = await deps.fetch(current, {
        credentials: 'omit',
        redirect: 'manual',
        signal: controller.signal,
        headers: { accept: 'text/html,application/xhtml+xml,application/pdf;q=0.9,*/*;q=0.5' },
      });
      // A browser's manual redirect is opaque (no Location to check): such a host must follow and report the final address.
      if (response.type === 'opaqueredirect') return { ok: false, url, reason: 'redirected, and the target cannot be checked', status: null };
      const final = response.url || current;
      if (!sameSite(final, url, deps.siteOf)) return { ok: false, url, reason: `moved to another site (${final})`, status: response.status };
      if (response.status >= 300 && response.status < 400) {
        const location = response.headers.get('location');
        await response.body?.cancel().catch(() => {});
        const next = location ? parseHttpUrl(location, final) : null;
        if (!next) return { ok: false, url, reason: `HTTP ${response.status} without a usable Location`, status: response.status };
        if (!sameSite(next.href, url, deps.siteOf)) return { ok: false, url, reason: `moved to another site (${next.href})`, status: response.status };
        if (hops >= limits.maxRedirects) return { ok: false, url, reason: `more than ${limits.maxRedirects} redirects`, status: response.status };
        current = next.href;
        continue;
      }
      if (RETRIED.has(response.status)) {
        await response.body?.cancel().catch(() => {});
        return { retry: true, waitMs: retryAfterMs(response.headers.get('retry-after'), now()), reason: `HTTP ${response.status}`, status: response.status };
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        return { ok: false, url, reason: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, status: response.status };
      }
      const body = await readCapped(response, limits.maxBytes);
      if (!body) return { ok: false, url, reason: `too large (over ${mb(limits.maxBytes)})`, status: response.status };
      return { ok: true, url: final, contentType: response.headers.get('content-type'), body };
    }
  } catch (error) {
    if (timedOut) return { ok: false, url, reason: `timed out after ${seconds(limits.timeoutMs)}`, status: null };
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { retry: true, waitMs: null, reason: `network error (${cause?.code ?? cause?.message ?? (error as Error).message})`, status: null };
  } finally {
    clearTimeout(timer);
  }
}

/** Fetches `url` within `limits`: the body, or why it could not be read (after the retries). */
export async function fetchSource(url: string, deps: FetchDeps, limits: FetchLimits = RECHECK_LIMITS): Promise<Fetched> {
  if (!parseHttpUrl(url)) return { ok: false, url, reason: 'not an http(s) address', status: null };
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let n = 0; ; n++) {
    const result = await attempt(url, deps, limits);
    if (!('retry' in result)) return result;
    if (n >= limits.retries) return { ok: false, url, reason: `${result.reason} after ${n + 1} attempts`, status: result.status };
    const wait = result.waitMs ?? limits.backoffMs * 2 ** n;
    if (wait > limits.maxRetryAfterMs) return { ok: false, url, reason: `${result.reason}; the server asks to wait ${seconds(wait)}`, status: result.status };
    await sleep(wait);
  }
}

/** At most `perHost` tasks at a time per host; the rest wait their turn in order. */
export class HostLimiter {
  private readonly running = new Map<string, number>();
  private readonly waiting = new Map<string, Array<() => void>>();

  constructor(private readonly perHost: number) {}

  /** Runs `task` once its host has a free slot. */
  async run<T>(url: string, task: () => Promise<T>): Promise<T> {
    const host = parseHttpUrl(url)?.host.toLowerCase() ?? url;
    if ((this.running.get(host) ?? 0) >= this.perHost) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(host) ?? [];
        queue.push(resolve);
        this.waiting.set(host, queue);
      });
    } else this.running.set(host, (this.running.get(host) ?? 0) + 1);
    try {
      return await task();
    } finally {
      const next = this.waiting.get(host)?.shift();
      // A waiting task takes the slot over; otherwise it is freed.
      if (next) next();
      else this.running.set(host, (this.running.get(host) ?? 1) - 1);
    }
  }
}
