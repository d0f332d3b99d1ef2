/**
 * Planning an import into the store, conflicts and their resolution. Pure:
 * the background reads the stored versions of the incoming records, and this
 * module decides what is new, updated, unchanged or in conflict (the rules of
 * `planImport`: the newer `updated_at` wins; equal timestamps with other
 * content are conflicts the curator resolves).
 *
 * A claim without a link and one whose link is its default text-fragment link
 * (`claimLink`) are the same claim: exports fill in missing links, so an
 * exported file re-imported changes nothing.
 */
import { CLAIM_SCHEMA, modelKey, type ClaimRecord, type ModelRecord, type SurveyRecord } from '../schema';
import { serializeRecord } from '../export/jsonl';
import { claimLink } from '../export/links';
import { planImport, type RecordConflict } from './merge';

/** A record's identity across the store: `claim:<id>` or `model:<model>\u0000<recipe>`. */
export function recordRef(record: SurveyRecord): string {
  return record.schema === CLAIM_SCHEMA ? `claim:${(record as ClaimRecord).id}` : `model:${modelKey(record.model, record.recipe)}`;
}

/** A conflict as the curator sees it, and the incoming version ("theirs") to take if they choose it. */
export interface PlannedConflict extends RecordConflict {
  /** `recordRef` of the record. */
  ref: string;
  theirs: SurveyRecord;
}

/** What an import into the store would do. */
export interface StorePlan {
  added: number;
  updated: number;
  unchanged: number;
  conflicts: PlannedConflict[];
  /** Incoming records to write (new and newer), as they came. */
  writes: SurveyRecord[];
}

function hasLink(record: SurveyRecord): boolean {
  const link = (record as ClaimRecord).link;
  return typeof link === 'string' && link !== '';
}

/**
 * Plans importing `incoming` into a store whose versions of those records are
 * `stored` (other stored records do not matter). Records new to the store and
 * present once in the file are added without further work.
 */
export function planStoreImport(stored: readonly SurveyRecord[], incoming: readonly SurveyRecord[]): StorePlan {
  const storedByRef = new Map(stored.map((r) => [recordRef(r), r]));
  const seen = new Map<string, number>();
  const refs = incoming.map((r) => {
    const ref = recordRef(r);
    seen.set(ref, (seen.get(ref) ?? 0) + 1);
    return ref;
  });
  const plan: StorePlan = { added: 0, updated: 0, unchanged: 0, conflicts: [], writes: [] };
  const rest: SurveyRecord[] = [];
  const original = new Map<SurveyRecord, SurveyRecord>();
  const mine = new Map<string, SurveyRecord>();
  incoming.forEach((record, i) => {
    const ref = refs[i]!;
    const current = storedByRef.get(ref);
    if (!current && seen.get(ref) === 1) {
      plan.added += 1;
      plan.writes.push(record);
      return;
    }
    let compared = record;
    if (current && record.schema === CLAIM_SCHEMA && hasLink(record) !== hasLink(current)) {
      // Compare both with their links filled in: a missing link is the default one.
      if (!hasLink(record)) compared = { ...record, link: claimLink(record as ClaimRecord) } as ClaimRecord;
      else if (!mine.has(ref)) mine.set(ref, { ...current, link: claimLink(current as ClaimRecord) } as ClaimRecord);
    }
    original.set(compared, record);
    rest.push(compared);
  });
  if (!rest.length) return plan;
  const existing = [...storedByRef].filter(([ref]) => seen.has(ref)).map(([ref, r]) => mine.get(ref) ?? r);
  const planned = planImport(
    {
      claims: existing.filter((r): r is ClaimRecord => r.schema === CLAIM_SCHEMA),
      models: existing.filter((r): r is ModelRecord => r.schema !== CLAIM_SCHEMA),
    },
    rest,
  );
  plan.added += planned.added;
  plan.updated += planned.updated;
  plan.unchanged += planned.unchanged;
  plan.writes.push(...planned.records.map((r) => original.get(r) ?? r));
  if (planned.conflicts.length) {
    // A conflict's incoming version: the last in the file with the stored version's timestamp and other content.
    const lastTie = new Map<string, SurveyRecord>();
    for (const r of rest) {
      const ref = recordRef(r);
      const current = mine.get(ref) ?? storedByRef.get(ref);
      if (current && Date.parse(current.updated_at) === Date.parse(r.updated_at) && serializeRecord(current) !== serializeRecord(r)) lastTie.set(ref, r);
    }
    const claimKeys = new Set(incoming.filter((r) => r.schema === CLAIM_SCHEMA).map((r) => (r as ClaimRecord).id));
    const done = new Set<string>();
    for (const conflict of planned.conflicts) {
      // planImport names a conflict by its store key; a claim id and a model key could only coincide by accident.
      const asClaim = `claim:${conflict.key}`;
      const ref = claimKeys.has(conflict.key) && lastTie.has(asClaim) ? asClaim : `model:${conflict.key}`;
      const theirs = lastTie.get(ref);
      if (!theirs || done.has(ref)) continue;
      done.add(ref);
      plan.conflicts.push({ ...conflict, ref, theirs: original.get(theirs) ?? theirs });
    }
  }
  return plan;
}

/** The curator's choice for one conflict. */
export interface Resolution {
  ref: string;
  take: 'mine' | 'theirs';
}

/** What to write once conflicts are resolved: the plan's writes, plus "theirs" where chosen (`rest` for conflicts not listed). */
export function resolvePlan(
  plan: StorePlan,
  resolutions: readonly Resolution[],
  rest: 'mine' | 'theirs' = 'mine',
): { writes: SurveyRecord[]; kept: number; taken: number } {
  const choice = new Map(resolutions.map((r) => [r.ref, r.take]));
  const writes = [...plan.writes];
  let kept = 0;
  let taken = 0;
  for (const conflict of plan.conflicts) {
    if ((choice.get(conflict.ref) ?? rest) === 'theirs') {
      writes.push(conflict.theirs);
      taken += 1;
    } else {
      kept += 1;
    }
  }
  return { writes, kept, taken };
}
