/**
 * The addresses that have claims, in a compact form the page script reads from the extension's storage before it
 * asks the background anything: a page whose address is not in it (and whose site is not opted in to the finder)
 * sends no message, so a stopped service worker stays stopped. Each address is kept as a 32-bit hash: a collision
 * only costs a lookup that finds nothing (a false positive), and every address with claims is in it (no false
 * negative: the background rebuilds it after every write of the pages store, before the write is answered). Pure.
 */

/** The key under which the background keeps the index in `storage.local`. */
export const CLAIMS_INDEX_KEY = 'claimsIndex';

/** The index as stored. */
export interface ClaimsIndex {
  version: 1;
  /** The hashes of the addresses with claims (`addressKey`), sorted, each once. */
  keys: number[];
  /** The sites opted in to the claim finder (the finder runs there with nothing stored). */
  sites: string[];
}

/** An address's 32-bit FNV-1a hash over its UTF-16 code units. */
export function addressKey(address: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < address.length; i++) {
    h ^= address.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The index of `addresses` (the pages store's keys) and the finder's sites. */
export function buildClaimsIndex(addresses: Iterable<string>, sites: readonly string[] = []): ClaimsIndex {
  const keys = [...new Set([...addresses].map(addressKey))].sort((a, b) => a - b);
  return { version: 1, keys, sites: [...sites] };
}

/** `index` with these addresses added: what `buildClaimsIndex` gives for its addresses and these (the same sites). */
export function withAddresses(index: ClaimsIndex, addresses: Iterable<string>): ClaimsIndex {
  const keys = new Set(index.keys);
  const before = keys.size;
  for (const address of addresses) keys.add(addressKey(address));
  if (keys.size === before) return index;
  return { version: 1, keys: [...keys].sort((a, b) => a - b), sites: [...index.sites] };
}

/** Whether a stored value is an index this code reads (anything else counts as no index: ask the background). */
export function isClaimsIndex(value: unknown): value is ClaimsIndex {
  const v = value as ClaimsIndex | null;
  return !!v && v.version === 1 && Array.isArray(v.keys) && Array.isArray(v.sites);
}

/** Whether a readable index holds one of a page's addresses (a finder site or a missing index does not count). */
export function addressIndexed(index: unknown, addresses: ReadonlyArray<string | null>): boolean {
  return isClaimsIndex(index) && addresses.some((a) => a !== null && index.keys.includes(addressKey(a)));
}

/**
 * Whether a page may have claims or a finder run: true when there is no readable index (unknown: ask), when one of
 * its candidate addresses is in it, or when its host may be on one of the finder's sites. The site check is loose on
 * purpose (a host ending in the site's name, its `*.` and port aside): the background decides exactly, and a
 * false positive only costs a lookup. A linear scan of the keys costs microseconds and keeps the page script small.
 */
export function mayHaveClaims(index: unknown, addresses: ReadonlyArray<string | null>, host = ''): boolean {
  if (!isClaimsIndex(index)) return true;
  if (host && index.sites.some((site) => host.endsWith(site.replace(/^\*\./, '').replace(/:\d+$/, '')))) return true;
  return addressIndexed(index, addresses);
}
