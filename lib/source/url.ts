/**
 * Source URL normalisation (`shared/spec/survey-records.md`, `source.url`):
 * the page as read, without fragment or tracking parameters, or its
 * same-site `rel=canonical`. Which hosts are one site is the Public Suffix List's to say, given as `siteOf`
 * (`sites.ts` holds it; this module stays light enough for the page's scripts).
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

/** True when a query parameter name is a tracking parameter (`utm_*` or one of {@link TRACKING_PARAMS}). */
export function isTrackingParam(name: string): boolean {
  const n = name.toLowerCase();
  return n.startsWith('utm_') || TRACKING_PARAMS.has(n);
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

/** The registrable domain of a host name ("site", by the Public Suffix List), or null when it has none (an IP address, `localhost`). */
export type SiteOf = (hostname: string) => string | null;

/** Whether two http(s) addresses are on one registrable domain (hosts without one: the same host). */
export function sameSite(a: string, b: string, siteOf: SiteOf): boolean {
  const x = parseHttpUrl(a);
  const y = parseHttpUrl(b);
  if (!x || !y) return false;
  const hx = x.hostname.toLowerCase();
  const hy = y.hostname.toLowerCase();
  const sx = siteOf(hx);
  const sy = siteOf(hy);
  return sx !== null && sy !== null ? sx === sy : hx === hy;
}

/**
 * Normalises a source URL: the page's canonical link when it is an absolute
 * http(s) URL on the same site (registrable domain, by `siteOf`), no fragment, no
 * credentials, no tracking parameters (other parameters keep their order and
 * spelling), lower-case scheme and host, no default port, "/" for an empty
 * path. Idempotent; returns the input trimmed when it is not an http(s) URL.
 */
export function normalizeUrl(url: string): string;
export function normalizeUrl(url: string, canonical: string | null | undefined, siteOf: SiteOf): string;
export function normalizeUrl(url: string, canonical?: string | null, siteOf?: SiteOf): string {
  if (!canonical?.trim() || !siteOf) return normalizeAddress(url);
  const trimmed = url.trim();
  const page = parseHttpUrl(trimmed);
  if (!page) return trimmed;
  const c = parseHttpUrl(canonical.trim(), page);
  return serialize(c && sameSite(c.href, page.href, siteOf) ? c : page);
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

/** A document's normalised URL: its canonical link honoured (same site only, by `siteOf`), fragment and tracking parameters dropped. */
export function documentUrl(doc: Document, siteOf: SiteOf): string {
  const canonical = doc.querySelector<HTMLLinkElement>('link[rel~="canonical"]')?.href ?? null;
  return normalizeUrl(doc.location?.href ?? doc.URL, canonical, siteOf);
}
