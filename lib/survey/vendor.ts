/**
 * The vendor of a model row, proposed from its sources until the curator
 * stores one. Pure: no DOM, no browser APIs.
 *
 * The proposal is the publisher of the row's first-party sources:
 * - Sources of kind `third_party` are ignored, and so are sources without a
 *   publisher (unknown).
 * - Publishers are compared with case and white space folded ("Qwen Team" =
 *   "qwen  team"); the spelling shown is the one most of their claims use
 *   (ties: the first in code-unit order).
 * - The publisher of the most distinct sources wins; ties go to the one with
 *   more claims, then to the one whose best source ranks higher (technical
 *   report, official blog, model card, repository, release), then to the
 *   name first in code-unit order. The result never depends on the order of
 *   the claims.
 */
import type { ClaimRecord, SourceKind } from '../schema';

/** A proposed vendor and what it rests on. */
export interface VendorProposal {
  vendor: string;
  /** Distinct first-party sources with that publisher. */
  sources: number;
  /** Claims from those sources. */
  claims: number;
}

const KIND_RANK: Readonly<Record<SourceKind, number>> = {
  technical_report: 0,
  official_blog: 1,
  model_card: 2,
  repository: 3,
  release: 4,
  third_party: 5,
};

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Tally {
  urls: Set<string>;
  claims: number;
  bestKind: number;
  spellings: Map<string, number>;
}

/** The vendor the row's first-party sources propose, or null when they name none (see the module comment). */
export function proposeVendor(claims: readonly ClaimRecord[]): VendorProposal | null {
  const tallies = new Map<string, Tally>();
  for (const claim of claims) {
    const { kind, publisher, url } = claim.source;
    const name = (publisher ?? '').replace(/\s+/g, ' ').trim();
    if (kind === 'third_party' || name === '') continue;
    const key = name.toLowerCase();
    let tally = tallies.get(key);
    if (!tally) {
      tally = { urls: new Set(), claims: 0, bestKind: KIND_RANK[kind], spellings: new Map() };
      tallies.set(key, tally);
    }
    tally.urls.add(url);
    tally.claims += 1;
    tally.bestKind = Math.min(tally.bestKind, KIND_RANK[kind]);
    tally.spellings.set(name, (tally.spellings.get(name) ?? 0) + 1);
  }
  const ranked = [...tallies.values()].map((t) => {
    const vendor = [...t.spellings].sort((a, b) => b[1] - a[1] || compare(a[0], b[0]))[0]![0];
    return { vendor, sources: t.urls.size, claims: t.claims, bestKind: t.bestKind };
  });
  ranked.sort((a, b) => b.sources - a.sources || b.claims - a.claims || a.bestKind - b.bestKind || compare(a.vendor, b.vendor));
  const best = ranked[0];
  return best ? { vendor: best.vendor, sources: best.sources, claims: best.claims } : null;
}

/** A row's vendor as the panel shows it: the stored one, else the proposal (marked), else none. */
export function rowVendor(row: { vendor: string | null; proposedVendor: string | null }): { name: string | null; proposed: boolean } {
  const stored = row.vendor?.trim();
  if (stored) return { name: stored, proposed: false };
  return row.proposedVendor ? { name: row.proposedVendor, proposed: true } : { name: null, proposed: false };
}
