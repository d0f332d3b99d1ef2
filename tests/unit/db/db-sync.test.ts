// The store's side of the dataset sync: snapshot with tombstones and bases, a pull written in one transaction
// and planned again inside it, bases forgotten when a backup replaces the store.
import { describe, expect, it } from 'vitest';
import { planPull, recordHash, recordRef, settlePull } from '../../../lib/dataset';
import {
  deleteClaims,
  getBackupState,
  getDatasetState,
  putClaims,
  putDatasetState,
  replaceStore,
  syncSnapshot,
  writeSync,
  type RecipeDatabase,
} from '../../../lib/db';
import type { SurveyRecord } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';
import { storedClaim } from '../fixtures/db/stored';
import { freshDatabases } from '../../support/databases';

const fresh = freshDatabases('db-sync-test');

const at = (minute: number) => `2026-12-01T10:${String(minute).padStart(2, '0')}:00Z`;

/** A pull committed the way the background will: planned again against what the transaction reads. */
function commitPull(db: RecipeDatabase, remote: SurveyRecord[], choices = new Map<string, 'mine' | 'theirs' | 'later'>()) {
  return writeSync(
    db,
    remote,
    (stored, bases) => {
      const plan = planPull(stored, bases, remote);
      const settled = settlePull(plan, choices, 'later', at(30));
      return { writes: settled.writes, bases: settled.bases, result: { plan, settled } };
    },
    at(30),
  );
}

describe('syncing the store', () => {
  it('gives every record, tombstones and model records included, with the bases', async () => {
    const db = await fresh();
    await putClaims(db, [claim({ id: 'clm_a0000001' }), claim({ id: 'clm_b0000001' })]);
    await deleteClaims(db, ['clm_b0000001'], at(1));
    await writeSync(db, [], () => ({ writes: [model()], bases: [['claim:clm_a0000001', 'aaaa']], result: null }), at(2));
    const snap = await syncSnapshot(db);
    expect(snap.records.map(recordRef).sort()).toEqual(['claim:clm_a0000001', 'claim:clm_b0000001', 'model:Zeta-2']);
    expect(snap.bases).toEqual(new Map([['claim:clm_a0000001', 'aaaa']]));
  });

  it('writes a pull and its bases in one transaction, counting the records towards the backup reminder', async () => {
    const db = await fresh();
    const mine = claim({ id: 'clm_a0000001', updated_at: at(1) });
    await putClaims(db, [mine]);
    const remote = [claim({ id: 'clm_a0000001', value: 'PPO', updated_at: at(2) }), claim({ id: 'clm_n0000001', updated_at: at(2) })];
    const { plan } = await commitPull(db, remote);
    expect(plan).toMatchObject({ added: 1, updated: 1, conflicts: [] });
    const snap = await syncSnapshot(db);
    expect(snap.records.find((r) => recordRef(r) === 'claim:clm_a0000001')).toEqual(remote[0]);
    expect(snap.bases.get('claim:clm_n0000001')).toBe(recordHash(remote[1]!));
    expect((await getBackupState(db)).changes).toBe(2);
  });

  it('plans again inside the transaction: a claim edited after the preview is not overwritten', async () => {
    const db = await fresh();
    const synced = claim({ id: 'clm_a0000001', updated_at: at(1) });
    await putClaims(db, [synced]);
    await writeSync(db, [], () => ({ writes: [], bases: [[recordRef(synced), recordHash(synced)]], result: null }), at(1));
    const remote = [claim({ id: 'clm_a0000001', value: 'theirs', updated_at: at(5) })];
    // The preview says "updated"…
    const preview = planPull((await syncSnapshot(db)).records, (await syncSnapshot(db)).bases, remote);
    expect(preview.updated).toBe(1);
    // …then the curator edits the claim before confirming: the commit sees it and asks instead.
    await putClaims(db, [claim({ id: 'clm_a0000001', value: 'mine', updated_at: at(3) })]);
    const { plan } = await commitPull(db, remote);
    expect(plan.conflicts.map((c) => c.reason)).toEqual(['overtaken']);
    expect((await storedClaim(db, 'clm_a0000001'))!.value).toBe('mine');
  });

  it('forgets the bases when a backup replaces the store', async () => {
    const db = await fresh();
    await writeSync(db, [], () => ({ writes: [], bases: [['claim:clm_a0000001', 'aaaa']], result: null }), at(1));
    await replaceStore(db, [claim({ id: 'clm_a0000001' })], null);
    expect((await syncSnapshot(db)).bases.size).toBe(0);
  });
});

describe('the dataset state', () => {
  it('remembers the last pull and publish, and forgets the bases when another dataset is connected', async () => {
    const db = await fresh();
    const team = { url: 'https://git.example.org/team/survey.git', branch: 'main' };
    expect(await getDatasetState(db)).toBeNull();
    await putDatasetState(db, team, { lastPullAt: at(1), lastPulledCommit: 'abc', conflicts: 2 });
    await writeSync(db, [], () => ({ writes: [], bases: [['claim:clm_a0000001', 'aaaa']], result: null }), at(1));
    const after = await putDatasetState(db, team, { lastPublishAt: at(2), lastPublishedCommit: 'def' });
    expect(after).toEqual({
      ...team,
      lastPullAt: at(1),
      lastPulledCommit: 'abc',
      lastPublishAt: at(2),
      lastPublishedCommit: 'def',
      conflicts: 2,
      reviews: [],
    });
    expect((await syncSnapshot(db)).bases.size).toBe(1);
    // Another branch is another dataset: start afresh.
    const other = await putDatasetState(db, { ...team, branch: 'dataset' }, {});
    expect(other).toMatchObject({ branch: 'dataset', lastPullAt: null, conflicts: 0 });
    expect((await syncSnapshot(db)).bases.size).toBe(0);
    expect(JSON.stringify(await getDatasetState(db))).not.toContain('token');
  });

  it('reads a state kept before reviews were followed: its last review is one open review, and the next write keeps it so', async () => {
    const db = await fresh();
    const team = { url: 'https://git.example.org/team/survey.git', branch: 'main' };
    const old = { ...team, lastPullAt: null, lastPulledCommit: null, lastPublishAt: at(3), lastPublishedCommit: 'abc', conflicts: 0 };
    await db.put(
      'meta',
      { ...old, review: { branch: 'curators/alice', url: 'https://git.example.org/team/survey/compare/main...curators/alice', at: at(3) } },
      'dataset',
    );
    const read = await getDatasetState(db);
    expect(read).toEqual({
      ...old,
      reviews: [
        {
          branch: 'curators/alice',
          url: 'https://git.example.org/team/survey/compare/main...curators/alice',
          openedAt: at(3),
          updatedAt: at(3),
          commit: null,
          base: null,
          records: [],
          state: 'open',
          mergedAt: null,
        },
      ],
    });
    const next = await putDatasetState(db, team, { lastPullAt: at(4) });
    expect(next.reviews).toEqual(read!.reviews);
    expect(Object.keys((await db.get('meta', 'dataset')) as object)).not.toContain('review');
  });
});
