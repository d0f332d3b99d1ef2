/**
 * A recheck run as the background keeps it: which sources it covers (one source, one model's, or every source) and
 * which are still to do. The run is stored, and each source leaves `pending` only once its findings are stored, so
 * a runner that stops halfway (Stop, a closed page, a restarted worker) loses nothing and the next one continues
 * where it was. Pure.
 */
import { z } from 'zod';
import { HttpUrl, type ClaimRecord } from '../schema';
import { isTombstone } from '../survey/tombstones';

/** What a run rechecks: every source, the sources of one model's claims, or one source. */
export const RecheckScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }),
  z.object({ kind: z.literal('model'), model: z.string().min(1).max(200) }),
  z.object({ kind: z.literal('source'), url: HttpUrl }),
]);
export type RecheckScope = z.infer<typeof RecheckScope>;

/** A stored run. */
export interface RecheckRun {
  id: string;
  scope: RecheckScope;
  started_at: string;
  /** Every source of the run, in the order they are rechecked. */
  urls: string[];
  /** The sources not rechecked yet, in order. */
  pending: string[];
  /** When the last source was stored (null while some are pending). */
  finished_at: string | null;
}

/** The sources of a scope: the URLs of its live claims, sorted. */
export function sourcesInScope(scope: RecheckScope, claims: readonly ClaimRecord[]): string[] {
  const urls = new Set<string>();
  for (const c of claims) {
    if (isTombstone(c)) continue;
    if (scope.kind === 'model' && c.model !== scope.model) continue;
    if (scope.kind === 'source' && c.source.url !== scope.url) continue;
    urls.add(c.source.url);
  }
  return [...urls].sort();
}

/** A new run over `urls`. */
export function startRun(id: string, scope: RecheckScope, urls: readonly string[], now: string): RecheckRun {
  return { id, scope, started_at: now, urls: [...urls], pending: [...urls], finished_at: urls.length ? null : now };
}

/** The run once `url`'s findings are stored: it leaves `pending`; the run is finished when none is left. */
export function sourceDone(run: RecheckRun, url: string, now: string): RecheckRun {
  const pending = run.pending.filter((u) => u !== url);
  return { ...run, pending, finished_at: pending.length ? null : (run.finished_at ?? now) };
}

/** How far a run is. */
export function runProgress(run: RecheckRun): { done: number; total: number; left: number } {
  return { done: run.urls.length - run.pending.length, total: run.urls.length, left: run.pending.length };
}
