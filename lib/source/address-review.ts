/**
 * Claims filed under an address the stricter site rule would not have given them (issue 24). Before it, a page's
 * canonical link was honoured when a hand-kept list of public suffixes called both hosts one site; the Public Suffix
 * List now decides. Where the two disagree about a host (`x.readthedocs.io`, `y.notion.site`, `shop.com.mx`), a
 * claim under it may have been captured on a neighbour's page that named it as its canonical address. Such claims
 * are kept and listed once for the curator to check; nothing is dropped. Pure.
 */
import type { ClaimRecord } from '../schema';
import { parseHttpUrl } from './url';

/** The old rule's two-label public suffixes under which every name was its own site (a hand-kept subset of the PSL). */
const OLD_MULTI_LABEL_SUFFIXES: ReadonlySet<string> = new Set([
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

/**
 * The site of a host name by the old, hand-kept rule (`blog.example.co.uk` → `example.co.uk`, `a.github.io` itself),
 * kept only to tell which stored addresses it may have decided differently from the Public Suffix List.
 */
export function oldSiteRule(hostname: string): string {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[') || /^\d+(?:\.\d+){3}$/.test(host)) return host;
  const labels = host.split('.');
  if (labels.length <= 2) return host;
  const lastTwo = labels.slice(-2).join('.');
  return OLD_MULTI_LABEL_SUFFIXES.has(lastTwo) ? labels.slice(-3).join('.') : lastTwo;
}

/** Whether the old rule and the Public Suffix List (`siteOf`) disagree about the site of the host of `url`. */
export function siteRuleChanged(url: string, siteOf: (hostname: string) => string | null): boolean {
  const parsed = parseHttpUrl(url);
  if (!parsed) return false;
  const host = parsed.hostname.toLowerCase();
  const now = siteOf(host);
  return now !== null && oldSiteRule(host) !== now;
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
