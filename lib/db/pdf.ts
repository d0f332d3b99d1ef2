/** Claims on PDF documents: found by page URL, by document fingerprint and by arXiv id. */
import { isTombstone } from '../survey/tombstones';
import type { ClaimRecord } from '../schema';
import type { RecipeDatabase } from './open';

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
  const tx = db.transaction('claims');
  const store = tx.store;
  const [byUrl, byPrint, byArxiv] = await Promise.all([
    who.url ? store.index('by-url').getAll(who.url) : Promise.resolve([] as ClaimRecord[]),
    store.index('by-fingerprint').getAll(who.fingerprint),
    who.arxiv ? store.index('by-arxiv').getAll(who.arxiv) : Promise.resolve([] as ClaimRecord[]),
  ]);
  await tx.done;
  const seen = new Map<string, ClaimRecord>();
  for (const claim of [...byUrl, ...byPrint, ...byArxiv]) if (!seen.has(claim.id) && !isTombstone(claim)) seen.set(claim.id, claim);
  return [...seen.values()];
}
