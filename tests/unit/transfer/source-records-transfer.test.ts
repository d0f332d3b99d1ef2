// The spec's `source` records travel with the rest: the JSONL export (after claims and models, by URL), the import
// (validated by line, merged by updated_at, counted in the preview), the backup and its restore. A file of claims
// only reads, previews and stores as it always did.
import { describe, expect, it } from 'vitest';
import { commitImport, listenForUploads, previewImport } from '../../../entrypoints/background/transfer';
import { UPLOAD_CHANNEL } from '../../../lib/messages';
import { parseBackup, toBackup } from '../../../lib/backup';
import { serializeSource } from '../../../lib/dataset/sources';
import {
  putClaims,
  putSourceRecords,
  replaceStore,
  saveFindings,
  getRechecks,
  sourceRecords,
  storeRefs,
  takeBackup,
  writeImportWithSources,
} from '../../../lib/db';
import { buildExport, citedSources, filterExport, NO_EXPORT_FILTER, toJsonl, withLinks, type ExportData } from '../../../lib/export';
import { parseImport } from '../../../lib/import/files';
import { parseSurveyJsonl } from '../../../lib/import/jsonl';
import { planSourceRecords } from '../../../lib/import/sources';
import { freshDatabases } from '../../support/databases';
import { claim, model, sourceRecord } from '../fixtures/records';

const fresh = freshDatabases('source-records-transfer');

const ZETA = 'https://example.org/zeta-2-report';
const OMEGA = 'https://example.org/omega';

/** A source record of the tests' defaults. */
const record = sourceRecord;

const zeta = claim({ id: 'clm_zeta0001', stage: null, kind: 'framework', value: 'slime' });
const omega = claim({ id: 'clm_omega001', model: 'Omega-1', source: { ...zeta.source, url: OMEGA } });
const data: ExportData = {
  claims: [zeta, omega],
  models: [model(), model({ model: 'Omega-1', vendor: 'Omega AI' })],
  sources: [record(ZETA), record(OMEGA, { status: 'changed', claims: { unchanged: 0, edited: 1, gone: 0 } })],
};
const NOW = new Date('2026-12-06T10:00:00Z');

describe('the JSONL export', () => {
  it('ends with the source records, one line each by URL, after the claims and models', () => {
    const text = buildExport('jsonl', data, { now: NOW }).text;
    const lines = text.trimEnd().split('\n');
    expect(lines.slice(-2)).toEqual([serializeSource(data.sources![1]!), serializeSource(data.sources![0]!)]);
    expect(text).toBe(toJsonl(withLinks(data.claims), data.models) + lines.slice(-2).join('\n') + '\n');
    expect(buildExport('jsonl', { ...data, sources: [...data.sources!].reverse() }, { now: NOW }).text).toBe(text);
    expect(buildExport('jsonl', data, { now: NOW }).sources).toBe(2);
  });

  it('is what it was for a store without source records', () => {
    const without = { claims: data.claims, models: data.models };
    expect(buildExport('jsonl', without, { now: NOW }).text).toBe(toJsonl(withLinks(data.claims), data.models));
    expect(buildExport('jsonl', { ...without, sources: [] }, { now: NOW }).text).toBe(toJsonl(withLinks(data.claims), data.models));
  });

  it('reads back whole: claims, models and source records', () => {
    const parsed = parseImport(buildExport('jsonl', data, { now: NOW }).text, 'jsonl');
    expect(parsed.errors).toEqual([]);
    expect(parsed.records).toHaveLength(4);
    expect(parsed.sourceRecords).toEqual([data.sources![1], data.sources![0]]);
  });

  it('keeps, of a filtered part, the records of the sources its claims cite (every record without a filter)', () => {
    const lonely = record('https://example.org/no-claims-left');
    const all = { ...data, sources: [...data.sources!, lonely] };
    expect(filterExport(all, NO_EXPORT_FILTER).sources).toEqual(all.sources);
    expect(filterExport(all, { ...NO_EXPORT_FILTER, models: ['Omega-1'] }).sources).toEqual([all.sources[1]]);
    expect(filterExport(all, { ...NO_EXPORT_FILTER, evidence: ['B'] }).sources).toEqual([]);
    expect(filterExport({ claims: data.claims, models: data.models }, { ...NO_EXPORT_FILTER, models: ['Zeta-2'] }).sources).toEqual([]);
    expect(citedSources([zeta], all.sources)).toEqual([all.sources[0]]);
  });
});

describe('the table export', () => {
  it("says a row's 'not disclosed' cells are as of the day a recheck last found its sources unchanged", () => {
    const one = { claims: [zeta], models: [model()] };
    expect(buildExport('md', one, { now: NOW }).text).toContain('not disclosed (checked 2026-11-29)');
    const rechecked = buildExport('md', { ...one, sources: [record(ZETA, { checked: '2026-12-04' })] }, { now: NOW }).text;
    expect(rechecked).toContain('not disclosed (checked 2026-12-04)');
    expect(rechecked).not.toContain('2026-11-29)');
    expect(buildExport('csv', { ...one, sources: [record(ZETA, { checked: '2026-12-04' })] }, { now: NOW, lang: 'zh' }).text).toContain(
      '未公开（截至 2026-12-04）',
    );
    // A source found changed, or unreachable, moves no date.
    for (const status of ['changed', 'unreachable'] as const)
      expect(buildExport('md', { ...one, sources: [record(ZETA, { status })] }, { now: NOW }).text).toContain('not disclosed (checked 2026-11-29)');
  });
});

describe('reading source records from an import file', () => {
  const claimLine = JSON.stringify(zeta);

  it('takes rl-survey.source/1 lines, and refuses a bad one by its line number', () => {
    const text = [
      claimLine,
      serializeSource(record(ZETA)),
      JSON.stringify({ ...record(OMEGA), status: 'maybe' }),
      JSON.stringify({ ...record(OMEGA), checked: 'yesterday' }),
    ].join('\n');
    const parsed = parseImport(text, 'jsonl');
    expect(parsed.sourceRecords).toEqual([record(ZETA)]);
    expect(parsed.errors.map((e) => e.line)).toEqual([3, 4]);
    expect(parsed.errors[0]!.message).toMatch(/^status: /);
    expect(parsed.errors[1]!.message).toMatch(/^checked: /);
  });

  it('reads a file of source records only, and names the three schemas for an unknown one', () => {
    expect(parseImport(`${serializeSource(record(ZETA))}\n`, 'jsonl')).toMatchObject({ records: [], sourceRecords: [record(ZETA)], errors: [] });
    expect(parseImport('{"schema":"rl-survey.verdict/1"}\n', 'jsonl').errors[0]!.message).toBe(
      'unknown schema "rl-survey.verdict/1" (expected "rl-survey.claim/1", "rl-survey.model/1" or "rl-survey.source/1")',
    );
  });

  it('reads a file of claims as before, and a dataset file (claims and models only) still refuses source lines', () => {
    expect(parseImport(`${claimLine}\n`, 'jsonl')).toEqual({ records: [zeta], sources: [], sourceRecords: [], errors: [], items: 1 });
    const dataset = parseSurveyJsonl(`${claimLine}\n${serializeSource(record(ZETA))}\n`);
    expect(dataset.sources).toEqual([]);
    expect(dataset.errors).toEqual([{ line: 2, message: 'unknown schema "rl-survey.source/1" (expected "rl-survey.claim/1" or "rl-survey.model/1")' }]);
  });

  it('plans them as the store keeps them: new, newer (or tying), or unchanged', () => {
    const stored = [record(ZETA), record(OMEGA)];
    const incoming = [
      record(ZETA, { updated_at: '2026-12-05T09:00:00Z', checked: '2026-12-05' }),
      record(OMEGA, { updated_at: '2026-12-01T09:00:00Z' }),
      record('https://example.org/new'),
      record('https://example.org/new'),
    ];
    expect(planSourceRecords(stored, incoming)).toEqual({ added: 1, updated: 1, unchanged: 2 });
    expect(planSourceRecords(stored, [record(ZETA, { status: 'changed' })])).toEqual({ added: 0, updated: 1, unchanged: 0 });
  });
});

describe('backups', () => {
  const contents = { claims: [zeta], models: [model()], sources: [] };

  it('carry the source records by URL and check them by line', () => {
    const text = toBackup({ ...contents, sourceRecords: [record(ZETA), record(OMEGA)] }, '2026-12-06T10:00:00Z');
    expect(text).toContain('"counts":{"claims":1,"models":1,"sources":0,"source_records":2}');
    const parsed = parseBackup(text);
    expect(parsed.errors).toEqual([]);
    expect(parsed.sourceRecords).toEqual([record(OMEGA), record(ZETA)]);
    expect(parsed.items).toBe(4);
    const bad = parseBackup(text.replace(`"url":"${ZETA}","checked":"2026-12-04"`, `"url":"${ZETA}","checked":"soon"`));
    expect(bad.errors).toHaveLength(1);
    expect(bad.errors[0]!.message).toMatch(/^source record 2: checked/);
    expect(bad.errors[0]!.line).toBe(text.split('\n').findIndex((l) => l.includes(`"url":"${ZETA}"`) && l.includes('rl-survey.source/1')) + 1);
  });

  it('made before source records existed read as holding none', () => {
    const old = toBackup(contents, '2026-12-06T10:00:00Z').replace(',\n"source_records":[]', '').replace(',"source_records":0', '');
    expect(old).not.toContain('source_records');
    expect(parseBackup(old)).toMatchObject({ errors: [], sourceRecords: [], records: [zeta, model()] });
  });
});

describe('the store', () => {
  it('backs its source records up and a restore puts them back, the findings of its own rechecks kept', async () => {
    const db = await fresh();
    await putClaims(db, [zeta, omega]);
    await putSourceRecords(db, [record(ZETA), record(OMEGA)]);
    const backup = parseBackup(toBackup(await takeBackup(db, '2026-12-06T10:00:00Z'), '2026-12-06T10:00:00Z'));
    expect(backup.sourceRecords).toEqual([record(OMEGA), record(ZETA)]);
    expect(await storeRefs(db)).toMatchObject({ claims: 2, sourceRecords: 2 });

    // The store moves on: a recheck of ZETA (findings and a newer record), and a record of another source.
    const findings = { url: ZETA, title: 'Zeta', checked_at: '2026-12-07T10:00:00Z', verdicts: [], candidates: [], undisclosedOnly: false };
    await saveFindings(db, findings, { now: '2026-12-07T10:00:00Z', today: '2026-12-07' });
    await putSourceRecords(db, [record('https://example.org/later')]);
    await replaceStore(db, backup.records, backup.sources, backup.sourceRecords);
    expect(await sourceRecords(db)).toEqual([record(OMEGA), record(ZETA)]);
    expect((await getRechecks(db)).find((r) => r.url === ZETA)!.findings).toEqual(findings);

    // A backup without source records leaves none, and keeps the findings alone.
    await replaceStore(db, backup.records, backup.sources, []);
    expect(await sourceRecords(db)).toEqual([]);
    expect((await getRechecks(db)).map((r) => r.url)).toEqual([ZETA]);
  });

  it("stores an import's source records in the import's own transaction, later updated_at winning", async () => {
    const db = await fresh();
    await putSourceRecords(db, [record(ZETA, { updated_at: '2026-12-05T09:00:00Z' })]);
    const { result, sourceRecords: changed } = await writeImportWithSources(
      db,
      [omega],
      [record(ZETA), record(OMEGA)],
      (stored) => ({ writes: [omega], result: stored.length }),
      '2026-12-06T10:00:00Z',
    );
    expect({ result, changed }).toEqual({ result: 0, changed: 1 });
    expect(await sourceRecords(db)).toEqual([record(OMEGA), record(ZETA, { updated_at: '2026-12-05T09:00:00Z' })]);
    // A failing write keeps the source records out too.
    await expect(
      writeImportWithSources(
        db,
        [],
        [record('https://example.org/never')],
        () => {
          throw new Error('refused');
        },
        '2026-12-06T10:00:00Z',
      ),
    ).rejects.toThrow('refused');
    expect((await sourceRecords(db)).map((r) => r.url)).toEqual([OMEGA, ZETA]);
  });
});

describe('the background import and restore', () => {
  const jsonl = buildExport('jsonl', data, { now: NOW }).text;

  it('previews the source records of a file ("sources: N new/updated") and stores them on commit', async () => {
    const db = await fresh();
    await putSourceRecords(db, [record(ZETA, { updated_at: '2026-12-01T09:00:00Z', checked: '2026-12-01' })]);
    const preview = await previewImport(db, { text: jsonl, fileName: 'all.jsonl', format: 'jsonl', mode: 'merge' });
    expect(preview.errors).toEqual([]);
    expect(preview.incoming).toEqual({ claims: 2, models: 2, sources: 0, sourceRecords: 2 });
    expect(preview.sourceRecords).toEqual({ incoming: 2, added: 1, updated: 1, unchanged: 0 });
    const outcome = await commitImport(db, { token: preview.token!, fileName: 'all.jsonl', format: 'jsonl', mode: 'merge', resolutions: [], rest: 'mine' });
    expect(outcome).toMatchObject({ status: 'stored', added: 4, sourceRecords: 2 });
    expect(await sourceRecords(db)).toEqual([data.sources![1], data.sources![0]]);
    // The same file again changes nothing.
    const again = await previewImport(db, { text: jsonl, fileName: 'all.jsonl', format: 'jsonl', mode: 'merge' });
    expect(again.sourceRecords).toEqual({ incoming: 2, added: 0, updated: 0, unchanged: 2 });
  });

  it('previews a file handed over as a Blob (read as it is parsed) as it previews its text, and stores it on commit', async () => {
    const db = await fresh();
    listenForUploads('chrome-extension://recipe-lens/');
    const handOver = async (id: string, file: Blob) => {
      const channel = new MessageChannel();
      const held = new Promise<unknown>((resolve) => (channel.port1.onmessage = (e) => resolve(e.data)));
      const event = new MessageEvent('message', { data: { channel: UPLOAD_CHANNEL, id, file }, ports: [channel.port2] });
      Object.defineProperty(event, 'source', { value: { url: 'chrome-extension://recipe-lens/options.html' } });
      globalThis.dispatchEvent(event);
      expect(await held).toEqual({ ok: true });
      channel.port1.close();
    };
    const byText = await previewImport(await fresh(), { text: jsonl, fileName: 'all.jsonl', format: 'jsonl', mode: 'merge' });
    await handOver('upload-blob-1', new Blob([jsonl]));
    const preview = await previewImport(db, { upload: 'upload-blob-1', fileName: 'all.jsonl', format: 'jsonl', mode: 'merge' });
    expect({ ...preview, token: null }).toEqual({ ...byText, token: null });
    // Each upload is used once.
    await expect(previewImport(db, { upload: 'upload-blob-1', fileName: 'all.jsonl', format: 'jsonl', mode: 'merge' })).rejects.toThrow('did not reach');
    const outcome = await commitImport(db, { token: preview.token!, fileName: 'all.jsonl', format: 'jsonl', mode: 'merge', resolutions: [], rest: 'mine' });
    expect(outcome).toMatchObject({ status: 'stored', added: 4, sourceRecords: 2 });
  });

  it('previews and stores a file of claims only as before, its store’s source records untouched', async () => {
    const db = await fresh();
    await putSourceRecords(db, [record(ZETA)]);
    const text = toJsonl([zeta]);
    const preview = await previewImport(db, { text, fileName: 'claims.jsonl', format: 'jsonl', mode: 'merge' });
    expect(preview).toMatchObject({ added: 1, incoming: { claims: 1, models: 0, sources: 0, sourceRecords: 0 } });
    expect(preview.sourceRecords).toEqual({ incoming: 0, added: 0, updated: 0, unchanged: 0 });
    expect(
      await commitImport(db, { token: preview.token!, fileName: 'claims.jsonl', format: 'jsonl', mode: 'merge', resolutions: [], rest: 'mine' }),
    ).toMatchObject({
      added: 1,
      sourceRecords: 0,
    });
    const restore = await previewImport(db, { text, fileName: 'claims.jsonl', format: 'jsonl', mode: 'replace' });
    await commitImport(db, { token: restore.token!, fileName: 'claims.jsonl', format: 'jsonl', mode: 'replace', resolutions: [], rest: 'mine' });
    expect(await sourceRecords(db)).toEqual([record(ZETA)]);
  });

  it('restores a backup with its source records in place of the store’s', async () => {
    const db = await fresh();
    await putClaims(db, [zeta]);
    await putSourceRecords(db, [record(OMEGA)]);
    const text = toBackup({ claims: [zeta], models: [], sources: [], sourceRecords: [record(ZETA)] }, '2026-12-06T10:00:00Z');
    const preview = await previewImport(db, { text, fileName: 'backup.json', format: 'backup', mode: 'replace' });
    expect(preview.store).toEqual({ claims: 1, models: 0, sources: 0, sourceRecords: 1 });
    expect(preview.sourceRecords).toEqual({ incoming: 1, added: 1, updated: 0, unchanged: 0 });
    const outcome = await commitImport(db, {
      token: preview.token!,
      fileName: 'backup.json',
      format: 'backup',
      mode: 'replace',
      resolutions: [],
      rest: 'mine',
    });
    expect(outcome).toMatchObject({ status: 'stored', sourceRecords: 1 });
    expect(await sourceRecords(db)).toEqual([record(ZETA)]);
  });
});
