/**
 * One anchoring pass over a document's claims, shared by the capture
 * controller and the page's painting script: which claims still have a
 * current anchor, anchoring the others, and the list of ranges to paint.
 * Nothing here draws or asks the background.
 */
import type { PaintedClaim } from '../../lib/paint/painter';
import type { ClaimRecord } from '../../lib/schema';
import type { DocumentSurface } from './surface';

/** One anchored claim: its anchor, and the version of the claim it was anchored for. */
export interface Anchored<A> {
  anchor: A;
  version: string;
}

/** Claims whose passage was found with changed text: what was stored and what the document says now, by claim id. */
export type ChangedText = Record<string, { old: string; now: string }>;

/** Whether a claim has an anchor that is still live and was made for its current version. */
export function isCurrent<A>(surface: DocumentSurface<A>, anchors: ReadonlyMap<string, Anchored<A>>, claim: ClaimRecord): boolean {
  const entry = anchors.get(claim.id);
  return !!entry && entry.version === claim.updated_at && surface.isLive(entry.anchor);
}

/**
 * Anchors the claims without a current anchor, updating `anchors` in place (orphans lose theirs, claims no longer
 * listed are forgotten), and returns the changed-text map that follows from `changed`. Null while the document's text
 * cannot be read yet. Throws what the surface throws (an aborted run among it); `anchors` is then untouched.
 */
export async function anchorPass<A>(
  surface: DocumentSurface<A>,
  claims: readonly ClaimRecord[],
  anchors: Map<string, Anchored<A>>,
  changed: ChangedText,
  signal: AbortSignal,
): Promise<ChangedText | null> {
  const missing = claims.filter((c) => !isCurrent(surface, anchors, c));
  // Nothing to find: the document is not read at all.
  const results = missing.length ? await surface.anchorAll(missing, signal) : [];
  if (!results || signal.aborted) return null;
  const next = { ...changed };
  results.forEach((result, i) => {
    const claim = missing[i]!;
    delete next[claim.id];
    if (result.status === 'anchored') {
      anchors.set(claim.id, { anchor: result.anchor, version: claim.updated_at });
      if (!result.exact) next[claim.id] = { old: claim.quote.exact, now: result.text };
    } else anchors.delete(claim.id);
  });
  const present = new Set(claims.map((c) => c.id));
  for (const id of [...anchors.keys()]) if (!present.has(id)) anchors.delete(id);
  for (const id of Object.keys(next)) if (!present.has(id)) delete next[id];
  return next;
}

/** Every anchored claim's live ranges, in the order of `claims`, as the painter takes them. */
export function paintList<A>(surface: DocumentSurface<A>, claims: readonly ClaimRecord[], anchors: ReadonlyMap<string, Anchored<A>>): PaintedClaim[] {
  const painted: PaintedClaim[] = [];
  for (const claim of claims) {
    const entry = anchors.get(claim.id);
    if (entry) for (const range of surface.ranges(entry.anchor)) painted.push({ id: claim.id, kind: claim.kind, range });
  }
  return painted;
}

/** The ids of the claims without an anchor. */
export function orphanIds<A>(claims: readonly ClaimRecord[], anchors: ReadonlyMap<string, Anchored<A>>): string[] {
  return claims.filter((c) => !anchors.has(c.id)).map((c) => c.id);
}
