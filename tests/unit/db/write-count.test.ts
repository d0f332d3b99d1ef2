import { describe, expect, it } from 'vitest';
import {
  countWrites,
  deleteClaims,
  importRecords,
  KeptUntilWrite,
  putClaims,
  putModel,
  putSourceRecords,
  SURVEY_HEAD_STORES,
  surveyHead,
  writesStarted,
  type RecipeDatabase,
} from '../../../lib/db';
import { freshDatabases } from '../../support/databases';
import { claim, model, sourceRecord } from '../fixtures/records';

const empty = freshDatabases('write-count-test');
/** An empty database through a connection whose writes are counted, as the background opens it. */
async function fresh(): Promise<RecipeDatabase> {
  return countWrites(await empty());
}

describe('countWrites', () => {
  it('counts every write transaction and write shortcut by the stores it writes, and no read', async () => {
    const db = await fresh();
    const all = ['pages', 'models', 'dismissals'] as const;
    expect(writesStarted(db, all)).toBe(0);
    await db.getAll('pages');
    await db.transaction(['pages', 'models']).done;
    await db.transaction('models', 'readonly').done;
    expect(writesStarted(db, all)).toBe(0);
    await db.transaction('models', 'readwrite').done;
    expect(writesStarted(db, ['models'])).toBe(1);
    expect(writesStarted(db, ['pages'])).toBe(0);
    await db.transaction(['pages', 'models'], 'readwrite').done;
    expect(writesStarted(db, ['pages'])).toBe(1);
    expect(writesStarted(db, ['models'])).toBe(2);
    await db.put('dismissals', { url: 'https://a.example/', key: 'k', sentence: 'A sentence.', dismissed_at: '2026-12-01T00:00:00Z' });
    await db.delete('models', 'nothing');
    await db.clear('dismissals');
    expect(writesStarted(db, ['dismissals'])).toBe(2);
    expect(writesStarted(db, ['models'])).toBe(3);
    expect(writesStarted(db, ['pages', 'models'])).toBe(4);
  });

  it('counts the writes the store functions make, and answers reads as the connection does', async () => {
    const db = await fresh();
    await putClaims(db, [claim({ id: 'clm_a0000001', model: 'Alpha' })]);
    const afterPut = writesStarted(db, ['pages'])!;
    expect(afterPut).toBeGreaterThan(0);
    await deleteClaims(db, ['clm_a0000001'], '2026-12-01T08:00:00Z');
    expect(writesStarted(db, ['pages'])!).toBeGreaterThan(afterPut);
    expect(writesStarted(db, ['models'])).toBe(0);
    await putModel(db, model({ model: 'Alpha' }));
    expect(writesStarted(db, ['models'])).toBe(1);
    expect((await db.getAll('models')).map((m) => m.model)).toEqual(['Alpha']);
    expect(db.name).toMatch(/^write-count-test-/);
  });

  it('knows nothing of a connection it did not count', async () => {
    expect(writesStarted(await empty(), ['pages'])).toBeNull();
  });
});

describe('KeptUntilWrite', () => {
  it('gives the kept survey head until any write: a claim added, deleted, a model record, a source record, an import', async () => {
    const db = await fresh();
    let reads = 0;
    const head = new KeptUntilWrite(SURVEY_HEAD_STORES, (d: RecipeDatabase, n: number) => (reads++, surveyHead(d, n)));
    await putClaims(db, [claim({ id: 'clm_a0000001', model: 'Alpha' }), claim({ id: 'clm_b0000001', model: 'Beta' })]);
    const first = await head.get(db, 5);
    expect(first.claims.map((c) => c.id)).toEqual(['clm_a0000001', 'clm_b0000001']);
    expect(await head.get(db, 5)).toBe(first);
    expect(reads).toBe(1);
    // Another argument is another read.
    expect((await head.get(db, 1)).claims.map((c) => c.id)).toEqual(['clm_a0000001']);
    expect(reads).toBe(2);

    await putClaims(db, [claim({ id: 'clm_c0000001', model: 'Gamma' })]);
    expect((await head.get(db, 5)).claims.map((c) => c.id)).toEqual(['clm_a0000001', 'clm_b0000001', 'clm_c0000001']);
    await deleteClaims(db, ['clm_b0000001'], '2026-12-01T08:00:00Z');
    expect((await head.get(db, 5)).claims.map((c) => c.id)).toEqual(['clm_a0000001', 'clm_c0000001']);
    await putModel(db, model({ model: 'Alpha', vendor: 'Alpha Lab' }));
    expect((await head.get(db, 5)).models.map((m) => m.vendor)).toEqual(['Alpha Lab']);
    // The head's "as of" days follow the source records of the pages it cites.
    expect((await head.get(db, 5)).sources).toEqual([]);
    expect(await putSourceRecords(db, [sourceRecord()])).toBe(1);
    expect((await head.get(db, 5)).sources.map((r) => r.url)).toEqual([claim().source.url]);
    await importRecords(db, [model({ model: 'Gamma', vendor: 'Gamma Lab' })]);
    const last = await head.get(db, 5);
    expect(last.models.map((m) => m.vendor)).toEqual(['Alpha Lab', 'Gamma Lab']);
    expect(await head.get(db, 5)).toBe(last);
    // A write to a store the head does not read keeps it.
    const before = reads;
    await db.put('dismissals', { url: 'https://a.example/', key: 'k', sentence: 'A sentence.', dismissed_at: '2026-12-01T00:00:00Z' });
    expect(await head.get(db, 5)).toBe(last);
    expect(reads).toBe(before);
  });

  it('does not keep a read that failed, and keeps nothing for a connection it cannot count', async () => {
    const db = await fresh();
    let fail = true;
    const kept = new KeptUntilWrite(['pages'], async (_d: RecipeDatabase, n: number) => {
      if (fail) throw new Error('the store could not be read');
      return n * 2;
    });
    await expect(kept.get(db, 2)).rejects.toThrow('could not be read');
    fail = false;
    expect(await kept.get(db, 2)).toBe(4);

    const plain = await empty();
    let reads = 0;
    const uncounted = new KeptUntilWrite(['pages'], async (_d: RecipeDatabase, n: number) => (reads++, n));
    await uncounted.get(plain, 1);
    await uncounted.get(plain, 1);
    expect(reads).toBe(2);
  });
});
