/**
 * Sites by the Public Suffix List (tldts, its private section included): `a.github.io` and `b.github.io` are two
 * sites, `blog.example.co.uk` is on `example.co.uk`. Pure, but heavy (the list is about 100 KB): only the
 * background imports it, never a script that runs on every page.
 */
import { getDomain } from 'tldts';

/** The registrable domain of a host name, or null when it has none (an IP address, `localhost`, a bare suffix). */
export function siteOf(hostname: string): string | null {
  return getDomain(hostname, { allowPrivateDomains: true }) ?? null;
}
