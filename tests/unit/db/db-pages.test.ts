/** The pages layout (database version 7): a page's claims in one value, read and rewritten inside each write. */
import { describe, expect, it } from 'vitest';
import { allClaimsWithTombstones, claimsForPdf, claimsForUrl, importRecords, putClaims } from '../../../lib/db';
import { groupPages, pageValue } from '../../../lib/db/pages';
import type { ClaimRecord } from '../../../lib/schema';
import { claim } from '../fixtures/records';
import { freshDatabases } from '../../support/databases';

const fresh = freshDatabases('db-pages-test');
const on = (url: string, id: string, more: Partial<ClaimRecord> & Record<string, unknown> = {}) => claim({ id, source: { ...claim().source, url }, ...more });

describe('a page value', () => {
  it('holds its claims sorted by id, every id (tombstones too), and the index keys of its live claims only', () => {
    const page = pageValue('https://example.org/a', [
      on('https://example.org/a', 'clm_b0000001', { model: 'GLM-5', pdf: { fingerprint: 'f1', page: 1, arxiv: '2501.00001' } }),
      on('https://example.org/a', 'clm_a0000001', {
        model: 'Qwen3',
        deleted_at: '2026-12-01T00:00:00Z',
        pdf: { fingerprint: 'f2', page: 1, arxiv: '2501.00002' },
      }),
      on('https://example.org/a', 'clm_c0000001', { model: 'GLM-5' }),
    ]);
    expect(page.claims.map((c) => c.id)).toEqual(['clm_a0000001', 'clm_b0000001', 'clm_c0000001']);
    expect(page.ids).toEqual(['clm_a0000001', 'clm_b0000001', 'clm_c0000001']);
    expect(page).toMatchObject({ models: ['GLM-5'], fingerprints: ['f1'], arxiv: ['2501.00001'] });
  });

  it('groups claims by URL, a later claim with an id seen before replacing it', () => {
    const pages = groupPages([
      on('https://example.org/a', 'clm_a0000001'),
      on('https://example.org/b', 'clm_b0000001'),
      on('https://example.org/a', 'clm_a0000001', { value: 'PPO' }),
    ]);
    expect(pages.map((p) => [p.url, p.claims.map((c) => c.value)])).toEqual([
      ['https://example.org/a', ['PPO']],
      ['https://example.org/b', ['GRPO']],
    ]);
  });
});

describe('writes through pages', () => {
  it('in a store of 40 pages (where a save reads its pages by key), a claim that changed URL leaves its old page, and an emptied page goes', async () => {
    const db = await fresh();
    // 40 pages: one claim saved then reads a page or two by key, not the whole store.
    await putClaims(
      db,
      Array.from({ length: 40 }, (_, i) => on(`https://example.org/p${i}`, `clm_p${String(i).padStart(7, '0')}`)),
    );
    await putClaims(db, [on('https://example.org/p1', 'clm_p0000000', { value: 'moved' })]);
    expect(await claimsForUrl(db, 'https://example.org/p0')).toEqual([]);
    expect((await claimsForUrl(db, 'https://example.org/p1')).map((c) => [c.id, c.value])).toEqual([
      ['clm_p0000000', 'moved'],
      ['clm_p0000001', 'GRPO'],
    ]);
    expect(await db.get('pages', 'https://example.org/p0')).toBeUndefined();
    expect(await db.count('pages')).toBe(39);
  });

  it('an import that reads the whole store moves claims between pages and keeps each claim once', async () => {
    const db = await fresh();
    await putClaims(db, [
      on('https://example.org/a', 'clm_a0000001'),
      on('https://example.org/a', 'clm_a0000002'),
      on('https://example.org/b', 'clm_b0000001'),
    ]);
    const later = '2026-12-01T10:00:00Z';
    const counts = await importRecords(db, [
      on('https://example.org/b', 'clm_a0000001', { updated_at: later, pdf: { fingerprint: 'f9', page: 3, arxiv: null } }),
      on('https://example.org/c', 'clm_c0000001'),
      on('https://example.org/a', 'clm_a0000002'),
    ]);
    expect(counts).toEqual({ added: 1, updated: 1, unchanged: 1 });
    const all = await allClaimsWithTombstones(db);
    expect(all.map((c) => [c.id, c.source.url])).toEqual([
      ['clm_a0000001', 'https://example.org/b'],
      ['clm_a0000002', 'https://example.org/a'],
      ['clm_b0000001', 'https://example.org/b'],
      ['clm_c0000001', 'https://example.org/c'],
    ]);
    expect((await claimsForPdf(db, { url: null, fingerprint: 'f9', arxiv: null })).map((c) => c.id)).toEqual(['clm_a0000001']);
  });
});
