/**
 * Addresses a sender names are claims, not facts: which document addresses a sender may speak for, decided from
 * what the browser says about it (`sender.url`) and the Public Suffix List (its registrable domain, passed in as
 * `siteOf`; the background gives tldts'). Pure.
 *
 * - Our content script in a tab speaks for the page the browser says it is in: that page's address (or another of
 *   its origin's, where the History API took it), or a canonical link on the same registrable domain; and it may
 *   file claims only on that site (`a.github.io` and `b.github.io` are two sites, as are `x.readthedocs.io` and
 *   `y.readthedocs.io`).
 * - The PDF viewer speaks for the report its address names (`?file=`); a local file has no address until the
 *   curator gives it one, so any address may be given there.
 * - Our other pages (options, panel, popup) speak for any document: they hold the curator's own store.
 */
import { normalizeUrl, parseHttpUrl, type SiteOf, sameSite } from '../source/url';
import { isViewerSender, type Self, type Sender } from './roles';

/**
 * The address of the document a page is: the browser's `senderUrl`, or the address the page script saw when it is on
 * the same origin (an in-page navigation moves the page there with the History API, which the browser's sender
 * address may not follow, and which any page may do to itself), with the canonical link the page offers honoured
 * on the same registrable domain only.
 */
export function documentAddress(senderUrl: string, seen: string | null | undefined, canonical: string | null | undefined, siteOf: SiteOf): string {
  const sender = parseHttpUrl(senderUrl);
  const claimed = seen ? parseHttpUrl(seen) : null;
  const base = claimed && sender && claimed.origin === sender.origin ? claimed.href : senderUrl;
  const page = normalizeUrl(base);
  if (!canonical?.trim()) return page;
  const resolved = parseHttpUrl(canonical.trim(), base);
  return resolved && sameSite(resolved.href, base, siteOf) ? normalizeUrl(resolved.href) : page;
}

/** Whether the sender is our content script in a tab (the only kind of sender a web page sits behind). */
function inTab(sender: Sender, self: Self): boolean {
  return sender.id === self.id && !!sender.tab && /^https?:/.test(sender.url ?? '');
}

/** The report the PDF viewer sender shows (its `file` parameter), or undefined for a sender that is not the viewer. */
function viewerFile(sender: Sender, self: Self): string | null | undefined {
  if (!isViewerSender(sender, self)) return undefined;
  try {
    return new URL(sender.url!).searchParams.get('file');
  } catch {
    return null;
  }
}

/** Why the sender may not speak for `address` (null: it may). */
export function addressRefusal(address: string | null, sender: Sender, self: Self, siteOf: SiteOf): string | null {
  if (inTab(sender, self)) {
    if (address === null) return 'refused: a page is known by its address';
    const own = normalizeUrl(sender.url!);
    return address === own || sameSite(address, sender.url!, siteOf) ? null : `refused: a page may only speak for its own site's addresses (${address})`;
  }
  const file = viewerFile(sender, self);
  if (file !== undefined) {
    const remote = file ? parseHttpUrl(file) : null;
    if (!remote || address === null) return null;
    return address === normalizeUrl(remote.href) ? null : `refused: the viewer may only speak for the report it shows (${address})`;
  }
  return null;
}

/** The first refusal among the addresses a request names (null: the sender may speak for all of them). */
export function addressesRefusal(addresses: ReadonlyArray<string | null>, sender: Sender, self: Self, siteOf: SiteOf): string | null {
  for (const address of new Set(addresses)) {
    const refused = addressRefusal(address, sender, self, siteOf);
    if (refused) return refused;
  }
  return null;
}
