// Bulk moves in and out of the database: planned imports, restores, backups and the change count.
import { describe, expect, it } from 'vitest';
import { getBackupState, noteChanges, putSource, replaceStore, storeRefs, storedVersions, takeBackup, writeImport, type RecipeDatabase } from '../../../lib/db';
import { parseBackup, toBackup } from '../../../lib/backup';
import { toJsonl } from '../../../lib/export';
import { planStoreImport, resolvePlan } from '../../../lib/import/preview';
import { type ClaimRecord, type SurveyRecord } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';
import { freshDatabases } from '../../support/databases';
import { storedClaim, storedClaimCount, storedClaims } from '../fixtures/db/stored';

const NOW = '2026-11-29T12:00:00Z';
const fresh = freshDatabases('transfer-test');

/** Imports as the background does: plan inside the transaction, resolve, write. */
function importInto(db: RecipeDatabase, records: SurveyRecord[], take: 'mine' | 'theirs' = 'mine') {
  return writeImport(
    db,
    records,
    (stored) => {
      const plan = planStoreImport(stored, records);
      const { writes, kept, taken } = resolvePlan(plan, [], take);
      return { writes, result: { added: plan.added, updated: plan.updated, unchanged: plan.unchanged, kept, taken } };
    },
    NOW,
  );
}

async function everything(db: RecipeDatabase): Promise<string> {
  const claims = await storedClaims(db);
  const models = (await db.getAll('models')).map(({ key: _key, ...m }) => m);
  return toJsonl(claims, models);
}

describe('writeImport', () => {
  it('stores new records, counts them as changes, and a second run changes nothing', async () => {
    const db = await fresh();
    const records = [claim({ id: 'clm_a0000001' }), claim({ id: 'clm_b0000001' }), model()];
    expect(await importInto(db, records)).toEqual({ added: 3, updated: 0, unchanged: 0, kept: 0, taken: 0 });
    expect(await importInto(db, records)).toEqual({ added: 0, updated: 0, unchanged: 3, kept: 0, taken: 0 });
    expect(await getBackupState(db)).toEqual({ lastBackupAt: null, changes: 3, firstChangeAt: NOW });
    expect((await storedVersions(db, [claim({ id: 'clm_b0000001' }), claim({ id: 'clm_zzzzzzzz' }), model()])).length).toBe(2);
  });

  it('writes the incoming version of a conflict only when the curator takes it', async () => {
    const db = await fresh();
    await importInto(db, [claim()]);
    const theirs = claim({ value: 'GSPO' });
    expect(await importInto(db, [theirs], 'mine')).toMatchObject({ kept: 1, taken: 0 });
    expect((await storedClaim(db, claim().id))!.value).toBe('GRPO');
    expect(await importInto(db, [theirs], 'theirs')).toMatchObject({ kept: 0, taken: 1 });
    expect((await storedClaim(db, claim().id))!.value).toBe('GSPO');
  });

  it('stores nothing, and counts nothing, when one record cannot be written', async () => {
    const db = await fresh();
    const unstorable = { ...claim({ id: 'clm_b0000001' }), id: undefined } as unknown as ClaimRecord; // no key at all
    const uncloneable = { ...claim({ id: 'clm_c0000001' }), note: () => 'a function' } as unknown as ClaimRecord;
    await expect(importInto(db, [claim({ id: 'clm_a0000001' }), unstorable])).rejects.toThrow();
    await expect(importInto(db, [claim({ id: 'clm_a0000001' }), uncloneable])).rejects.toThrow();
    expect(await storedClaimCount(db)).toBe(0);
    expect((await getBackupState(db)).changes).toBe(0);
  });

  it('stores 5,000 records in one go', async () => {
    const db = await fresh();
    const many = Array.from({ length: 5000 }, (_, i) => claim({ id: `clm_many_${String(i).padStart(6, '0')}` }));
    expect(await importInto(db, many)).toMatchObject({ added: 5000 });
    expect(await storedClaimCount(db)).toBe(5000);
  });
});

describe('backups and restores', () => {
  it('round-trip the store: records exactly as stored, and source corrections', async () => {
    const db = await fresh();
    await importInto(db, [claim({ id: 'clm_a0000001', extra_field: 'kept' }), claim({ id: 'clm_b0000001', model: 'Other' }), model()]);
    await putSource(db, { url: claim().source.url, title: 'Corrected', kind: 'technical_report', publisher: 'Zeta Lab', published: null }, NOW);
    const before = await everything(db);
    const sourcesBefore = await db.getAll('sources');

    const contents = await takeBackup(db, NOW);
    expect(await getBackupState(db)).toEqual({ lastBackupAt: NOW, changes: 0, firstChangeAt: null });
    const backup = parseBackup(toBackup(contents, NOW));
    expect(backup.errors).toEqual([]);

    // The store moves on, then the backup is restored.
    await importInto(db, [claim({ id: 'clm_c0000001' }), claim({ id: 'clm_a0000001', value: 'PPO', updated_at: '2026-12-01T00:00:00Z' })]);
    await db.clear('sources');
    await noteChanges(db, 5, NOW);
    expect((await storeRefs(db)).claims).toBe(3);
    await replaceStore(db, backup.records, backup.sources);

    expect(await everything(db)).toBe(before);
    expect(await db.getAll('sources')).toEqual(sourcesBefore);
    expect((await storedClaim(db, 'clm_a0000001'))!.extra_field).toBe('kept');
    expect(await getBackupState(db)).toEqual({ lastBackupAt: NOW, changes: 0, firstChangeAt: null });
  });

  it('restoring a JSONL file leaves source corrections alone', async () => {
    const db = await fresh();
    await putSource(db, { url: 'https://example.org/p', title: 'P', kind: 'official_blog', publisher: null, published: null }, NOW);
    await replaceStore(db, [claim()], null);
    expect(await db.count('sources')).toBe(1);
    expect(await storeRefs(db)).toMatchObject({ claims: 1, models: 0, sources: 1 });
  });
});
