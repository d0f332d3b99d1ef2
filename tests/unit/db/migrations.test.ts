import { afterEach, describe, expect, it } from 'vitest';
import { deleteDB, openDB } from 'idb';
import { DB_VERSION, MIGRATIONS, openRecipeDb, type RecipeDatabase } from '../../../lib/db';
import { V1_CLAIMS, createV1Database } from '../fixtures/db/v1';
import { V2_CLAIMS, V2_FINGERPRINT, V2_MODELS, createV2Database } from '../fixtures/db/v2';
import { claimsForPdf, claimsForUrl, dismissedKeys, getSettings, putDismissal, putSettings } from '../../../lib/db';
import { V3_CLAIMS, V3_MODELS, createV3Database } from '../fixtures/db/v3';
import { V4_CLAIMS, V4_DISMISSAL, V4_MODELS, createV4Database } from '../fixtures/db/v4';
import { allClaims, deleteClaims, getBackupState, putClaims, syncSnapshot, writeSync } from '../../../lib/db';
import { allClaimsWithTombstones, countClaimsForUrl, getClaims, getSource, modelNames, putSource, surveyHead } from '../../../lib/db';
import { V6_BASES, V6_CLAIMS, V6_SOURCE, createV6Database } from '../fixtures/db/v6';
import { V5_BASES, V5_CLAIMS, V5_DISMISSAL, V5_MODELS, createV5Database } from '../fixtures/db/v5';
import { storedClaim, storedClaims } from '../fixtures/db/stored';
import { isTombstone } from '../../../lib/survey/tombstones';
import { getRechecks, saveFindings, sourceRecords } from '../../../lib/db';
import { V7_BACKUP, V7_BASES, V7_CLAIMS, V7_DISMISSAL, V7_MODELS, V7_SOURCE, createV7Database } from '../fixtures/db/v7';

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
    const all = await storedClaims(db);
    expect(all.map((c) => c.id).sort()).toEqual(V1_CLAIMS.map((c) => c.id).sort());
    const backfilled = all.find((c) => c.id === 'clm_v1_000003')!;
    expect(backfilled.updated_at).toBe(backfilled.created_at);
    expect(all.every((c) => typeof c.updated_at === 'string' && c.updated_at !== '')).toBe(true);
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
    expect(upgraded.version).toBe(MIGRATIONS[MIGRATIONS.length - 1]!.version);
    upgraded.close();
    void old;
  });
});

describe('upgrading from version 2', () => {
  it('opens a version-2 store with every record kept and PDF claims found by fingerprint and arXiv id', async () => {
    const n = name();
    await createV2Database(n);
    const db: RecipeDatabase = await openRecipeDb({ name: n });
    expect(db.version).toBe(MIGRATIONS[MIGRATIONS.length - 1]!.version);
    expect((await storedClaims(db)).map((c) => c.id).sort()).toEqual(V2_CLAIMS.map((c) => c.id).sort());
    expect(await db.count('models')).toBe(V2_MODELS.length);
    // Only pages with a claim carrying a pdf field are in the PDF indexes; a null arXiv id is no key.
    expect(await db.countFromIndex('pages', 'by-fingerprint')).toBe(2);
    expect(await db.getAllKeysFromIndex('pages', 'by-arxiv')).toEqual(['https://arxiv.org/pdf/2501.12948v1']);
    const byPrint = await claimsForPdf(db, { url: null, fingerprint: V2_FINGERPRINT, arxiv: null });
    expect(byPrint.map((c) => c.id).sort()).toEqual(['clm_v2_pdf_0001', 'clm_v2_pdf_0002']);
    // Another file (a new arXiv version) at another URL still finds the report's claims by its arXiv id; its URL finds the rest.
    const other = await claimsForPdf(db, { url: 'https://example.org/old.pdf', fingerprint: 'another-file', arxiv: '2501.12948' });
    expect(other.map((c) => c.id).sort()).toEqual(['clm_v2_pdf_0001', 'clm_v2_pdf_0003']);
    expect(await getSettings(db)).toEqual({ pdfAutoOpen: false, locale: 'auto', finderSites: [] });
    db.close();
  });

  it('rolls back a failing version-3 migration and leaves the version-2 store as it was', async () => {
    const n = name();
    await createV2Database(n);
    const failing = [
      ...MIGRATIONS.slice(0, 2),
      {
        version: 3,
        description: 'fails after adding an index',
        run(_db: unknown, tx: any) {
          tx.objectStore('claims').createIndex('by-fingerprint', 'pdf.fingerprint');
          throw new Error('index build failed');
        },
      },
    ];
    await expect(openRecipeDb({ name: n, migrations: failing })).rejects.toThrow(/rolled back.*index build failed/);
    const old = await openDB(n);
    expect(old.version).toBe(2);
    expect([...old.transaction('claims').store.indexNames].sort()).toEqual(['by-model', 'by-updated', 'by-url']);
    expect(await old.count('claims')).toBe(V2_CLAIMS.length);
    old.close();
  });
});

describe('upgrading from version 3', () => {
  it('opens a version-3 store with every record and setting kept, and an empty store of finder dismissals that works', async () => {
    const n = name();
    await createV3Database(n);
    const db: RecipeDatabase = await openRecipeDb({ name: n });
    expect(db.version).toBe(DB_VERSION);
    expect((await storedClaims(db)).map((c) => c.id).sort()).toEqual(V3_CLAIMS.map((c) => c.id).sort());
    expect(await db.count('models')).toBe(V3_MODELS.length);
    expect(await db.countFromIndex('pages', 'by-fingerprint')).toBe(1);
    // The settings of version 3 are read with the new one's default.
    expect(await getSettings(db)).toEqual({ pdfAutoOpen: true, locale: 'zh_CN', finderSites: [] });
    expect(await putSettings(db, { finderSites: ['openai.com', '*.qwen.ai'] })).toEqual({
      pdfAutoOpen: true,
      locale: 'zh_CN',
      finderSites: ['openai.com', '*.qwen.ai'],
    });

    expect(await db.count('dismissals')).toBe(0);
    const page = 'https://example.org/zeta-2-report';
    await putDismissal(db, { url: page, key: 'bbbbbbbbbbbbbbbb', sentence: 'Unlike GRPO, we use PPO.', dismissed_at: '2026-11-30T10:00:00Z' });
    await putDismissal(db, { url: page, key: 'aaaaaaaaaaaaaaaa', sentence: 'We compare with DPO.', dismissed_at: '2026-11-30T10:00:01Z' });
    // Dismissing the same candidate again keeps one entry.
    await putDismissal(db, { url: page, key: 'aaaaaaaaaaaaaaaa', sentence: 'We compare with DPO.', dismissed_at: '2026-11-30T10:00:02Z' });
    await putDismissal(db, { url: 'https://example.org/other', key: 'cccccccccccccccc', sentence: 'We use GRPO.', dismissed_at: '2026-11-30T10:00:03Z' });
    expect(await dismissedKeys(db, page)).toEqual(['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb']);
    expect(await db.count('dismissals')).toBe(3);
    db.close();
  });

  it('rolls back a failing version-4 migration and leaves the version-3 store as it was', async () => {
    const n = name();
    await createV3Database(n);
    const failing = [
      ...MIGRATIONS.slice(0, 3),
      {
        version: 4,
        description: 'fails after creating the store',
        run(db: any) {
          db.createObjectStore('dismissals', { keyPath: ['url', 'key'] });
          throw new Error('store creation failed');
        },
      },
    ];
    await expect(openRecipeDb({ name: n, migrations: failing })).rejects.toThrow(/rolled back.*store creation failed/);
    const old = await openDB(n);
    expect(old.version).toBe(3);
    expect([...old.objectStoreNames].sort()).toEqual(['claims', 'meta', 'models', 'sources']);
    expect(await old.count('claims')).toBe(V3_CLAIMS.length);
    old.close();
  });
});

describe('upgrading from version 4', () => {
  it('opens a version-4 store with every record kept, tombstones indexed by deletion time and an empty store of dataset bases', async () => {
    const n = name();
    await createV4Database(n);
    const db: RecipeDatabase = await openRecipeDb({ name: n });
    expect(db.version).toBe(DB_VERSION);
    expect(await storedClaims(db)).toEqual(V4_CLAIMS);
    expect((await db.getAll('models')).map(({ key: _key, ...m }) => m)).toEqual([...V4_MODELS].sort((a, b) => a.model.localeCompare(b.model)));
    expect(await db.getAll('dismissals')).toEqual([V4_DISMISSAL]);
    expect(await getSettings(db)).toEqual({ pdfAutoOpen: false, locale: 'en', finderSites: ['openai.com'] });
    expect(await getBackupState(db)).toEqual({ lastBackupAt: '2026-11-28T09:00:00Z', changes: 3, firstChangeAt: '2026-11-29T09:00:00Z' });
    // No claim of version 4 is a tombstone; tombstones and the bases' store work once something is deleted or synced.
    expect((await storedClaims(db)).filter(isTombstone)).toEqual([]);
    expect(await db.count('synced')).toBe(0);
    await deleteClaims(db, ['clm_v4_pdf_0001'], '2026-12-01T08:00:00Z');
    expect((await storedClaims(db)).filter(isTombstone).map((c) => c.id)).toEqual(['clm_v4_pdf_0001']);
    expect((await allClaims(db)).map((c) => c.id)).toEqual(['clm_v4_html_001']);
    await writeSync(db, [], () => ({ writes: [], bases: [['claim:clm_v4_html_001', '0123456789abcdef']], result: null }), '2026-12-01T08:00:00Z');
    expect((await syncSnapshot(db)).bases).toEqual(new Map([['claim:clm_v4_html_001', '0123456789abcdef']]));
    db.close();
  });

  it('rolls back a failing version-5 migration and leaves the version-4 store as it was', async () => {
    const n = name();
    await createV4Database(n);
    const failing = [
      ...MIGRATIONS.slice(0, 4),
      {
        version: 5,
        description: 'fails after creating the index',
        run(_db: any, tx: any) {
          tx.objectStore('claims').createIndex('by-deleted', 'deleted_at');
          throw new Error('index creation failed');
        },
      },
    ];
    await expect(openRecipeDb({ name: n, migrations: failing })).rejects.toThrow(/rolled back.*index creation failed/);
    const old = await openDB(n);
    expect(old.version).toBe(4);
    expect([...old.transaction('claims').store.indexNames]).not.toContain('by-deleted');
    expect([...old.objectStoreNames]).not.toContain('synced');
    expect(await old.count('claims')).toBe(V4_CLAIMS.length);
    old.close();
  });
});

describe('upgrading from version 5', () => {
  it('opens a version-5 store without the by-updated indexes, every record, tombstone, base, index entry and dismissal kept', async () => {
    const n = name();
    await createV5Database(n);
    const db: RecipeDatabase = await openRecipeDb({ name: n });
    expect(db.version).toBe(DB_VERSION);
    expect([...db.transaction('pages').store.indexNames].sort()).toEqual(['by-arxiv', 'by-fingerprint', 'by-id', 'by-model']);
    expect([...db.transaction('models').store.indexNames]).toEqual([]);
    expect(await storedClaims(db)).toEqual([...V5_CLAIMS].sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect((await db.getAll('models')).map(({ key: _key, ...m }) => m)).toEqual([...V5_MODELS].sort((a, b) => (a.model < b.model ? -1 : 1)));
    // The indexes that stay still find what they found; the tombstone stays a tombstone and out of every query.
    expect((await claimsForUrl(db, V5_CLAIMS[0]!.source.url)).map((c) => c.id).sort()).toEqual(['clm_v5_html_001', 'clm_v5_html_002']);
    expect((await claimsForPdf(db, { url: 'https://example.org/elsewhere.pdf', fingerprint: 'f00dfeed', arxiv: null })).map((c) => c.id)).toEqual([
      'clm_v5_pdf_0001',
    ]);
    expect((await storedClaims(db)).filter(isTombstone).map((c) => c.id)).toEqual(['clm_v5_gone_001']);
    expect((await allClaims(db)).map((c) => c.id).sort()).toEqual(['clm_v5_html_001', 'clm_v5_html_002', 'clm_v5_pdf_0001']);
    expect(await dismissedKeys(db, V5_DISMISSAL.url)).toEqual([V5_DISMISSAL.key]);
    expect((await syncSnapshot(db)).bases).toEqual(new Map(V5_BASES.map((b) => [b.ref, b.hash])));
    expect(await db.get('meta', 'backup')).toEqual({ lastBackupAt: '2026-11-29T00:00:00Z', changes: 3, firstChangeAt: '2026-11-29T10:00:00Z' });
    // Writes work at the new version.
    await putClaims(db, [{ ...V5_CLAIMS[0]!, value: 'PPO', updated_at: '2026-12-01T00:00:00Z' }]);
    expect((await storedClaim(db, 'clm_v5_html_001'))?.value).toBe('PPO');
    db.close();
  });

  it('rolls back a failing version-6 migration and leaves the version-5 store with its indexes', async () => {
    const n = name();
    await createV5Database(n);
    const failing = [
      ...MIGRATIONS.slice(0, 5),
      {
        version: 6,
        description: 'fails after dropping one index',
        run(_db: unknown, tx: any) {
          tx.objectStore('claims').deleteIndex('by-updated');
          throw new Error('index removal failed');
        },
      },
    ];
    await expect(openRecipeDb({ name: n, migrations: failing })).rejects.toThrow(/rolled back.*index removal failed/);
    const old = await openDB(n);
    expect(old.version).toBe(5);
    expect([...old.transaction('claims').objectStore('claims').indexNames].sort()).toEqual([
      'by-arxiv',
      'by-deleted',
      'by-fingerprint',
      'by-model',
      'by-updated',
      'by-url',
    ]);
    expect(await old.count('claims')).toBe(V5_CLAIMS.length);
    expect(await old.count('synced')).toBe(V5_BASES.length);
    old.close();
  });
});

describe('upgrading from version 6', () => {
  const HTML = 'https://example.org/zeta-2-report';

  it('moves one value per claim into one value per page, with every claim, tombstone, base, correction and lookup kept', async () => {
    const n = name();
    await createV6Database(n);
    const db: RecipeDatabase = await openRecipeDb({ name: n });
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual(['dismissals', 'meta', 'models', 'pages', 'rechecks', 'sources', 'synced']);
    // Four pages: the HTML page's three claims (its tombstone too) are one value.
    expect((await db.getAllKeys('pages')).sort()).toEqual([
      'https://arxiv.org/pdf/2501.12948v1',
      'https://example.org/kimi-k2-6',
      HTML,
      'https://mirror.example.org/zeta2.pdf',
    ]);
    expect((await db.get('pages', HTML))!.ids).toEqual(['clm_v6_gone_001', 'clm_v6_html_001', 'clm_v6_html_002']);
    expect(await allClaimsWithTombstones(db)).toEqual([...V6_CLAIMS].sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect((await claimsForUrl(db, HTML)).map((c) => c.id)).toEqual(['clm_v6_html_001', 'clm_v6_html_002']);
    expect(await countClaimsForUrl(db, HTML)).toBe(2);
    expect((await getClaims(db, ['clm_v6_gone_001', 'clm_v6_othr_001'])).map((c) => c.id)).toEqual(['clm_v6_othr_001']);
    // The PDF's claims by fingerprint (the mirror too) and by arXiv id; a tombstone's model is in no index.
    expect((await claimsForPdf(db, { url: null, fingerprint: 'f00dfeed', arxiv: null })).map((c) => c.id).sort()).toEqual([
      'clm_v6_pdf_0001',
      'clm_v6_pdf_0002',
    ]);
    expect((await claimsForPdf(db, { url: 'https://example.org/elsewhere.pdf', fingerprint: 'another-file', arxiv: '2501.12948' })).map((c) => c.id)).toEqual([
      'clm_v6_pdf_0001',
    ]);
    expect(await modelNames(db)).toEqual(['Zeta-2', 'Kimi K2.6']);
    const head = await surveyHead(db, 1);
    expect(head.claims.map((c) => c.id)).toEqual(['clm_v6_othr_001']);
    expect(head.models.map((m) => m.model)).toEqual(['Kimi K2.6']);
    expect((await syncSnapshot(db)).bases).toEqual(new Map(V6_BASES.map((b) => [b.ref, b.hash])));
    expect(await getSource(db, HTML)).toEqual(V6_SOURCE);
    expect(await getBackupState(db)).toEqual({ lastBackupAt: '2026-11-29T00:00:00Z', changes: 4, firstChangeAt: '2026-11-29T10:00:00Z' });
    db.close();
  });

  it('writes through the new layout after the upgrade: edits, moves, deletes and corrections each rewrite their pages', async () => {
    const n = name();
    await createV6Database(n);
    const db: RecipeDatabase = await openRecipeDb({ name: n });
    const [html1] = V6_CLAIMS;
    // An edit that moves a claim to another page leaves its old page and joins the new one.
    await putClaims(db, [{ ...html1!, source: { ...html1!.source, url: 'https://example.org/kimi-k2-6' }, updated_at: '2026-12-01T00:00:00Z' }]);
    expect((await db.get('pages', HTML))!.ids).toEqual(['clm_v6_gone_001', 'clm_v6_html_002']);
    expect((await claimsForUrl(db, 'https://example.org/kimi-k2-6')).map((c) => c.id)).toEqual(['clm_v6_html_001', 'clm_v6_othr_001']);
    // Deleting the last live claim of a page keeps the page (its tombstones) but takes its model out of the index.
    expect((await deleteClaims(db, ['clm_v6_html_002'], '2026-12-01T01:00:00Z')).map((c) => c.id)).toEqual(['clm_v6_html_002']);
    expect(await claimsForUrl(db, HTML)).toEqual([]);
    expect((await db.get('pages', HTML))!.models).toEqual([]);
    expect((await storedClaim(db, 'clm_v6_html_002'))!.deleted_at).toBe('2026-12-01T01:00:00Z');
    // A correction rewrites the live claims of its page only.
    expect(await putSource(db, { ...V6_SOURCE, url: 'https://example.org/kimi-k2-6', title: 'Kimi K2.6' }, '2026-12-01T02:00:00Z')).toBe(2);
    expect((await claimsForUrl(db, 'https://example.org/kimi-k2-6')).map((c) => c.source.title)).toEqual(['Kimi K2.6', 'Kimi K2.6']);
    expect((await allClaimsWithTombstones(db)).length).toBe(V6_CLAIMS.length);
    db.close();
  });

  it('rolls back a failing version-7 migration and leaves the version-6 store with one value per claim', async () => {
    const n = name();
    await createV6Database(n);
    const failing = [
      ...MIGRATIONS.slice(0, 6),
      {
        version: 7,
        description: 'fails after moving the claims',
        async run(db: any, tx: any) {
          const pages = db.createObjectStore('pages', { keyPath: 'url' });
          await pages.put({ url: 'https://example.org/zeta-2-report', claims: [] });
          await tx.objectStore('claims').clear();
          throw new Error('page grouping failed');
        },
      },
    ];
    await expect(openRecipeDb({ name: n, migrations: failing })).rejects.toThrow(/rolled back.*page grouping failed/);
    const old = await openDB(n);
    expect(old.version).toBe(6);
    expect([...old.objectStoreNames]).not.toContain('pages');
    expect(await old.getAll('claims')).toEqual([...V6_CLAIMS].sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect([...old.transaction('claims').objectStore('claims').indexNames].sort()).toEqual(['by-arxiv', 'by-deleted', 'by-fingerprint', 'by-model', 'by-url']);
    old.close();
  });
});

describe('upgrading from version 7', () => {
  const HTML = 'https://example.org/zeta-2-report';

  it('keeps every page, claim, tombstone, model, correction, dismissal, base and setting, and adds an empty rechecks store that works', async () => {
    const n = name();
    await createV7Database(n);
    const db: RecipeDatabase = await openRecipeDb({ name: n });
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual(['dismissals', 'meta', 'models', 'pages', 'rechecks', 'sources', 'synced']);
    expect([...db.transaction('pages').store.indexNames].sort()).toEqual(['by-arxiv', 'by-fingerprint', 'by-id', 'by-model']);
    expect(await allClaimsWithTombstones(db)).toEqual([...V7_CLAIMS].sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect((await claimsForUrl(db, HTML)).map((c) => c.id)).toEqual(['clm_v7_html_001', 'clm_v7_html_002']);
    expect((await claimsForPdf(db, { url: null, fingerprint: 'f00dfeed', arxiv: null })).map((c) => c.id)).toEqual(['clm_v7_pdf_0001']);
    expect(await modelNames(db)).toEqual(['Zeta-2', 'Kimi K2.6']);
    expect((await db.getAll('models')).map(({ key: _key, ...m }) => m)).toEqual([...V7_MODELS].sort((a, b) => (a.model < b.model ? -1 : 1)));
    expect(await getSource(db, HTML)).toEqual(V7_SOURCE);
    expect(await dismissedKeys(db, V7_DISMISSAL.url)).toEqual([V7_DISMISSAL.key]);
    expect((await syncSnapshot(db)).bases).toEqual(new Map(V7_BASES.map((b) => [b.ref, b.hash])));
    expect(await getBackupState(db)).toEqual(V7_BACKUP);
    expect((await getSettings(db)).finderSites).toEqual(['openai.com']);

    // The new store is empty, and a recheck's findings go into it.
    expect(await db.count('rechecks')).toBe(0);
    expect(await getRechecks(db)).toEqual([]);
    const findings = {
      url: HTML,
      title: 'Zeta-2 Technical Report',
      checked_at: '2026-12-05T10:00:00Z',
      verdicts: (['clm_v7_html_001', 'clm_v7_html_002'] as const).map((id) => ({
        id,
        verdict: 'unchanged' as const,
        text: null,
        reason: null,
        selectors: null,
        claim_updated_at: V7_CLAIMS.find((c) => c.id === id)!.updated_at,
      })),
      candidates: [],
      undisclosedOnly: false,
    };
    await saveFindings(db, findings, { now: '2026-12-05T10:00:00Z', today: '2026-12-05' });
    const stored = await getRechecks(db);
    expect(stored.map((r) => r.url)).toEqual([HTML]);
    expect(stored[0]!.findings).toEqual(findings);
    expect(await sourceRecords(db)).toEqual([
      {
        schema: 'rl-survey.source/1',
        url: HTML,
        checked: '2026-12-05',
        status: 'unchanged',
        claims: { unchanged: 2, edited: 0, gone: 0 },
        updated_at: '2026-12-05T10:00:00Z',
      },
    ]);
    // Nothing else moved.
    expect(await allClaimsWithTombstones(db)).toEqual([...V7_CLAIMS].sort((a, b) => (a.id < b.id ? -1 : 1)));
    db.close();
  });

  it('rolls back a failing version-8 migration and leaves the version-7 store without a rechecks store', async () => {
    const n = name();
    await createV7Database(n);
    const failing = [
      ...MIGRATIONS.slice(0, 7),
      {
        version: 8,
        description: 'fails after creating the store',
        async run(db: any) {
          const rechecks = db.createObjectStore('rechecks', { keyPath: 'url' });
          await rechecks.put({ url: HTML, record: null, findings: null });
          throw new Error('recheck store failed');
        },
      },
    ];
    await expect(openRecipeDb({ name: n, migrations: failing })).rejects.toThrow(/rolled back.*recheck store failed/);
    const old = await openDB(n);
    expect(old.version).toBe(7);
    expect([...old.objectStoreNames].sort()).toEqual(['dismissals', 'meta', 'models', 'pages', 'sources', 'synced']);
    expect((await old.getAll('pages')).flatMap((p) => p.claims).length).toBe(V7_CLAIMS.length);
    expect(await old.count('synced')).toBe(V7_BASES.length);
    old.close();
  });
});
