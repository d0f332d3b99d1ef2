/**
 * The sites where the curator lets the claim finder run by itself: host
 * names, optionally with a port, and `*.example.com` for every subdomain of
 * example.com (and example.com itself). Pure: no browser APIs.
 */

/** A site entry as the options page stores it. */
const SITE = /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/;

/** Reads a site entry the curator typed (a host name, `*.host`, or a whole address); null when it is none. */
export function parseSite(input: string): string | null {
  let s = input.trim().toLowerCase();
  if (!s) return null;
  const wildcard = s.startsWith('*.');
  if (wildcard) s = s.slice(2);
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(s)) {
    try {
      s = new URL(s).host;
    } catch {
      return null;
    }
  } else s = s.replace(/[/?#].*$/, '');
  s = s.replace(/\.$/, '');
  const site = (wildcard ? '*.' : '') + s;
  return SITE.test(site) ? site : null;
}

/** The curator's list, one entry per line (or separated by commas): valid entries once each, in order, and the entries not understood. */
export function parseSiteList(text: string): { sites: string[]; rejected: string[] } {
  const sites: string[] = [];
  const rejected: string[] = [];
  for (const raw of text.split(/[\n,]+/)) {
    const part = raw.trim();
    if (!part) continue;
    const site = parseSite(part);
    if (site === null) rejected.push(part);
    else if (!sites.includes(site)) sites.push(site);
  }
  return { sites, rejected };
}

/** Whether a page's address is on one of the sites (only http and https pages are). */
export function siteListed(url: string, sites: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const host = parsed.hostname.toLowerCase().replace(/\.$/, '');
  const withPort = parsed.port ? `${host}:${parsed.port}` : host;
  return sites.some((site) => {
    const wildcard = site.startsWith('*.');
    const bare = wildcard ? site.slice(2) : site;
    const target = bare.includes(':') ? withPort : host;
    return target === bare || (wildcard && target.endsWith(`.${bare}`));
  });
}
