/** Claims on PDF documents: found by page URL, by document fingerprint and by arXiv id. */
import { isTombstone } from '../survey/tombstones';
import type { ClaimRecord } from '../schema';
import type { RecipeDatabase } from './open';
import type { StoredPage } from './schema';

/** How a PDF document is known: where it was read, its fingerprint, and its arXiv id when it has one. */
export interface PdfIdentity {
  url: string | null;
  fingerprint: string;
  arxiv: string | null;
}

/**
 * Every claim on a PDF, in one read transaction: claims captured at its URL,
 * claims on a file with the same fingerprint (the same report served from
 * another address), and claims on any version of the same arXiv report.
 * Each claim appears once; tombstones are left out.
 */
export async function claimsForPdf(db: RecipeDatabase, who: PdfIdentity): Promise<ClaimRecord[]> {
  const tx = db.transaction('pages');
  const store = tx.store;
  const [atUrl, byPrint, byArxiv] = await Promise.all([
    who.url ? store.get(who.url) : Promise.resolve(undefined),
    store.index('by-fingerprint').getAll(who.fingerprint),
    who.arxiv ? store.index('by-arxiv').getAll(who.arxiv) : Promise.resolve([] as StoredPage[]),
  ]);
  await tx.done;
  // A page found by fingerprint or arXiv id may hold claims on other documents too (another address's claims): keep the matching ones.
  const candidates = [
    ...(atUrl?.claims ?? []),
    ...byPrint.flatMap((p) => p.claims.filter((c) => c.pdf?.fingerprint === who.fingerprint)),
    ...byArxiv.flatMap((p) => p.claims.filter((c) => c.pdf?.arxiv === who.arxiv)),
  ];
  const seen = new Map<string, ClaimRecord>();
  for (const claim of candidates) if (!seen.has(claim.id) && !isTombstone(claim)) seen.set(claim.id, claim);
  return [...seen.values()];
}
