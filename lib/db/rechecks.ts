/**
 * Rechecks in the store: per source URL, the spec's `source` record (what the last recheck found: exported, imported,
 * published and pulled with the claims) and the findings of this store's own last recheck (each claim's verdict, the
 * selectors an edited passage would move to, the new candidates); and the run under way, so a stopped runner loses
 * nothing. Nothing here changes a claim but `acceptEdit`, which the curator's click asks for.
 */
import { withLink } from '../export/links';
import { recheckedSource } from '../dataset/sources';
import { sourceDone, startRun, sourcesInScope, type RecheckRun, type RecheckScope } from '../recheck/run';
import type { ClaimVerdict } from '../recheck/verdicts';
import type { SourceFindings } from '../recheck/stored';
import type { ClaimRecord, SourceRecord } from '../schema';
import { isTombstone } from '../survey/tombstones';
import { allClaims, claimsForUrl, getClaims, putClaims } from './claims';
import type { RecipeDatabase } from './open';
import type { StoredRecheck } from './schema';
import { mergeSourceRecordsInto } from './source-records';
import { request, writeTransaction } from './transfer';

/** The meta key of the run under way (or the last one). */
export const RECHECK_RUN_KEY = 'recheck-run';

/** Every source's recheck the store holds, by URL order. */
export async function getRechecks(db: RecipeDatabase): Promise<StoredRecheck[]> {
  return db.getAll('rechecks');
}

/** The spec's `source` records the store holds, by URL. */
export async function sourceRecords(db: RecipeDatabase): Promise<SourceRecord[]> {
  return (await db.getAll('rechecks')).flatMap((r) => (r.record ? [r.record] : []));
}

/**
 * Stores source records from elsewhere (an import, a pull, a restore): each URL keeps the later `updated_at` of its
 * stored and incoming record (the incoming one on a tie, as settled by whoever brought it). The findings stay this
 * store's own. Returns how many records changed.
 */
export async function putSourceRecords(db: RecipeDatabase, incoming: readonly SourceRecord[]): Promise<number> {
  if (!incoming.length) return 0;
  return writeTransaction(db, ['rechecks'], (tx) => mergeSourceRecordsInto(tx.objectStore('rechecks'), incoming));
}

/** The stored run (under way, stopped, or the last one finished), if any. */
export async function getRecheckRun(db: RecipeDatabase): Promise<RecheckRun | null> {
  return ((await db.get('meta', RECHECK_RUN_KEY)) as RecheckRun | undefined) ?? null;
}

/** Starts a run over the sources of `scope` (replacing any run before it) and stores it. */
export async function startRecheckRun(db: RecipeDatabase, scope: RecheckScope, id: string, now: string): Promise<RecheckRun> {
  const run = startRun(id, scope, sourcesInScope(scope, await allClaims(db)), now);
  await db.put('meta', run, RECHECK_RUN_KEY);
  return run;
}

/** Forgets the run (its stored findings stay). */
export async function clearRecheckRun(db: RecipeDatabase): Promise<void> {
  await db.delete('meta', RECHECK_RUN_KEY);
}

/** The live claims of a source, and the models of the store (the finder names them in new sentences). */
export async function claimsToRecheck(db: RecipeDatabase, url: string): Promise<ClaimRecord[]> {
  return (await claimsForUrl(db, url)).filter((c) => !isTombstone(c));
}

/**
 * Stores one source's findings and its `source` record (`today` is the day of `checked`), and takes the source off
 * the run's pending list, in one transaction: either all of it is kept or none.
 */
export async function saveFindings(db: RecipeDatabase, findings: SourceFindings, { now, today }: { now: string; today: string }): Promise<StoredRecheck> {
  const claims = await claimsForUrl(db, findings.url);
  const accessed = claims.reduce((d, c) => (c.source.accessed > d ? c.source.accessed : d), '0000-00-00');
  const verdicts = findings.verdicts.map((v) => ({ ...v, url: findings.url, at: null, confidence: 0 }) satisfies ClaimVerdict);
  return writeTransaction(db, ['rechecks', 'meta'], async (tx) => {
    const store = tx.objectStore('rechecks');
    const meta = tx.objectStore('meta');
    const previous = (await request(store.get(findings.url))) as StoredRecheck | undefined;
    const record = recheckedSource(findings.url, verdicts, { today, now, previous: previous?.record ?? undefined, accessed });
    const value: StoredRecheck = { url: findings.url, record, findings };
    store.put(value);
    const run = (await request(meta.get(RECHECK_RUN_KEY))) as RecheckRun | undefined;
    if (run?.pending.includes(findings.url)) meta.put(sourceDone(run, findings.url, now), RECHECK_RUN_KEY);
    return value;
  });
}

/** Why an edited passage cannot be accepted, in words; null when it can. */
function refusal(claim: ClaimRecord | undefined, kept: StoredRecheck | undefined, id: string): string | null {
  if (!claim) return `No claim ${id} is stored (deleted since the recheck?).`;
  const verdict = kept?.findings?.verdicts.find((v) => v.id === id);
  if (!verdict || verdict.verdict !== 'edited' || !verdict.selectors) return 'The last recheck found no new text for this passage: recheck its source again.';
  if (verdict.claim_updated_at !== claim.updated_at) return 'The claim was changed after its source was rechecked: recheck the source again before accepting.';
  return null;
}

/**
 * The curator accepts an edited passage: the claim's quote and position move to the text the recheck found (its link
 * with them), `updated_at` is `now`, and the recheck's verdict says it was accepted. Returns the claim before and
 * after (the before for undo). Refused, with what to do, when the claim changed since the recheck.
 */
export async function acceptEdit(db: RecipeDatabase, id: string, now: string): Promise<{ before: ClaimRecord; after: ClaimRecord }> {
  const [claim] = await getClaims(db, [id]);
  const kept = claim ? await db.get('rechecks', claim.source.url) : undefined;
  const refused = refusal(claim, kept, id);
  if (refused) throw new Error(refused);
  const verdict = kept!.findings!.verdicts.find((v) => v.id === id)!;
  const after = withLink({ ...claim!, quote: verdict.selectors!.quote, position: verdict.selectors!.position, link: null, updated_at: now });
  await putClaims(db, [after]);
  const findings: SourceFindings = {
    ...kept!.findings!,
    verdicts: kept!.findings!.verdicts.map((v) => (v.id === id ? { ...v, accepted_at: now, claim_updated_at: now } : v)),
  };
  await db.put('rechecks', { ...kept!, findings });
  return { before: claim!, after };
}
