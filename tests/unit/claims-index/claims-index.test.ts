// The claims index the page script reads before it asks the background anything (lib/claims-index): its hashes and
// its reading; and, on a real store, that it has no false negative after every way claims change (add, edit and move,
// delete, import, pull, restore, the finder's sites, and a migration), because it is rebuilt after every write of the
// pages store before the write returns.
import { deleteDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { addressIndexed, addressKey, buildClaimsIndex, isClaimsIndex, mayHaveClaims, withAddresses, type ClaimsIndex } from '../../../lib/claims-index';
import {
  allClaims,
  deleteClaims,
  openRecipeDb,
  putClaims,
  replaceStore,
  storedAddresses,
  watchPageWrites,
  writeImport,
  writeSync,
  type RecipeDatabase,
} from '../../../lib/db';
import { partitionPoint, sortedIncludes } from '../../../lib/sorted';
import type { ClaimRecord } from '../../../lib/schema';
import { freshDatabases } from '../../support/databases';
import { claim } from '../fixtures/records';
import { createV7Database } from '../fixtures/db/v7';

const at = (url: string, id: string, extra: Partial<ClaimRecord> = {}) => claim({ id, source: { ...claim().source, url }, ...extra });

describe('the index', () => {
  it('hashes addresses to 32-bit keys, sorted and each once', () => {
    const index = buildClaimsIndex(['https://a.example/x', 'https://b.example/y', 'https://a.example/x'], ['example.org']);
    expect(index.keys).toHaveLength(2);
    expect([...index.keys].sort((a, b) => a - b)).toEqual(index.keys);
    expect(index.keys.every((k) => Number.isInteger(k) && k >= 0 && k < 2 ** 32)).toBe(true);
    expect(addressKey('https://a.example/x')).not.toBe(addressKey('https://a.example/y'));
    expect(index.sites).toEqual(['example.org']);
  });

  it('says whether any candidate address may have claims; no readable index means "ask"', () => {
    const index = buildClaimsIndex(['https://a.example/x']);
    expect(mayHaveClaims(index, ['https://a.example/x'])).toBe(true);
    expect(mayHaveClaims(index, ['https://a.example/other', 'https://a.example/x'])).toBe(true);
    expect(mayHaveClaims(index, ['https://a.example/other', null])).toBe(false);
    for (const unreadable of [undefined, null, {}, { version: 2, keys: [], sites: [] }, { version: 1, keys: 'x', sites: [] }]) {
      expect(isClaimsIndex(unreadable)).toBe(false);
      expect(mayHaveClaims(unreadable, ['https://a.example/other'])).toBe(true);
    }
  });

  it('says whether an address itself is indexed: a finder site or an unreadable index does not count (the painting script is fetched early only then)', () => {
    const index = buildClaimsIndex(['https://a.example/x'], ['a.example']);
    expect(addressIndexed(index, ['https://a.example/other', 'https://a.example/x'])).toBe(true);
    expect(addressIndexed(index, ['https://a.example/other', null])).toBe(false);
    // The finder's site makes the page ask, but says nothing of claims.
    expect(mayHaveClaims(index, ['https://a.example/other'], 'a.example')).toBe(true);
    expect(addressIndexed(index, ['https://a.example/other'])).toBe(false);
    expect(addressIndexed(undefined, ['https://a.example/x'])).toBe(false);
    expect(addressIndexed({ version: 2, keys: [], sites: [] }, ['https://a.example/x'])).toBe(false);
  });

  it('takes a host that may be on a finder site as "ask": loosely (the background decides), never missing one', () => {
    const index = buildClaimsIndex([], ['openai.com', '*.qwenlm.github.io', 'localhost:8080']);
    expect(mayHaveClaims(index, ['https://openai.com/index/x'], 'openai.com')).toBe(true);
    expect(mayHaveClaims(index, ['https://qwenlm.github.io/blog/'], 'qwenlm.github.io')).toBe(true);
    expect(mayHaveClaims(index, ['https://a.qwenlm.github.io/'], 'a.qwenlm.github.io')).toBe(true);
    expect(mayHaveClaims(index, ['http://localhost:8080/x'], 'localhost')).toBe(true);
    expect(mayHaveClaims(index, ['https://example.org/x'], 'example.org')).toBe(false);
  });

  it('adds addresses to an index as a rebuild over all of them would (the same object when none is new)', () => {
    const index = buildClaimsIndex(['https://a.example/1', 'https://b.example/2'], ['*.example.org']);
    expect(withAddresses(index, ['https://c.example/3', 'https://a.example/1'])).toEqual(
      buildClaimsIndex(['https://a.example/1', 'https://b.example/2', 'https://c.example/3'], ['*.example.org']),
    );
    expect(withAddresses(index, ['https://b.example/2'])).toBe(index);
  });

  it('finds by one binary search', () => {
    const sorted = [1, 3, 3, 7, 10];
    expect(partitionPoint(sorted.length, (i) => sorted[i]! < 3)).toBe(1);
    expect(partitionPoint(sorted.length, (i) => sorted[i]! < 11)).toBe(5);
    expect(partitionPoint(0, () => true)).toBe(0);
    expect(sortedIncludes(sorted, 7)).toBe(true);
    expect(sortedIncludes(sorted, 8)).toBe(false);
    expect(sortedIncludes([], 0)).toBe(false);
  });
});

describe('no false negative, whatever changes the claims', () => {
  const fresh = freshDatabases('claims-index');

  /** A store whose index is rebuilt after each pages write, as the background does; `index()` reads the latest. */
  async function watched(db?: RecipeDatabase): Promise<{ db: RecipeDatabase; index: () => ClaimsIndex | null; writes: () => number }> {
    const d = db ?? (await fresh());
    let index: ClaimsIndex | null = null;
    let writes = 0;
    watchPageWrites(d, async (x) => {
      writes++;
      index = buildClaimsIndex(await storedAddresses(x));
    });
    return { db: d, index: () => index, writes: () => writes };
  }

  /** Every live claim's address is in the index. */
  async function covered(db: RecipeDatabase, index: ClaimsIndex | null): Promise<void> {
    const claims = await allClaims(db);
    expect(claims.length).toBeGreaterThan(0);
    for (const c of claims) expect(mayHaveClaims(index, [c.source.url]), c.source.url).toBe(true);
    expect(index).not.toBeNull();
  }

  it('add, edit, move to another address, delete and undo', async () => {
    const { db, index, writes } = await watched();
    await putClaims(db, [at('https://a.example/one', 'clm_index_0001')]);
    await covered(db, index());
    await putClaims(db, [at('https://a.example/one', 'clm_index_0001', { value: 'GSPO' }), at('https://b.example/two', 'clm_index_0002')]);
    await covered(db, index());
    // A claim moved to another page (its source corrected to a new address).
    await putClaims(db, [at('https://c.example/moved', 'clm_index_0002')]);
    await covered(db, index());
    expect(mayHaveClaims(index(), ['https://c.example/moved'])).toBe(true);
    const deleted = await deleteClaims(db, ['clm_index_0001'], '2026-12-07T00:00:00Z');
    await putClaims(db, deleted);
    await covered(db, index());
    expect(writes()).toBe(5);
  });

  it('import and pull: every new address is indexed by the time the write returns', async () => {
    const { db, index } = await watched();
    const incoming = Array.from({ length: 50 }, (_, i) => at(`https://import.example/p${i % 17}`, `clm_import_${String(i).padStart(4, '0')}`));
    await writeImport(db, incoming, () => ({ writes: incoming, result: null }), '2026-12-07T00:00:00Z');
    await covered(db, index());
    const pulled = [at('https://pull.example/a', 'clm_pulled_0001'), at('https://pull.example/b', 'clm_pulled_0002')];
    await writeSync(db, pulled, () => ({ writes: pulled, bases: [], result: null }), '2026-12-07T00:00:00Z');
    await covered(db, index());
    expect(mayHaveClaims(index(), ['https://pull.example/b'])).toBe(true);
  });

  it('an import that only puts pages names them to the watcher, and the index they extend equals a rebuild; a write that empties a page names none', async () => {
    const d = await fresh();
    const heard: Array<readonly string[] | undefined> = [];
    let index: ClaimsIndex | null = null;
    watchPageWrites(d, async (x, added) => {
      heard.push(added);
      index = added && index ? withAddresses(index, added) : buildClaimsIndex(await storedAddresses(x));
    });
    await putClaims(d, [at('https://first.example/a', 'clm_added_0001')]);
    expect(heard).toEqual([undefined]);
    const incoming = Array.from({ length: 30 }, (_, i) => at(`https://import.example/p${i % 7}`, `clm_added_${String(i + 10).padStart(4, '0')}`));
    await writeImport(d, incoming, () => ({ writes: incoming, result: null }), '2026-12-07T00:00:00Z');
    expect([...(heard[1] ?? [])].sort()).toEqual(Array.from({ length: 7 }, (_, i) => `https://import.example/p${i}`).sort());
    expect(index).toEqual(buildClaimsIndex(await storedAddresses(d)));
    await covered(d, index);
    // A claim moved by an import empties its page: the page is deleted, so the watcher reads the store.
    const moved = [at('https://second.example/b', 'clm_added_0001', { updated_at: '2027-01-01T00:00:00Z' })];
    await writeImport(d, moved, () => ({ writes: moved, result: null }), '2026-12-07T00:00:00Z');
    expect(heard[2]).toBeUndefined();
    expect(index).toEqual(buildClaimsIndex(await storedAddresses(d)));
    expect(mayHaveClaims(index, ['https://first.example/a'])).toBe(false);
  });

  it('restore: the index is the restored store’s (an address no longer stored may go; every stored one is there)', async () => {
    const { db, index } = await watched();
    await putClaims(db, [at('https://old.example/a', 'clm_restore_001')]);
    await replaceStore(db, [at('https://backup.example/x', 'clm_restore_002'), at('https://backup.example/y', 'clm_restore_003')], []);
    await covered(db, index());
    expect(mayHaveClaims(index(), ['https://old.example/a'])).toBe(false);
  });

  it('a migration: a store of the version before, opened and indexed as on an update, has every address', async () => {
    const name = `claims-index-v7-${Date.now()}`;
    await createV7Database(name);
    const db = await openRecipeDb({ name });
    const { index } = await watched(db);
    // The background rebuilds the index once the extension is updated (runtime.onInstalled), after the migration ran.
    const rebuilt = buildClaimsIndex(await storedAddresses(db));
    await covered(db, rebuilt);
    expect(index()).toBeNull();
    db.close();
    await deleteDB(name);
  });
});
