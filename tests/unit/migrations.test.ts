import { afterEach, describe, expect, it } from 'vitest';
import { deleteDB, openDB } from 'idb';
import { MIGRATIONS, openRecipeDb, type RecipeDatabase } from '../../lib/db';
import { V1_CLAIMS, createV1Database } from './fixtures/db/v1';

let seq = 0;
const names: string[] = [];
function name(): string {
  const n = `migration-test-${++seq}`;
  names.push(n);
  return n;
}
afterEach(async () => {
  for (const n of names.splice(0)) await deleteDB(n);
});

describe('upgrading from version 1', () => {
  it('opens a version-1 store with every record migrated and the new indexes working', async () => {
    const n = name();
    await createV1Database(n);
    const db: RecipeDatabase = await openRecipeDb({ name: n });
    expect(db.version).toBe(MIGRATIONS[MIGRATIONS.length - 1]!.version);
    const all = await db.getAll('claims');
    expect(all.map((c) => c.id).sort()).toEqual(V1_CLAIMS.map((c) => c.id).sort());
    const backfilled = all.find((c) => c.id === 'clm_v1_000003')!;
    expect(backfilled.updated_at).toBe(backfilled.created_at);
    expect(await db.countFromIndex('claims', 'by-updated')).toBe(3);
    expect(await db.count('models')).toBe(0);
    db.close();
  });

  it('rolls back a migration that throws halfway: old version and records stay readable', async () => {
    const n = name();
    await createV1Database(n);
    const failing = [
      MIGRATIONS[0]!,
      {
        version: 2,
        description: 'a migration that fails after changing things',
        async run(db: any, tx: any) {
          db.createObjectStore('models', { keyPath: 'key' });
          await tx.objectStore('claims').clear();
          throw new Error('disk on fire');
        },
      },
    ];
    await expect(openRecipeDb({ name: n, migrations: failing })).rejects.toThrow(/rolled back.*disk on fire/);
    const old = await openDB(n);
    expect(old.version).toBe(1);
    expect([...old.objectStoreNames]).toEqual(['claims']);
    expect(await old.count('claims')).toBe(V1_CLAIMS.length);
    old.close();
  });

  it('closes an old connection when a newer version needs the database', async () => {
    const n = name();
    let closed = false;
    const old = await openRecipeDb({ name: n, migrations: MIGRATIONS.slice(0, 1), onClosed: () => (closed = true) });
    const upgraded = await openRecipeDb({ name: n });
    expect(closed).toBe(true);
    expect(upgraded.version).toBe(2);
    upgraded.close();
    void old;
  });
});
