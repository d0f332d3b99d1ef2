import { describe, expect, it } from 'vitest';
import {
  DB_VERSION,
  allClaims,
  allClaimsWithTombstones,
  claimsForPdf,
  claimsForUrl,
  countClaimsForUrl,
  deleteClaims,
  getClaims,
  getSource,
  importRecords,
  modelNames,
  putClaims,
  putSource,
  surveyHead,
} from '../../../lib/db';
import { claim, model } from '../fixtures/records';
import { freshDatabases } from '../../support/databases';
import { storedClaim, storedClaimCount } from '../fixtures/db/stored';

const fresh = freshDatabases('db-test');

describe('the database', () => {
  it('opens at the newest version with its stores and indexes', async () => {
    const db = await fresh();
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual(['dismissals', 'meta', 'models', 'pages', 'rechecks', 'sources', 'synced']);
    const indexes = [...db.transaction('pages').store.indexNames].sort();
    expect(indexes).toEqual(['by-arxiv', 'by-fingerprint', 'by-id', 'by-model']);
    expect([...db.transaction('dismissals').store.indexNames]).toEqual(['by-url']);
  });

  it('finds claims by page URL and by model, and saving the same id twice keeps one copy', async () => {
    const db = await fresh();
    const a = claim({ id: 'clm_a0000001' });
    const b = claim({ id: 'clm_b0000001', model: 'Other', source: { ...claim().source, url: 'https://example.org/other' } });
    await putClaims(db, [a, b]);
    await putClaims(db, [{ ...a, note: 'retry' }]);
    expect(await claimsForUrl(db, a.source.url)).toEqual([{ ...a, note: 'retry' }]);
    expect(await countClaimsForUrl(db, 'https://example.org/nothing')).toBe(0);
    expect((await db.getAllFromIndex('pages', 'by-model', 'Other')).map((p) => p.ids)).toEqual([['clm_b0000001']]);
    expect((await getClaims(db, ['clm_a0000001', 'clm_missing01'])).map((c) => c.id)).toEqual(['clm_a0000001']);
  });

  it('deletes and returns what it deleted, for undo', async () => {
    const db = await fresh();
    const a = claim({ id: 'clm_a0000001' });
    await putClaims(db, [a]);
    expect(await deleteClaims(db, ['clm_a0000001', 'clm_missing01'])).toEqual([a]);
    expect(await claimsForUrl(db, a.source.url)).toEqual([]);
  });

  it('keeps a deleted claim as a tombstone that no query shows, and undo puts the claim back as it was', async () => {
    const db = await fresh();
    const a = claim({ id: 'clm_a0000001', model: 'Qwen3' });
    const b = claim({ id: 'clm_b0000001', model: 'Qwen3', position: { start: 400, end: 420 } });
    const pdf = claim({
      id: 'clm_p0000001',
      model: 'GLM-5',
      source: { ...claim().source, url: 'https://example.org/glm-5.pdf' },
      pdf: { fingerprint: 'f00d', page: 3, arxiv: null },
    });
    await putClaims(db, [a, b, pdf]);
    expect(await deleteClaims(db, ['clm_a0000001', 'clm_p0000001'], '2026-12-01T08:00:00Z')).toEqual([a, pdf]);
    // The tombstone: every field as it was, deleted_at and updated_at set together.
    expect(await storedClaim(db, 'clm_a0000001')).toEqual({ ...a, updated_at: '2026-12-01T08:00:00Z', deleted_at: '2026-12-01T08:00:00Z' });
    expect((await claimsForUrl(db, a.source.url)).map((c) => c.id)).toEqual(['clm_b0000001']);
    expect(await countClaimsForUrl(db, a.source.url)).toBe(1);
    expect(await getClaims(db, ['clm_a0000001', 'clm_b0000001'])).toEqual([b]);
    expect((await allClaims(db)).map((c) => c.id)).toEqual(['clm_b0000001']);
    expect((await allClaimsWithTombstones(db)).map((c) => c.id).sort()).toEqual(['clm_a0000001', 'clm_b0000001', 'clm_p0000001']);
    expect(await claimsForPdf(db, { url: null, fingerprint: 'f00d', arxiv: null })).toEqual([]);
    expect(await modelNames(db)).toEqual(['Qwen3']);
    expect((await surveyHead(db, 5)).claims.map((c) => c.id)).toEqual(['clm_b0000001']);
    // Deleting a tombstone again changes nothing.
    expect(await deleteClaims(db, ['clm_a0000001'], '2026-12-02T08:00:00Z')).toEqual([]);
    expect((await storedClaim(db, 'clm_a0000001'))!.deleted_at).toBe('2026-12-01T08:00:00Z');
    // A source correction leaves tombstones as they were deleted.
    expect(
      await putSource(db, { url: a.source.url, title: 'New title', kind: 'technical_report', publisher: null, published: null }, '2026-12-03T08:00:00Z'),
    ).toBe(1);
    expect((await storedClaim(db, 'clm_a0000001'))!.source.title).toBe(a.source.title);
    // Undo: the claims come back exactly as they were.
    await putClaims(db, [a, pdf]);
    expect((await claimsForUrl(db, a.source.url)).map((c) => c.id).sort()).toEqual(['clm_a0000001', 'clm_b0000001']);
    expect(await storedClaim(db, 'clm_a0000001')).toEqual(a);
    expect(await claimsForPdf(db, { url: null, fingerprint: 'f00d', arxiv: null })).toEqual([pdf]);
    expect(await modelNames(db)).toEqual(['Qwen3', 'GLM-5']);
  });

  it('leaves out of the survey head a model whose claims are all tombstones', async () => {
    const db = await fresh();
    await putClaims(db, [
      claim({ id: 'clm_a0000001', model: 'Alpha' }),
      claim({ id: 'clm_b0000001', model: 'Beta' }),
      claim({ id: 'clm_c0000001', model: 'Gamma' }),
    ]);
    await deleteClaims(db, ['clm_a0000001'], '2026-12-01T08:00:00Z');
    const head = await surveyHead(db, 1);
    expect(head.claims.map((c) => c.model)).toEqual(['Beta']);
  });

  it('heads the survey with the first models by name, every claim of theirs over several pages, and nothing of the next', async () => {
    const db = await fresh();
    const on = (url: string) => ({ ...claim().source, url });
    await putClaims(db, [
      claim({ id: 'clm_a0000001', model: 'Alpha', source: on('https://a.example/1') }),
      claim({ id: 'clm_a0000002', model: 'Alpha', source: on('https://a.example/2') }),
      claim({ id: 'clm_a0000003', model: 'Alpha', source: on('https://a.example/3') }),
      claim({ id: 'clm_b0000001', model: 'Beta', source: on('https://a.example/2') }),
      claim({ id: 'clm_c0000001', model: 'Gamma', source: on('https://a.example/1') }),
      claim({ id: 'clm_c0000002', model: 'Gamma', source: on('https://a.example/4') }),
    ]);
    const head = await surveyHead(db, 2);
    expect(head.claims.map((c) => c.id)).toEqual(['clm_a0000001', 'clm_a0000002', 'clm_a0000003', 'clm_b0000001']);
    expect((await surveyHead(db, 3)).claims).toHaveLength(6);
    expect((await surveyHead(db, 10)).claims).toHaveLength(6);
  });

  it('lists model names by use, including models known only from model records', async () => {
    const db = await fresh();
    await putClaims(db, [
      claim({ id: 'clm_a0000001', model: 'Qwen3' }),
      claim({ id: 'clm_a0000002', model: 'Qwen3' }),
      claim({ id: 'clm_a0000003', model: 'GLM-5' }),
    ]);
    await importRecords(db, [model({ model: 'Kimi K2.6' })]);
    expect(await modelNames(db)).toEqual(['Qwen3', 'GLM-5', 'Kimi K2.6']);
  });

  it('applies a source correction to every claim on the page, keeping each accessed date', async () => {
    const db = await fresh();
    const url = claim().source.url;
    await putClaims(db, [claim({ id: 'clm_a0000001' }), claim({ id: 'clm_a0000002', source: { ...claim().source, accessed: '2026-01-02' } })]);
    const updated = await putSource(db, { url, title: 'Corrected', kind: 'official_blog', publisher: 'Lab', published: '2026-09-09' }, '2026-11-30T00:00:00Z');
    expect(updated).toBe(2);
    const claims = await claimsForUrl(db, url);
    expect(claims.map((c) => [c.source.title, c.source.kind, c.source.accessed]).sort()).toEqual([
      ['Corrected', 'official_blog', '2026-01-02'],
      ['Corrected', 'official_blog', '2026-11-29'],
    ]);
    expect((await getSource(db, url))?.publisher).toBe('Lab');
  });
});

describe('importing records', () => {
  it('adds new records, replaces only with newer ones, and counts what it did', async () => {
    const db = await fresh();
    const first = await importRecords(db, [claim(), model()]);
    expect(first).toEqual({ added: 2, updated: 0, unchanged: 0 });
    const older = claim({ value: 'PPO', updated_at: '2026-01-01T00:00:00Z' });
    const newer = claim({ value: 'GSPO', updated_at: '2026-12-01T00:00:00.500Z' });
    expect(await importRecords(db, [older, model()])).toEqual({ added: 0, updated: 0, unchanged: 2 });
    expect(await importRecords(db, [newer])).toEqual({ added: 0, updated: 1, unchanged: 0 });
    expect((await getClaims(db, [claim().id]))[0]!.value).toBe('GSPO');
  });

  it('stores nothing when one record cannot be written', async () => {
    const db = await fresh();
    const broken = { ...claim({ id: 'clm_b0000001' }), source: undefined } as never; // no source.url: the by-url index cannot take it
    const unstorable = { ...claim({ id: 'clm_c0000001' }), id: undefined } as never; // no key at all
    await expect(importRecords(db, [claim({ id: 'clm_a0000001' }), broken, unstorable])).rejects.toThrow();
    expect(await storedClaimCount(db)).toBe(0);
  });
});
