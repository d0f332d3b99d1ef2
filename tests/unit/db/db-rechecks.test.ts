// Rechecks in the store (lib/db/rechecks.ts): a run over the sources of a scope, each source's findings and its spec
// `source` record stored with the run's progress in one transaction, source records from elsewhere merged by
// `updated_at`, and the one write to a claim a recheck allows: accepting an edited passage at the curator's click.
import { describe, expect, it } from 'vitest';
import {
  RECHECK_RUN_KEY,
  acceptEdit,
  allClaimsWithTombstones,
  claimsToRecheck,
  clearRecheckRun,
  getClaims,
  getRecheckRun,
  getRechecks,
  putClaims,
  putSourceRecords,
  saveFindings,
  sourceRecords,
  startRecheckRun,
  type RecipeDatabase,
} from '../../../lib/db';
import { defaultClaimLink } from '../../../lib/export/links';
import type { KeptVerdict, SourceFindings } from '../../../lib/recheck/stored';
import { SOURCE_SCHEMA, type ClaimRecord, type SourceRecord } from '../../../lib/schema';
import { freshDatabases } from '../../support/databases';
import { claim, sourceRecord } from '../fixtures/records';

const fresh = freshDatabases('db-rechecks');

const ZETA = 'https://example.org/zeta-2-report';
const KIMI = 'https://example.org/kimi-k2-6';
const GONE = 'https://example.org/only-tombstones';

/** Claims on three pages: two Zeta-2 claims on ZETA, a Kimi claim on KIMI and one on ZETA, a tombstone alone on GONE. */
const CLAIMS: ClaimRecord[] = [
  claim({ id: 'clm_zeta_00001', value: 'GRPO' }),
  claim({ id: 'clm_zeta_00002', value: 'slime', kind: 'framework', stage: null, source: { ...claim().source, accessed: '2026-11-30' } }),
  claim({ id: 'clm_kimi_00001', model: 'Kimi K2.6', source: { ...claim().source, url: KIMI, accessed: '2026-11-20' } }),
  claim({ id: 'clm_kimi_00002', model: 'Kimi K2.6', value: 'PPO' }),
  claim({
    id: 'clm_gone_00001',
    model: 'Gone-1',
    source: { ...claim().source, url: GONE },
    updated_at: '2026-11-30T12:00:00Z',
    deleted_at: '2026-11-30T12:00:00Z',
  }),
];

async function seeded(claims: readonly ClaimRecord[] = CLAIMS): Promise<RecipeDatabase> {
  const db = await fresh();
  await putClaims(db, claims);
  return db;
}

/** A kept verdict of a claim (its `updated_at` as when rechecked). */
function verdict(c: ClaimRecord, v: KeptVerdict['verdict'], more: Partial<KeptVerdict> = {}): KeptVerdict {
  return { id: c.id, verdict: v, text: null, reason: v === 'unreachable' ? 'HTTP 503' : null, selectors: null, claim_updated_at: c.updated_at, ...more };
}

/** What rechecking `url` found: one verdict per given claim. */
function findings(url: string, verdicts: KeptVerdict[]): SourceFindings {
  return { url, title: 'A page', checked_at: '2026-12-05T10:00:00Z', verdicts, candidates: [], undisclosedOnly: false };
}

function record(url: string, overrides: Partial<SourceRecord> = {}): SourceRecord {
  return sourceRecord(url, { checked: '2026-12-01', claims: { unchanged: 2, edited: 0, gone: 0 }, updated_at: '2026-12-01T09:00:00Z', ...overrides });
}

const zeta1 = CLAIMS[0]!;
const zeta2 = CLAIMS[1]!;
const kimiOnZeta = CLAIMS[3]!;
const AT = { now: '2026-12-05T10:00:00Z', today: '2026-12-05' };

describe('a recheck run', () => {
  it('covers the sources of live claims per scope, sorted, a source of tombstones only left out', async () => {
    const db = await seeded();
    const all = await startRecheckRun(db, { kind: 'all' }, 'run-1', '2026-12-05T09:00:00Z');
    expect(all).toEqual({
      id: 'run-1',
      scope: { kind: 'all' },
      started_at: '2026-12-05T09:00:00Z',
      urls: [KIMI, ZETA],
      pending: [KIMI, ZETA],
      finished_at: null,
    });
    expect(await getRecheckRun(db)).toEqual(all);
    expect((await startRecheckRun(db, { kind: 'model', model: 'Kimi K2.6' }, 'run-2', '2026-12-05T09:01:00Z')).urls).toEqual([KIMI, ZETA]);
    expect((await startRecheckRun(db, { kind: 'model', model: 'Zeta-2' }, 'run-3', '2026-12-05T09:02:00Z')).urls).toEqual([ZETA]);
    expect((await startRecheckRun(db, { kind: 'model', model: 'Gone-1' }, 'run-4', '2026-12-05T09:03:00Z')).urls).toEqual([]);
    const one = await startRecheckRun(db, { kind: 'source', url: KIMI }, 'run-5', '2026-12-05T09:04:00Z');
    expect(one.urls).toEqual([KIMI]);
    // Each start replaces the run before it.
    expect(await getRecheckRun(db)).toEqual(one);
  });

  it('is finished at once when its scope has no source, and is forgotten on clear (the findings stay)', async () => {
    const db = await seeded();
    const empty = await startRecheckRun(db, { kind: 'source', url: GONE }, 'run-1', '2026-12-05T09:00:00Z');
    expect(empty).toMatchObject({ urls: [], pending: [], finished_at: '2026-12-05T09:00:00Z' });
    await saveFindings(db, findings(ZETA, [verdict(zeta1, 'unchanged')]), AT);
    await clearRecheckRun(db);
    expect(await getRecheckRun(db)).toBeNull();
    expect(await db.get('meta', RECHECK_RUN_KEY)).toBeUndefined();
    expect((await getRechecks(db)).map((r) => r.url)).toEqual([ZETA]);
  });

  it('rechecks the live claims of a source only', async () => {
    const db = await seeded();
    expect((await claimsToRecheck(db, ZETA)).map((c) => c.id).sort()).toEqual(['clm_kimi_00002', 'clm_zeta_00001', 'clm_zeta_00002']);
    expect(await claimsToRecheck(db, GONE)).toEqual([]);
  });
});

describe("saving a source's findings", () => {
  it('stores the findings and an unchanged record checked today when every passage is as it was', async () => {
    const db = await seeded();
    const found = findings(ZETA, [verdict(zeta1, 'unchanged'), verdict(zeta2, 'unchanged'), verdict(kimiOnZeta, 'unchanged')]);
    const saved = await saveFindings(db, found, AT);
    expect(saved).toEqual({
      url: ZETA,
      findings: found,
      record: {
        schema: SOURCE_SCHEMA,
        url: ZETA,
        checked: '2026-12-05',
        status: 'unchanged',
        claims: { unchanged: 3, edited: 0, gone: 0 },
        updated_at: AT.now,
      },
    });
    expect(await getRechecks(db)).toEqual([saved]);
    expect(await sourceRecords(db)).toEqual([saved.record]);
  });

  it('says changed, with the counts, when a passage was edited or is gone', async () => {
    const db = await seeded();
    const edited = await saveFindings(db, findings(ZETA, [verdict(zeta1, 'edited', { text: 'Reasoning RL uses GRPO.' }), verdict(zeta2, 'unchanged')]), AT);
    expect(edited.record).toMatchObject({ status: 'changed', checked: '2026-12-05', claims: { unchanged: 1, edited: 1, gone: 0 } });
    const gone = await saveFindings(db, findings(KIMI, [verdict(CLAIMS[2]!, 'gone')]), AT);
    expect(gone.record).toMatchObject({ status: 'changed', checked: '2026-12-05', claims: { unchanged: 0, edited: 0, gone: 1 } });
  });

  it('keeps the last day the source could be read, and its counts, when it is unreachable', async () => {
    const db = await seeded();
    await saveFindings(db, findings(ZETA, [verdict(zeta1, 'unchanged'), verdict(zeta2, 'edited')]), { now: '2026-12-01T10:00:00Z', today: '2026-12-01' });
    const later = await saveFindings(db, findings(ZETA, [verdict(zeta1, 'unreachable'), verdict(zeta2, 'unreachable')]), AT);
    expect(later.record).toEqual({
      schema: SOURCE_SCHEMA,
      url: ZETA,
      checked: '2026-12-01',
      status: 'unreachable',
      claims: { unchanged: 1, edited: 1, gone: 0 },
      updated_at: AT.now,
    });
    // Never read by a recheck: the newest day a curator read it, and no counts.
    const never = await saveFindings(db, findings(KIMI, [verdict(CLAIMS[2]!, 'unreachable')]), AT);
    expect(never.record).toMatchObject({ checked: '2026-11-20', status: 'unreachable', claims: { unchanged: 0, edited: 0, gone: 0 } });
  });

  it('takes the source off the run, which is finished once none is left', async () => {
    const db = await seeded();
    await startRecheckRun(db, { kind: 'all' }, 'run-1', '2026-12-05T09:00:00Z');
    await saveFindings(db, findings(ZETA, [verdict(zeta1, 'unchanged')]), AT);
    expect(await getRecheckRun(db)).toMatchObject({ urls: [KIMI, ZETA], pending: [KIMI], finished_at: null });
    await saveFindings(db, findings(KIMI, [verdict(CLAIMS[2]!, 'unchanged')]), { now: '2026-12-05T10:05:00Z', today: '2026-12-05' });
    expect(await getRecheckRun(db)).toMatchObject({ pending: [], finished_at: '2026-12-05T10:05:00Z' });
  });

  it('leaves a run that does not cover the source as it is', async () => {
    const db = await seeded();
    const run = await startRecheckRun(db, { kind: 'source', url: KIMI }, 'run-1', '2026-12-05T09:00:00Z');
    await saveFindings(db, findings(ZETA, [verdict(zeta1, 'unchanged')]), AT);
    expect(await getRecheckRun(db)).toEqual(run);
  });

  it('stores all of it or none: a run that cannot be moved on keeps the findings out too', async () => {
    const db = await seeded();
    // A damaged stored run whose pending "list" claims the URL but cannot be filtered: moving it on throws.
    await db.put('meta', { id: 'broken', scope: { kind: 'all' }, started_at: AT.now, urls: [ZETA], pending: ZETA, finished_at: null }, RECHECK_RUN_KEY);
    await expect(saveFindings(db, findings(ZETA, [verdict(zeta1, 'unchanged')]), AT)).rejects.toThrow();
    expect(await getRechecks(db)).toEqual([]);
  });
});

describe('source records from elsewhere', () => {
  it('keeps the later updated_at of stored and incoming records, the incoming one on a tie, and counts what changed', async () => {
    const db = await seeded();
    const stored = record(ZETA, { updated_at: '2026-12-03T09:00:00Z', checked: '2026-12-03' });
    expect(await putSourceRecords(db, [stored])).toBe(1);
    const older = record(ZETA, { updated_at: '2026-12-02T09:00:00Z', checked: '2026-12-02', status: 'changed' });
    expect(await putSourceRecords(db, [older])).toBe(0);
    expect(await sourceRecords(db)).toEqual([stored]);
    const tie = record(ZETA, { updated_at: '2026-12-03T09:00:00Z', checked: '2026-12-03', status: 'changed', claims: { unchanged: 1, edited: 1, gone: 0 } });
    const newer = record(KIMI, { updated_at: '2026-12-04T09:00:00Z' });
    expect(await putSourceRecords(db, [tie, newer])).toBe(2);
    expect(await sourceRecords(db)).toEqual([newer, tie]);
    // The same record again changes nothing; none at all neither.
    expect(await putSourceRecords(db, [newer])).toBe(0);
    expect(await putSourceRecords(db, [])).toBe(0);
  });

  it("never touches this store's findings", async () => {
    const db = await seeded();
    const found = findings(ZETA, [verdict(zeta1, 'edited', { text: 'Reasoning RL uses GRPO.' })]);
    await saveFindings(db, found, AT);
    const pulled = record(ZETA, { updated_at: '2026-12-06T09:00:00Z', checked: '2026-12-06' });
    expect(await putSourceRecords(db, [pulled])).toBe(1);
    expect(await getRechecks(db)).toEqual([{ url: ZETA, record: pulled, findings: found }]);
    expect((await getRechecks(db))[0]!.findings).toEqual(found);
  });
});

describe('accepting an edited passage', () => {
  const NEW = {
    quote: { exact: 'Reasoning RL now uses GRPO without a KL term.', prefix: 'In the second stage. ', suffix: ' Rewards are rule-based.' },
    position: { start: 120, end: 166 },
  };

  async function withEdit(): Promise<RecipeDatabase> {
    const db = await seeded();
    await saveFindings(db, findings(ZETA, [verdict(zeta1, 'edited', { text: NEW.quote.exact, selectors: NEW }), verdict(zeta2, 'unchanged')]), AT);
    return db;
  }

  it("moves the claim's quote, position and link to the new text and bumps updated_at; the verdict says it was accepted", async () => {
    const db = await withEdit();
    const { before, after } = await acceptEdit(db, zeta1.id, '2026-12-05T11:00:00Z');
    expect(before).toEqual(zeta1);
    expect(after).toEqual({
      ...zeta1,
      quote: NEW.quote,
      position: NEW.position,
      link: defaultClaimLink({ ...zeta1, quote: NEW.quote }),
      updated_at: '2026-12-05T11:00:00Z',
    });
    expect(after.link).toContain('#:~:text=');
    expect((await getClaims(db, [zeta1.id]))[0]).toEqual(after);
    const kept = (await getRechecks(db))[0]!.findings!.verdicts;
    expect(kept.find((v) => v.id === zeta1.id)).toMatchObject({ accepted_at: '2026-12-05T11:00:00Z', claim_updated_at: '2026-12-05T11:00:00Z' });
    expect(kept.find((v) => v.id === zeta2.id)!.accepted_at).toBeUndefined();
  });

  it('refuses once the claim changed since the recheck, and leaves it as it is', async () => {
    const db = await withEdit();
    const edited = { ...zeta1, note: 'checked by hand', updated_at: '2026-12-05T10:30:00Z' };
    await putClaims(db, [edited]);
    await expect(acceptEdit(db, zeta1.id, '2026-12-05T11:00:00Z')).rejects.toThrow(/changed after its source was rechecked/);
    expect((await getClaims(db, [zeta1.id]))[0]).toEqual(edited);
  });

  it('refuses a passage the recheck did not find edited, and a claim that is not stored', async () => {
    const db = await withEdit();
    await expect(acceptEdit(db, zeta2.id, '2026-12-05T11:00:00Z')).rejects.toThrow(/no new text/);
    await expect(acceptEdit(db, kimiOnZeta.id, '2026-12-05T11:00:00Z')).rejects.toThrow(/no new text/);
    await expect(acceptEdit(db, 'clm_not_stored', '2026-12-05T11:00:00Z')).rejects.toThrow(/No claim clm_not_stored/);
    expect(await allClaimsWithTombstones(db)).toEqual([...CLAIMS].sort((a, b) => (a.id < b.id ? -1 : 1)));
  });
});
