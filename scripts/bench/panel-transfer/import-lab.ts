// The import's stages and the IndexedDB floor, taken apart inside an extension page (bundled with esbuild
// and evaluated in the options page by transfer's benchmark, so it runs under the extension's content
// security policy, in its origin, with our own parser, schemas and planner): parse and validate, plan,
// and putting the same records into scratch databases laid out in different ways. Defines
// `globalThis.RLImportLab`. Scratch databases are deleted afterwards; the extension's own is not touched.
import { parseImport } from '../../../lib/import/files';
import { planStoreImport } from '../../../lib/import/preview';
import { parseSurveyJsonl } from '../../../lib/import/jsonl';
import { CLAIM_SCHEMA, modelKey, SurveyRecord, type ClaimRecord, type ModelRecord } from '../../../lib/schema';
import { groupPages } from '../../../lib/db/pages';

/** One way of laying out the same records in a scratch database. */
export interface WriteVariant {
  label: string;
  /** Indexes of the claims store: [name, keyPath, multiEntry?]. */
  claimIndexes: Array<[string, string, boolean?]>;
  modelIndexes: Array<[string, string]>;
  durability: 'default' | 'relaxed' | 'strict';
  /** Transactions the writes are spread over (1: all in one). */
  transactions?: number;
  /** Claims per stored value: one record per value (the layout up to version 6), or a page's claims in one value (version 7 on, `lib/db/pages.ts`). */
  group?: 'record' | 'page';
  /** Store each claim as its JSON text beside its index keys, instead of the object. */
  asText?: boolean;
}

/** Milliseconds of `fn`. */
async function time<T>(fn: () => T | Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** The file every step works on (kept here, so it crosses from the benchmark into the page once). */
let file = '';

/** Keeps the JSONL text the other steps use; returns its length. */
function load(text: string): number {
  file = text;
  return file.length;
}

/** The stages of an import of the loaded file: splitting and JSON parsing alone, validation alone, both as the import does them, and planning against an empty store and against a store holding the same records. */
function stages(): Record<string, number> {
  const text = file;
  const out: Record<string, number> = {};
  let t = performance.now();
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const values = lines.map((l) => JSON.parse(l) as unknown);
  out.jsonParseMs = performance.now() - t;
  t = performance.now();
  let valid = 0;
  for (const v of values) if (SurveyRecord.safeParse(v).success) valid += 1;
  out.validateMs = performance.now() - t;
  out.valid = valid;
  t = performance.now();
  const parsed = parseImport(text, 'jsonl');
  out.parseImportMs = performance.now() - t;
  t = performance.now();
  parseSurveyJsonl(text);
  out.parseSurveyJsonlMs = performance.now() - t;
  t = performance.now();
  planStoreImport([], parsed.records);
  out.planEmptyMs = performance.now() - t;
  t = performance.now();
  planStoreImport(parsed.records, parsed.records);
  out.planAllStoredMs = performance.now() - t;
  out.records = parsed.records.length;
  return out;
}

/** Opens a scratch database laid out as `v`. */
function openScratch(name: string, v: WriteVariant): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => {
      const db = open.result;
      const claims = db.createObjectStore('claims', { keyPath: v.group === 'page' ? 'url' : 'id' });
      for (const [index, path, multiEntry] of v.claimIndexes) claims.createIndex(index, path, { multiEntry: !!multiEntry });
      const models = db.createObjectStore('models', { keyPath: 'key' });
      for (const [index, path] of v.modelIndexes) models.createIndex(index, path);
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

/** The values a layout stores for `claims`. */
function claimValues(claims: ClaimRecord[], v: WriteVariant): unknown[] {
  // Grouped as the extension stores them (database version 7): the grouping is timed with the writes.
  if (v.group === 'page') return groupPages(claims);
  if (v.asText) return claims.map((c) => ({ id: c.id, source: { url: c.source.url }, model: c.model, updated_at: c.updated_at, json: JSON.stringify(c) }));
  return claims;
}

/** Puts the loaded file's records into a fresh scratch database laid out as each variant; the wall time of the writes (transactions complete) per variant. */
async function writeVariants(variants: WriteVariant[]): Promise<Array<{ label: string; ms: number; values: number }>> {
  const records = parseSurveyJsonl(file).records;
  const claims = records.filter((r): r is ClaimRecord => r.schema === CLAIM_SCHEMA);
  const models = records.filter((r): r is ModelRecord => r.schema !== CLAIM_SCHEMA).map((m) => ({ ...m, key: modelKey(m.model, m.recipe) }));
  const out: Array<{ label: string; ms: number; values: number }> = [];
  for (const v of variants) {
    const name = `recipe-lens-bench-lab-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const db = await openScratch(name, v);
    let values: unknown[] = [];
    const parts = v.transactions ?? 1;
    const [, ms] = await time(async () => {
      values = claimValues(claims, v);
      for (let p = 0; p < parts; p++) {
        const tx = db.transaction(['claims', 'models'], 'readwrite', { durability: v.durability });
        const cs = tx.objectStore('claims');
        const ms = tx.objectStore('models');
        const from = Math.floor((p * values.length) / parts);
        const to = Math.floor(((p + 1) * values.length) / parts);
        for (let i = from; i < to; i++) cs.put(values[i]);
        if (p === parts - 1) for (const m of models) ms.put(m);
        await done(tx);
      }
    });
    out.push({ label: v.label, ms, values: values.length + models.length });
    db.close();
    await request(indexedDB.deleteDatabase(name) as unknown as IDBRequest<unknown>).catch(() => undefined);
  }
  return out;
}

/**
 * Reading back what a plan needs from a store that holds the same records: one `get` per record, or
 * all keys first (`getAllKeys`) and then everything at once (`getAll`) — the way the import plans.
 */
async function planReads(): Promise<{ getEachMs: number; getAllKeysThenAllMs: number }> {
  const records = parseSurveyJsonl(file).records;
  const claims = records.filter((r): r is ClaimRecord => r.schema === CLAIM_SCHEMA);
  const name = `recipe-lens-bench-lab-${Date.now()}-reads`;
  const db = await openScratch(name, { label: '', claimIndexes: [], modelIndexes: [], durability: 'relaxed' });
  const put = db.transaction('claims', 'readwrite', { durability: 'relaxed' });
  for (const c of claims) put.objectStore('claims').put(c);
  await done(put);
  const [, getEachMs] = await time(async () => {
    const tx = db.transaction('claims');
    const store = tx.objectStore('claims');
    await Promise.all(claims.map((c) => request(store.get(c.id))));
  });
  const [, getAllKeysThenAllMs] = await time(async () => {
    const tx = db.transaction('claims');
    const store = tx.objectStore('claims');
    const keys = new Set((await request(store.getAllKeys())) as string[]);
    if (claims.some((c) => keys.has(c.id))) await request(store.getAll());
  });
  db.close();
  indexedDB.deleteDatabase(name);
  return { getEachMs, getAllKeysThenAllMs };
}

const api = { load, stages, writeVariants, planReads };
(globalThis as unknown as { RLImportLab: typeof api }).RLImportLab = api;
