// Export and import benchmark, in the real extension in Chromium: 10,000 claims and 500 model records
// imported through the options page (read, validated and planned in a preview, then stored in one
// transaction), then exported to JSONL from the options page and from the evidence panel.
// It empties the store first (by restoring an empty backup), so run it in a browser of its own or after
// benchmarks that no longer need their records. Used by run.mjs; `node scripts/bench/export.mjs` runs it alone.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { goal, runAlone } from './harness.mjs';
import { generateStore } from './records.mjs';
import { median } from './stats.mjs';

const IMPORT_RUNS = 3;
const EXPORT_RUNS = 5;

/** A backup document holding nothing: restoring it empties the store. */
function emptyBackup() {
  return `{"format":"recipe-lens-backup/1","created_at":"2026-11-29T00:00:00Z","counts":{"claims":0,"models":0,"sources":0},\n"sources":[],\n"records":[]}\n`;
}

async function runsOf(page, testId) {
  return Number(await page.getByTestId(testId).getAttribute('data-runs'));
}

async function runsAbove(page, testId, n, timeout = 180_000) {
  await page.waitForFunction(
    ({ id, n }) => Number(document.querySelector(`[data-testid=${id}]`)?.getAttribute('data-runs')) > n,
    { id: testId, n },
    { timeout },
  );
}

/** Empties the store through the options page's restore. */
export async function emptyStore(options) {
  const before = await runsOf(options, 'backup-panel');
  await options.getByTestId('restore-input').setInputFiles({ name: 'empty-backup.json', mimeType: 'application/json', buffer: Buffer.from(emptyBackup()) });
  await options.getByTestId('restore-confirm').click({ timeout: 120_000 });
  await runsAbove(options, 'backup-panel', before);
}

/** Imports JSONL through the options page: preview, confirm, done. Returns in-page and wall times. */
export async function importOnce(options, jsonl) {
  const before = await runsOf(options, 'import-panel');
  const t0 = Date.now();
  await options.getByTestId('import-input').setInputFiles({ name: 'bench.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(jsonl) });
  await options.getByTestId('import-confirm').waitFor({ timeout: 180_000 });
  const counts = (await options.getByTestId('preview-counts').textContent())?.trim();
  await options.getByTestId('import-confirm').click();
  await runsAbove(options, 'import-panel', before);
  const wallMs = Date.now() - t0;
  const panel = options.getByTestId('import-panel');
  const previewMs = Number(await panel.getAttribute('data-preview-ms'));
  const commitMs = Number(await panel.getAttribute('data-commit-ms'));
  const report = (await options.getByTestId('import-result').first().textContent())?.replace(/\s+/g, ' ').trim();
  return { previewMs, commitMs, totalMs: previewMs + commitMs, wallMs, counts, report };
}

/** Clicks an export control `runs` times; returns the in-page times (build + download) and the files' SHA-256 digests and sizes. */
export async function exportRepeatedly(page, open, click, msOf, runs = EXPORT_RUNS) {
  const times = [];
  const sizes = new Set();
  const digests = new Set();
  for (let i = 0; i < runs; i++) {
    await open();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), click()]);
    const bytes = readFileSync(await download.path());
    sizes.add(bytes.length);
    digests.add(createHash('sha256').update(bytes).digest('hex'));
    times.push(await msOf());
  }
  return { times, sizes: [...sizes], digests: [...digests] };
}

/**
 * The floor under any import on this machine: putting the same records into a scratch database with the
 * claims store's three indexes, in one relaxed transaction, straight from the service worker (no parsing,
 * no validation, no messages).
 */
export async function rawPut(context, jsonl) {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  return worker.evaluate(async (text) => {
    const records = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const name = `recipe-lens-bench-scratch-${Date.now()}`;
    const db = await new Promise((resolve, reject) => {
      const open = indexedDB.open(name, 1);
      open.onupgradeneeded = () => {
        const claims = open.result.createObjectStore('claims', { keyPath: 'id' });
        for (const [index, path] of [
          ['by-url', 'source.url'],
          ['by-model', 'model'],
          ['by-updated', 'updated_at'],
        ])
          claims.createIndex(index, path);
        open.result.createObjectStore('models', { keyPath: 'key' });
      };
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const t0 = performance.now();
    await new Promise((resolve, reject) => {
      const tx = db.transaction(['claims', 'models'], 'readwrite', { durability: 'relaxed' });
      for (const r of records) {
        if (r.schema === 'rl-survey.claim/1') tx.objectStore('claims').put(r);
        else tx.objectStore('models').put({ ...r, key: r.model });
      }
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
    const ms = performance.now() - t0;
    db.close();
    indexedDB.deleteDatabase(name);
    return Math.round(ms);
  }, jsonl);
}

/** Runs the export and import benchmark in an extension browser context; returns figures in milliseconds. */
export async function benchExport({ context, extensionId, log = console.log }) {
  const jsonl = generateStore();
  const records = jsonl.split('\n').filter(Boolean).length;
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await options.getByTestId('import-panel').waitFor();

  const imports = [];
  for (let run = 0; run < IMPORT_RUNS; run++) {
    await emptyStore(options);
    const r = await importOnce(options, jsonl);
    imports.push(r);
    log(
      `export: import run ${run + 1}: preview ${r.previewMs} ms + commit ${r.commitMs} ms = ${r.totalMs} ms in the page (${r.wallMs} ms wall); preview "${r.counts}"; ${r.report}`,
    );
  }
  const best = imports.map((r) => r.totalMs);
  const rawPutMs = await rawPut(context, jsonl);
  log(`export: for scale, a raw IndexedDB put of the same ${records} records (3 indexes, one relaxed transaction, in the service worker): ${rawPutMs} ms`);

  // Exports from the options page: the records are read once when the page opens.
  const t0 = Date.now();
  await options.reload();
  await options.waitForFunction((n) => document.querySelector('[data-testid=export-count]')?.textContent?.startsWith(`${n} claims`), 10_000, {
    timeout: 120_000,
  });
  const optionsReadMs = Date.now() - t0;
  const fromOptions = await exportRepeatedly(
    options,
    async () => undefined,
    () => options.getByTestId('export-jsonl').click(),
    async () => Number(await options.getByTestId('export-panel').getAttribute('data-export-ms')),
  );
  await options.close();

  // Exports from the panel, once every row has arrived.
  const panel = await context.newPage();
  await panel.setViewportSize({ width: 1000, height: 900 });
  const t1 = Date.now();
  await panel.goto(`chrome-extension://${extensionId}/sidepanel.html`);
  await panel.waitForFunction(
    () =>
      /claims/.test(document.querySelector('[data-testid=survey-count]')?.textContent ?? '') &&
      !/loading/.test(document.querySelector('[data-testid=survey-count]')?.textContent ?? ''),
    null,
    {
      timeout: 120_000,
    },
  );
  const panelReadMs = Date.now() - t1;
  const fromPanel = await exportRepeatedly(
    panel,
    () => panel.getByTestId('export-open').click(),
    () => panel.getByTestId('export-jsonl').click(),
    async () => Number(await panel.getByTestId('export-menu').getAttribute('data-export-ms')),
  );
  await panel.close();

  const result = {
    records,
    importMs: median(best),
    importPreviewMs: median(imports.map((r) => r.previewMs)),
    importCommitMs: median(imports.map((r) => r.commitMs)),
    importWallMs: median(imports.map((r) => r.wallMs)),
    importRuns: best,
    rawPutMs,
    exportOptionsMs: median(fromOptions.times),
    exportPanelMs: median(fromPanel.times),
    exportRuns: { options: fromOptions.times.map((t) => Math.round(t)), panel: fromPanel.times.map((t) => Math.round(t)) },
    exportBytes: [...new Set([...fromOptions.sizes, ...fromPanel.sizes])],
    exportDigests: [...new Set([...fromOptions.digests, ...fromPanel.digests])],
    optionsReadMs,
    panelReadMs,
  };
  result.exportJsonlMs = Math.max(result.exportOptionsMs, result.exportPanelMs);
  log(
    `export: import of ${records} records (10,000 claims + 500 model records): median ${result.importMs} ms in the page (preview ${result.importPreviewMs} + commit ${result.importCommitMs}); runs ${best.join(', ')}`,
  );
  log(
    `export: JSONL of ${records} records: options page median ${result.exportOptionsMs.toFixed(0)} ms (${result.exportRuns.options.join(', ')}), panel median ${result.exportPanelMs.toFixed(0)} ms (${result.exportRuns.panel.join(', ')}); ` +
      `file ${result.exportBytes.join(' / ')} bytes${result.exportDigests.length === 1 ? `, byte-identical every time (sha256 ${result.exportDigests[0].slice(0, 12)}…)` : ' — FILES DIFFER'}`,
  );
  log(`export: reading the store before exporting: options page ${optionsReadMs} ms, panel (all rows) ${panelReadMs} ms`);
  return result;
}

/** The goal lines of the export and import benchmark. */
export function exportGoals(result) {
  const records = result.records.toLocaleString('en');
  const identical = result.exportDigests.length === 1;
  return [
    goal(
      'export-jsonl-10k',
      result.exportJsonlMs <= 150 && identical,
      `${result.exportJsonlMs.toFixed(0)} ms ≤ 150 ms for ${records} records to JSONL (median of ${EXPORT_RUNS}: options page ${result.exportOptionsMs.toFixed(0)} ms, panel ${result.exportPanelMs.toFixed(0)} ms; byte-identical: ${identical ? 'yes' : 'no'})`,
    ),
    goal(
      'import-10k-validated',
      result.importMs <= 1000,
      `${result.importMs} ms ≤ 1000 ms for ${records} records validated and stored (median of ${IMPORT_RUNS}: preview ${result.importPreviewMs} ms + commit ${result.importCommitMs} ms; a raw IndexedDB put of the same records alone takes ${result.rawPutMs} ms here)`,
    ),
    goal(
      'import-10k',
      result.importWallMs <= 1500,
      `${result.importWallMs} ms ≤ 1500 ms for ${records} records through the options page, from choosing the file to the report, clicks included (median of ${IMPORT_RUNS})`,
    ),
  ];
}

await runAlone(import.meta.url, benchExport, exportGoals);
