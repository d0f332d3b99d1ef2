/**
 * The addresses that have claims, in a compact form the page script reads from the extension's storage before it
 * asks the background anything: a page whose address is not in it (and whose site is not opted in to the finder)
 * sends no message, so a stopped service worker stays stopped. Each address is kept as a 32-bit hash: a collision
 * only costs a lookup that finds nothing (a false positive), and every address with claims is in it (no false
 * negative: the background rebuilds it after every write of the pages store, before the write is answered). Pure.
 */
import { sortedIncludes } from '../sorted';

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

/** Whether a stored value is an index this code reads (anything else counts as no index: ask the background). */
export function isClaimsIndex(value: unknown): value is ClaimsIndex {
  const v = value as ClaimsIndex | null;
  return !!v && v.version === 1 && Array.isArray(v.keys) && Array.isArray(v.sites);
}

/** Whether any of a page's candidate addresses may have claims: true when there is no readable index (unknown: ask). */
export function mayHaveClaims(index: unknown, addresses: ReadonlyArray<string | null>): boolean {
  if (!isClaimsIndex(index)) return true;
  return addresses.some((a) => a !== null && sortedIncludes(index.keys, addressKey(a)));
}
