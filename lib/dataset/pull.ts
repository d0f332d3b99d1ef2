/**
 * Pulling: what the dataset's records do to the local store, planned the way
 * an import is (`lib/import`: new, updated, unchanged, conflicts side by
 * side), with one more thing an import cannot know — which local records were
 * changed since the last sync (their hash differs from their base). Pure.
 *
 * For each record of the dataset:
 * - not in the store: added (a tombstone is stored too, so that the claim
 *   never comes back from a file);
 * - the same version as the store's: unchanged;
 * - the dataset still has the base version: the store's change waits to be
 *   published, nothing is written;
 * - the store still has the base version: the dataset's version is taken,
 *   whatever its time (a tombstone deletes);
 * - both changed, or no base is known (the store never synced with this
 *   dataset): the import planner decides — newer wins, a tie is a conflict.
 *   Where the dataset's newer version would replace a change this store has
 *   not published, it is a conflict too (`overtaken`): never overwritten
 *   silently.
 *
 * Settling a conflict with the local version stamps it anew, so that it is
 * newer than the dataset's and is published as the settled version.
 */
import { isTombstone } from '../survey/tombstones';
import { diffRecords } from '../import/merge';
import { planStoreImport, type PlannedConflict, type StorePlan } from '../import/preview';
import { CLAIM_SCHEMA, type ClaimRecord, type SurveyRecord } from '../schema';
import { recordHash, recordRef } from './hash';
import type { Bases } from './publish';

/** A conflict of a pull: a tie, or a local change the dataset's newer version would replace. */
export interface PullConflict extends PlannedConflict {
  reason: 'tie' | 'overtaken';
  /** The store's version. */
  mine: SurveyRecord;
}

/** What a pull would do. */
export interface PullPlan extends StorePlan {
  /** Live local claims the dataset's tombstones delete (counted in `updated` too). */
  deleted: number;
  /** Local changes kept (newer than the dataset's, or the dataset did not change the record): they wait to be published. */
  kept: number;
  conflicts: PullConflict[];
  /** Bases to record for every record settled by this plan: `[ref, hash]`. */
  bases: Array<[string, string]>;
}

/**
 * Plans pulling the dataset's `remote` records into a store holding `local`
 * (at least every local record sharing an identity with a remote one), with
 * the store's `bases`.
 */
export function planPull(local: readonly SurveyRecord[], bases: Bases, remote: readonly SurveyRecord[]): PullPlan {
  const mine = new Map(local.map((r) => [recordRef(r), r]));
  const plan: PullPlan = { added: 0, updated: 0, unchanged: 0, deleted: 0, kept: 0, conflicts: [], writes: [], bases: [] };
  const toPlan: SurveyRecord[] = [];
  const latest = new Map<string, SurveyRecord>();
  for (const r of remote) {
    const ref = recordRef(r);
    const seen = latest.get(ref);
    if (!seen || Date.parse(r.updated_at) > Date.parse(seen.updated_at)) latest.set(ref, r);
  }
  for (const [ref, theirs] of latest) {
    const ours = mine.get(ref);
    const theirHash = recordHash(theirs);
    const base = bases.get(ref);
    if (!ours) {
      plan.added += 1;
      plan.writes.push(theirs);
      plan.bases.push([ref, theirHash]);
      continue;
    }
    const ourHash = recordHash(ours);
    if (ourHash === theirHash) {
      plan.unchanged += 1;
      if (base !== theirHash) plan.bases.push([ref, theirHash]);
      continue;
    }
    if (base !== undefined && theirHash === base) {
      plan.kept += 1;
      continue;
    }
    if (base !== undefined && ourHash === base) {
      take(plan, ours, theirs);
      plan.bases.push([ref, theirHash]);
      continue;
    }
    toPlan.push(theirs);
  }
  if (!toPlan.length) return plan;
  // Both sides changed these (or nothing is known of their history): the import planner's rules.
  const planned = planStoreImport(
    toPlan.map((r) => mine.get(recordRef(r))!),
    toPlan,
  );
  const written = new Set(planned.writes.map(recordRef));
  for (const theirs of toPlan) {
    const ref = recordRef(theirs);
    const ours = mine.get(ref)!;
    if (!written.has(ref)) continue;
    if (bases.has(ref)) {
      // A change made here would be replaced by a newer one: the curator decides.
      plan.conflicts.push(pullConflict(ref, ours, theirs, 'overtaken'));
      continue;
    }
    take(plan, ours, theirs);
    plan.bases.push([ref, recordHash(theirs)]);
  }
  const conflicted = new Set(planned.conflicts.map((c) => c.ref));
  for (const theirs of toPlan) {
    const ref = recordRef(theirs);
    if (written.has(ref)) continue;
    if (conflicted.has(ref)) plan.conflicts.push(pullConflict(ref, mine.get(ref)!, theirs, 'tie'));
    else {
      // The store's version is newer: it stays, and is published next.
      plan.kept += 1;
      plan.bases.push([ref, recordHash(theirs)]);
    }
  }
  return plan;
}

function take(plan: PullPlan, ours: SurveyRecord, theirs: SurveyRecord): void {
  plan.updated += 1;
  plan.writes.push(theirs);
  if (theirs.schema === CLAIM_SCHEMA && isTombstone(theirs as ClaimRecord) && !isTombstone(ours as ClaimRecord)) plan.deleted += 1;
}

function pullConflict(ref: string, mine: SurveyRecord, theirs: SurveyRecord, reason: 'tie' | 'overtaken'): PullConflict {
  const key = mine.schema === CLAIM_SCHEMA ? (mine as ClaimRecord).id : ref.slice('model:'.length);
  const label = mine.schema === CLAIM_SCHEMA ? `claim ${key}` : `model ${mine.recipe ? `${mine.model} · ${mine.recipe}` : mine.model}`;
  return { key, label, diffs: diffRecords(mine, theirs), ref, theirs, mine, reason };
}

/** The curator's choice for a conflict: keep the store's version, take the dataset's, or leave it for later. */
export type PullChoice = 'mine' | 'theirs' | 'later';

/**
 * What to write once the curator chose: the plan's writes and bases, plus per
 * conflict the dataset's version (`theirs`) or the store's stamped `now`
 * (`mine`: newer than the dataset's, so the next publish carries it). A
 * conflict left `later` writes nothing and keeps its base, so the next pull
 * offers it again.
 */
export function settlePull(
  plan: PullPlan,
  choices: ReadonlyMap<string, PullChoice>,
  rest: PullChoice,
  now: string,
): { writes: SurveyRecord[]; bases: Array<[string, string]>; kept: number; taken: number; later: number } {
  const writes = [...plan.writes];
  const bases = [...plan.bases];
  let kept = 0;
  let taken = 0;
  let later = 0;
  for (const c of plan.conflicts) {
    const choice = choices.get(c.ref) ?? rest;
    if (choice === 'later') {
      later += 1;
      continue;
    }
    const theirHash = recordHash(c.theirs);
    if (choice === 'theirs') {
      writes.push(c.theirs);
      taken += 1;
    } else {
      writes.push(restamp(c.mine, stampAfter(now, c.theirs.updated_at, c.mine.updated_at)));
      kept += 1;
    }
    bases.push([c.ref, theirHash]);
  }
  return { writes, bases, kept, taken, later };
}

/** `now`, or one second after the latest of `times` when that is not before it (RFC 3339 UTC, to the second). */
export function stampAfter(now: string, ...times: string[]): string {
  const floor = Math.max(...times.map((t) => Date.parse(t)).filter((t) => !Number.isNaN(t))) + 1000;
  const at = Math.max(Date.parse(now), floor);
  return new Date(Math.floor(at / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A record stamped `now` (a tombstone's deletion time with it), so that it is newer than the version it was settled against. */
export function restamp<T extends SurveyRecord>(record: T, now: string): T {
  if (record.schema === CLAIM_SCHEMA && isTombstone(record as ClaimRecord)) return { ...record, updated_at: now, deleted_at: now };
  return { ...record, updated_at: now };
}
