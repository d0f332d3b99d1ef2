/**
 * Every claim's link: the stored `link` when it has one, else the default one
 * built from the claim — a text-fragment link (`#:~:text=`, see
 * `fragment.ts`) to its passage, or `#page=N` for a claim on a PDF (PDF
 * viewers do not follow text fragments). Pure.
 *
 * The default is built without the page's text (exports and the background
 * do not have it), so context is added by the no-page-text rule of
 * `textFragmentLink`.
 */
import type { ClaimRecord } from '../schema';
import { textFragmentLink } from './fragment';

/** The page of a claim on a PDF, when it has one. */
function pdfPage(claim: ClaimRecord): number | null {
  const pdf = (claim as { pdf?: unknown }).pdf;
  if (typeof pdf !== 'object' || pdf === null) return null;
  const page = (pdf as { page?: unknown }).page;
  return typeof page === 'number' && Number.isInteger(page) && page > 0 ? page : null;
}

/** The link a claim gets when it has none. */
export function defaultClaimLink(claim: ClaimRecord): string {
  const page = pdfPage(claim);
  if (page !== null) {
    const base = claim.source.url.split('#')[0]!;
    return `${base}#page=${page}`;
  }
  return textFragmentLink(claim.source.url, claim.quote);
}

/** A claim's link: its own, or the default one. */
export function claimLink(claim: ClaimRecord): string {
  return typeof claim.link === 'string' && claim.link !== '' ? claim.link : defaultClaimLink(claim);
}

/** The claim with its link filled in when it had none (the same object when it had one). */
export function withLink<T extends ClaimRecord>(claim: T): T {
  return typeof claim.link === 'string' && claim.link !== '' ? claim : { ...claim, link: defaultClaimLink(claim) };
}

/** Claims with every missing link filled in. */
export function withLinks<T extends ClaimRecord>(claims: readonly T[]): T[] {
  return claims.map(withLink);
}
