/**
 * Claims filed under an address the stricter site rule would not have given them (issue 24). Before it, a page's
 * canonical link was honoured when a hand-kept list of public suffixes called both hosts one site; the Public Suffix
 * List now decides. Where the two disagree about a host (`x.readthedocs.io`, `y.notion.site`, `shop.com.mx`), a
 * claim under it may have been captured on a neighbour's page that named it as its canonical address. Such claims
 * are kept and listed once for the curator to check; nothing is dropped. Pure.
 */
import type { ClaimRecord } from '../schema';
import { parseHttpUrl, registrableDomain } from './url';

/** Whether the old rule and the Public Suffix List (`siteOf`) disagree about the site of the host of `url`. */
export function siteRuleChanged(url: string, siteOf: (hostname: string) => string | null): boolean {
  const parsed = parseHttpUrl(url);
  if (!parsed) return false;
  const host = parsed.hostname.toLowerCase();
  const now = siteOf(host);
  return now !== null && registrableDomain(host) !== now;
}

/**
 * The live claims to list in the notice, sorted by address then id: made before the stricter rule ran here
 * (`since`; an import keeps a claim's own time), on a host the two rules disagree about, not acknowledged yet.
 */
export function claimsToReview(
  claims: readonly ClaimRecord[],
  siteOf: (hostname: string) => string | null,
  state: { since: string; ids: ReadonlySet<string> },
): ClaimRecord[] {
  return claims
    .filter((c) => !c.deleted_at && c.created_at < state.since && !state.ids.has(c.id) && siteRuleChanged(c.source.url, siteOf))
    .sort((a, b) => (a.source.url === b.source.url ? (a.id < b.id ? -1 : 1) : a.source.url < b.source.url ? -1 : 1));
}
