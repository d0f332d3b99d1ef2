/**
 * The one-time notice after the site rule changed (`lib/source/address-review.ts`), in `meta`: since when the
 * stricter rule files claims (claims made after it need no check), and the ids the curator acknowledged.
 */
import type { RecipeDatabase } from './open';

const KEY = 'address-review';

/** What the notice keeps. */
export interface ReviewState {
  /** When this store first ran the stricter rule. */
  since: string;
  /** Claims the curator checked. */
  ids: Set<string>;
}

/** The notice's state; the first read records `now` as the time the stricter rule started. */
export async function reviewState(db: RecipeDatabase, now: string): Promise<ReviewState> {
  const tx = db.transaction('meta', 'readwrite');
  const stored = (await tx.store.get(KEY)) as { since?: unknown; ids?: unknown } | undefined;
  const since = typeof stored?.since === 'string' ? stored.since : now;
  const ids = Array.isArray(stored?.ids) ? stored.ids.filter((id): id is string => typeof id === 'string') : [];
  if (stored?.since !== since) await tx.store.put({ since, ids }, KEY);
  await tx.done;
  return { since, ids: new Set(ids) };
}

/** Adds ids to the acknowledged ones; returns how many are acknowledged in all. */
export async function acknowledgeReview(db: RecipeDatabase, ids: readonly string[], now: string): Promise<number> {
  const tx = db.transaction('meta', 'readwrite');
  const stored = (await tx.store.get(KEY)) as { since?: string; ids?: string[] } | undefined;
  const all = [...new Set([...(stored?.ids ?? []), ...ids])].sort();
  await tx.store.put({ since: stored?.since ?? now, ids: all }, KEY);
  await tx.done;
  return all.length;
}
