/**
 * Source URL normalisation (`shared/spec/survey-records.md`, `source.url`):
 * the page as read, without fragment or tracking parameters, or its
 * same-site `rel=canonical`.
 */

/** Query parameters that only track where a visitor came from; dropped from source URLs. */
export const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  'fbclid',
  'gclid',
  'mc_cid',
  'mc_eid',
  'ref',
  'ref_src',
  'spm',
  'from',
  'si',
  'igshid',
  '_hsenc',
  '_hsmi',
  'yclid',
  'msclkid',
]);

/** Two-label public suffixes under which every name is its own site (a small, hand-kept subset of the PSL). */
const MULTI_LABEL_SUFFIXES: ReadonlySet<string> = new Set([
  'github.io',
  'gitlab.io',
  'pages.dev',
  'netlify.app',
  'vercel.app',
  'web.app',
  'hf.space',
  'blogspot.com',
  'substack.com',
  'medium.com',
  'co.uk',
  'org.uk',
  'ac.uk',
  'com.cn',
  'net.cn',
  'org.cn',
  'edu.cn',
  'gov.cn',
  'ac.cn',
  'com.hk',
  'com.tw',
  'com.sg',
  'com.au',
  'co.jp',
  'ne.jp',
  'or.jp',
  'ac.jp',
  'co.kr',
  'co.in',
  'com.br',
]);

/** True when a query parameter name is a tracking parameter (`utm_*` or one of {@link TRACKING_PARAMS}). */
export function isTrackingParam(name: string): boolean {
  const n = name.toLowerCase();
  return n.startsWith('utm_') || TRACKING_PARAMS.has(n);
}

/** The registrable domain ("site") of a host name, e.g. `blog.example.co.uk` → `example.co.uk`. */
export function registrableDomain(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[') || /^\d+(?:\.\d+){3}$/.test(host)) return host;
  const labels = host.split('.');
  if (labels.length <= 2) return host;
  const lastTwo = labels.slice(-2).join('.');
  return MULTI_LABEL_SUFFIXES.has(lastTwo) ? labels.slice(-3).join('.') : lastTwo;
}

/** Parses an absolute http(s) URL (optionally relative to `base`), or null. */
export function parseHttpUrl(input: string, base?: string | URL): URL | null {
  try {
    const u = base === undefined ? new URL(input) : new URL(input, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : null;
  } catch {
    return null;
  }
}

function paramName(part: string): string {
  const raw = part.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

function serialize(u: URL): string {
  const kept = u.search
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && !isTrackingParam(paramName(part)));
  const query = kept.length > 0 ? `?${kept.join('&')}` : '';
  return `${u.protocol}//${u.host}${u.pathname || '/'}${query}`;
}

/**
 * Normalises a source URL: the page's canonical link when it is an absolute
 * http(s) URL on the same site (registrable domain), no fragment, no
 * credentials, no tracking parameters (other parameters keep their order and
 * spelling), lower-case scheme and host, no default port, "/" for an empty
 * path. Idempotent; returns the input trimmed when it is not an http(s) URL.
 */
export function normalizeUrl(url: string, canonical?: string | null): string {
  if (!canonical?.trim()) return normalizeAddress(url);
  const trimmed = url.trim();
  const page = parseHttpUrl(trimmed);
  if (!page) return trimmed;
  let chosen = page;
  if (canonical && canonical.trim()) {
    const c = parseHttpUrl(canonical.trim(), page);
    if (c && registrableDomain(c.hostname) === registrableDomain(page.hostname)) chosen = c;
  }
  return serialize(chosen);
}

/** A source URL normalised as `normalizeUrl` does, without a canonical link to weigh (small: no site rule). */
export function normalizeAddress(url: string): string {
  const trimmed = url.trim();
  const page = parseHttpUrl(trimmed);
  return page ? serialize(page) : trimmed;
}

/**
 * What a page says of its address, for the background to decide on (`lib/messages/addresses.ts`): its own address
 * normalised, no canonical honoured, and the canonical link it offers (unchecked).
 */
export function pageAddress(doc: Document): { url: string; canonical: string | null } {
  return { url: normalizeAddress(doc.location?.href ?? doc.URL), canonical: doc.querySelector<HTMLLinkElement>('link[rel~="canonical"]')?.href ?? null };
}

/** A document's normalised URL: its canonical link honoured (same site only), fragment and tracking parameters dropped. */
export function documentUrl(doc: Document): string {
  const canonical = doc.querySelector<HTMLLinkElement>('link[rel~="canonical"]')?.href ?? null;
  return normalizeUrl(doc.location?.href ?? doc.URL, canonical);
}
