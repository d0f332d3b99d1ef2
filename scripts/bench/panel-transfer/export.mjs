// Export and import benchmark, in the real extension in Chromium: 10,000 claims and 500 model records
// imported through the options page (read, validated and planned in a preview, then stored in one
// transaction), then exported to JSONL from the options page and from the evidence panel: once the page
// has made the file's parts ahead in its idle moments (what a curator gets who clicks a moment after the
// page shows the records), and with nothing made ahead (the page's idle callbacks held back: what a
// click right after the records arrive gets).
// It empties the store first (by restoring an empty backup), so run it in a browser of its own or after
// benchmarks that no longer need their records. Used by run.mjs; `node scripts/bench/panel-transfer/export.mjs` runs it alone.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { bundleImportLab } from '../harness/build.mjs';
import { childrenCpuMs, goal, runAlone } from '../harness/harness.mjs';
import { generateStore } from '../harness/records.mjs';
import { median } from '../harness/stats.mjs';

const IMPORT_RUNS = process.env.BENCH_QUICK === '1' ? 2 : 3;
const EXPORT_RUNS = process.env.BENCH_QUICK === '1' ? 3 : 5;
/** Exports with nothing made ahead: each in a freshly loaded page (a page keeps what its first export made). */
const UNPREPARED_RUNS = process.env.BENCH_QUICK === '1' ? 2 : 3;
/** BENCH_QUICK leaves out the import taken apart (import-lab.ts): its figures explain the import goal, none is a goal. */
const QUICK = process.env.BENCH_QUICK === '1';

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

/**
 * Imports JSONL through the options page: the file is handed to the page first (not timed: a curator's
 * file does not cross the DevTools protocol), then, timed in the page, it is chosen in the file input,
 * the preview's confirm button is clicked as soon as it shows, and the report appears. Returns the
 * page's own preview and commit times and that wall time, clicks included.
 */
export async function importOnce(options, jsonl) {
  const before = await runsOf(options, 'import-panel');
  await options.evaluate((text) => {
    window.__benchFile = new File([text], 'bench.jsonl', { type: 'application/x-ndjson' });
  }, jsonl);
  const wallMs = await options.evaluate(
    (runs) =>
      new Promise((resolve, reject) => {
        const panel = () => document.querySelector('[data-testid=import-panel]');
        const input = document.querySelector('[data-testid=import-input]');
        const t0 = performance.now();
        let clicked = false;
        const observer = new MutationObserver(() => {
          const confirm = document.querySelector('[data-testid=import-confirm]');
          if (confirm && !clicked) {
            clicked = true;
            confirm.click();
          }
          if (Number(panel()?.getAttribute('data-runs')) > runs) {
            observer.disconnect();
            clearTimeout(timer);
            resolve(performance.now() - t0);
          }
        });
        observer.observe(document.body, { childList: true, subtree: true, attributes: true });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error('the import did not finish within 5 minutes'));
        }, 300_000);
        const files = new DataTransfer();
        files.items.add(window.__benchFile);
        input.files = files.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }),
    before,
  );
  await options.evaluate(() => {
    window.__benchFile = undefined;
  });
  const panel = options.getByTestId('import-panel');
  const previewMs = Number(await panel.getAttribute('data-preview-ms'));
  const commitMs = Number(await panel.getAttribute('data-commit-ms'));
  const report = (await options.getByTestId('import-result').first().textContent())?.replace(/\s+/g, ' ').trim();
  return { previewMs, commitMs, totalMs: previewMs + commitMs, wallMs: Math.round(wallMs), report };
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

/** Waits until the page has made its JSONL export ahead (`data-export-prepared` on the element `testId`); returns the wait in ms. */
async function preparedAfter(page, testId) {
  const t0 = Date.now();
  await page.locator(`[data-testid=${testId}][data-export-prepared=yes]`).waitFor({ timeout: 120_000 });
  return Date.now() - t0;
}

/**
 * Exports with nothing made ahead: the pages make the file's parts in idle moments only, so in a page whose
 * idle callbacks never come the first click after the records arrive builds everything (every line, the order,
 * every Blob). A freshly loaded page each run; `ready` waits for the records, `testId` is the element whose
 * `data-export-prepared` must still say no. Returns what `exportRepeatedly` returns.
 */
export async function exportUnprepared(context, url, { ready, open, click, msOf, testId, runs = UNPREPARED_RUNS }) {
  const page = await context.newPage();
  try {
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.addInitScript(() => {
      window.requestIdleCallback = () => 0;
    });
    const out = { times: [], sizes: [], digests: [] };
    for (let run = 0; run < runs; run++) {
      await page.goto(url);
      await ready(page);
      const prepared = await page.getByTestId(testId).getAttribute('data-export-prepared');
      if (prepared !== 'no') throw new Error(`the export was made ahead (data-export-prepared=${prepared}) with idle callbacks held back`);
      const r = await exportRepeatedly(
        page,
        () => open(page),
        () => click(page),
        () => msOf(page),
        1,
      );
      out.times.push(...r.times);
      out.sizes.push(...r.sizes);
      out.digests.push(...r.digests);
    }
    return { times: out.times, sizes: [...new Set(out.sizes)], digests: [...new Set(out.digests)] };
  } finally {
    await page.close();
  }
}

/**
 * The floor under an import of one value per record: putting the same records into a scratch database with the
 * claims store's indexes of versions 5–6, in one relaxed transaction, straight from the service worker (no parsing,
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
          ['by-fingerprint', 'pdf.fingerprint'],
          ['by-arxiv', 'pdf.arxiv'],
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

const V5_CLAIM_INDEXES = [
  ['by-url', 'source.url'],
  ['by-model', 'model'],
  ['by-fingerprint', 'pdf.fingerprint'],
  ['by-arxiv', 'pdf.arxiv'],
];
/** The pages store's multi-entry indexes (lib/db/pages.ts, database version 7). */
const V7_PAGE_INDEXES = [
  ['by-id', 'ids', true],
  ['by-model', 'models', true],
  ['by-fingerprint', 'fingerprints', true],
  ['by-arxiv', 'arxiv', true],
];
/** Layouts the same records are put in, to find the floor under an import (see import-lab.ts). */
const WRITE_VARIANTS = [
  {
    label: "as stored (v7: a page's claims in one value; ids, models, fingerprints, arXiv ids as multi-entry indexes), relaxed durability, one transaction",
    claimIndexes: V7_PAGE_INDEXES,
    modelIndexes: [],
    durability: 'relaxed',
    group: 'page',
  },
  { label: 'one value per claim, as stored up to v6 (4 claim indexes)', claimIndexes: V5_CLAIM_INDEXES, modelIndexes: [], durability: 'relaxed' },
  { label: 'one value per claim, default durability', claimIndexes: V5_CLAIM_INDEXES, modelIndexes: [], durability: 'default' },
  { label: 'one value per claim, no indexes at all', claimIndexes: [], modelIndexes: [], durability: 'relaxed' },
  { label: 'one value per page, no indexes at all', claimIndexes: [], modelIndexes: [], durability: 'relaxed', group: 'page' },
  { label: 'one value per page, default durability', claimIndexes: V7_PAGE_INDEXES, modelIndexes: [], durability: 'default', group: 'page' },
];
const LAB_ROUNDS = 2;

/**
 * The import taken apart in the options page (the extension's origin and content security policy):
 * parsing and validation, planning, the plan's reads, and the same records put into scratch databases
 * laid out in different ways (each variant LAB_ROUNDS times, the order reversed every round; the
 * median wall time of its writes, and the CPU time of all the browser's processes meanwhile).
 */
export async function importLab(context, extensionId, jsonl, log = console.log) {
  const page = await context.newPage();
  try {
    await page.goto(`chrome-extension://${extensionId}/options.html`);
    await page.evaluate(await bundleImportLab());
    await page.evaluate((text) => globalThis.RLImportLab.load(text), jsonl);
    const stages = await page.evaluate(() => globalThis.RLImportLab.stages());
    const reads = await page.evaluate(() => globalThis.RLImportLab.planReads());
    log(
      `import stages in the options page: JSON.parse ${stages.jsonParseMs.toFixed(0)} ms, schema validation ${stages.validateMs.toFixed(0)} ms, the import's parse (both, line numbers kept) ${stages.parseImportMs.toFixed(0)} ms; plan ${stages.planEmptyMs.toFixed(0)} ms into an empty store, ${stages.planAllStoredMs.toFixed(0)} ms against the same records stored`,
    );
    log(
      `plan's reads from a store of the same records: a get per record ${reads.getEachMs.toFixed(0)} ms, getAllKeys then getAll ${reads.getAllKeysThenAllMs.toFixed(0)} ms`,
    );
    const runs = new Map(WRITE_VARIANTS.map((v) => [v.label, { wall: [], cpu: [], values: 0 }]));
    for (let round = 0; round < LAB_ROUNDS; round++) {
      const order = round % 2 ? [...WRITE_VARIANTS].reverse() : WRITE_VARIANTS;
      for (const v of order) {
        const c0 = childrenCpuMs();
        const [r] = await page.evaluate((variant) => globalThis.RLImportLab.writeVariants([variant]), v);
        const c1 = childrenCpuMs();
        const entry = runs.get(v.label);
        entry.wall.push(r.ms);
        if (c0 !== null && c1 !== null) entry.cpu.push(c1 - c0);
        entry.values = r.values;
      }
    }
    const writes = WRITE_VARIANTS.map((v) => {
      const e = runs.get(v.label);
      return { label: v.label, values: e.values, wallMs: median(e.wall), cpuMs: e.cpu.length ? median(e.cpu) : null };
    });
    for (const w of writes)
      log(
        `  put ${w.values} values, ${w.label}: ${w.wallMs.toFixed(0)} ms wall${w.cpuMs === null ? '' : `, ${w.cpuMs.toFixed(0)} ms CPU of the browser's processes`}`,
      );
    return { stages, reads, writes };
  } finally {
    await page.close();
  }
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
      `export: import run ${run + 1}: preview ${r.previewMs} ms + commit ${r.commitMs} ms = ${r.totalMs} ms in the page (${r.wallMs} ms from choosing the file to the report, clicks included); ${r.report}`,
    );
  }
  const best = imports.map((r) => r.totalMs);
  const rawPutMs = await rawPut(context, jsonl);
  log(
    `export: for scale, a raw IndexedDB put of the same ${records} records one value each (the layout up to v6, 4 indexes; one relaxed transaction, in the service worker): ${rawPutMs} ms`,
  );
  const lab = QUICK ? null : await importLab(context, extensionId, jsonl, log);
  if (!lab) log('export: the import taken apart (import-lab.ts) left out with BENCH_QUICK');

  // Exports from the options page: the records are read once when the page opens, and the file made ahead in idle moments.
  const optionsUrl = `chrome-extension://${extensionId}/options.html`;
  const optionsReady = (page) =>
    page.waitForFunction((n) => document.querySelector('[data-testid=export-count]')?.textContent?.startsWith(`${n} claims`), 10_000, {
      timeout: 120_000,
    });
  const optionsClick = (page) => page.getByTestId('export-jsonl').click();
  const optionsMs = async (page) => Number(await page.getByTestId('export-panel').getAttribute('data-export-ms'));
  const t0 = Date.now();
  await options.reload();
  await optionsReady(options);
  const optionsReadMs = Date.now() - t0;
  const optionsPreparedMs = await preparedAfter(options, 'export-panel');
  const fromOptions = await exportRepeatedly(
    options,
    async () => undefined,
    () => optionsClick(options),
    () => optionsMs(options),
  );
  await options.close();
  const optionsUnprepared = await exportUnprepared(context, optionsUrl, {
    ready: optionsReady,
    open: async () => undefined,
    click: optionsClick,
    msOf: optionsMs,
    testId: 'export-panel',
  });

  // Exports from the panel, once every row has arrived (and the file has been made ahead).
  const panelUrl = `chrome-extension://${extensionId}/sidepanel.html`;
  const panelReady = (page) =>
    page.waitForFunction(
      () =>
        /claims/.test(document.querySelector('[data-testid=survey-count]')?.textContent ?? '') &&
        !/loading/.test(document.querySelector('[data-testid=survey-count]')?.textContent ?? ''),
      null,
      { timeout: 120_000 },
    );
  const panelOpen = (page) => page.getByTestId('export-open').click();
  const panelClick = (page) => page.getByTestId('export-jsonl').click();
  const panelMs = async (page) => Number(await page.getByTestId('export-menu').getAttribute('data-export-ms'));
  const panel = await context.newPage();
  await panel.setViewportSize({ width: 1000, height: 900 });
  const t1 = Date.now();
  await panel.goto(panelUrl);
  await panelReady(panel);
  const panelReadMs = Date.now() - t1;
  const panelPreparedMs = await preparedAfter(panel, 'export-menu');
  const fromPanel = await exportRepeatedly(
    panel,
    () => panelOpen(panel),
    () => panelClick(panel),
    () => panelMs(panel),
  );
  await panel.close();
  const panelUnprepared = await exportUnprepared(context, panelUrl, {
    ready: panelReady,
    open: panelOpen,
    click: panelClick,
    msOf: panelMs,
    testId: 'export-menu',
  });

  const result = {
    records,
    importMs: median(best),
    importPreviewMs: median(imports.map((r) => r.previewMs)),
    importCommitMs: median(imports.map((r) => r.commitMs)),
    importWallMs: median(imports.map((r) => r.wallMs)),
    importRuns: best,
    rawPutMs,
    lab,
    exportOptionsMs: median(fromOptions.times),
    exportPanelMs: median(fromPanel.times),
    exportRuns: { options: fromOptions.times.map((t) => Math.round(t)), panel: fromPanel.times.map((t) => Math.round(t)) },
    unpreparedOptionsMs: median(optionsUnprepared.times),
    unpreparedPanelMs: median(panelUnprepared.times),
    unpreparedRuns: { options: optionsUnprepared.times.map((t) => Math.round(t)), panel: panelUnprepared.times.map((t) => Math.round(t)) },
    exportBytes: [...new Set([fromOptions, fromPanel, optionsUnprepared, panelUnprepared].flatMap((r) => r.sizes))],
    exportDigests: [...new Set([fromOptions, fromPanel, optionsUnprepared, panelUnprepared].flatMap((r) => r.digests))],
    optionsReadMs,
    panelReadMs,
    optionsPreparedMs,
    panelPreparedMs,
  };
  result.exportJsonlMs = Math.max(result.exportOptionsMs, result.exportPanelMs);
  result.unpreparedJsonlMs = Math.max(result.unpreparedOptionsMs, result.unpreparedPanelMs);
  log(
    `export: import of ${records} records (10,000 claims + 500 model records): median ${result.importMs} ms in the page (preview ${result.importPreviewMs} + commit ${result.importCommitMs}); runs ${best.join(', ')}`,
  );
  log(
    `export: JSONL of ${records} records, click to download, made ahead in idle moments: options page median ${result.exportOptionsMs.toFixed(0)} ms (${result.exportRuns.options.join(', ')}), panel median ${result.exportPanelMs.toFixed(0)} ms (${result.exportRuns.panel.join(', ')}); ` +
      `nothing made ahead (idle callbacks held back, a fresh page each run): options page median ${result.unpreparedOptionsMs.toFixed(0)} ms (${result.unpreparedRuns.options.join(', ')}), panel median ${result.unpreparedPanelMs.toFixed(0)} ms (${result.unpreparedRuns.panel.join(', ')}); ` +
      `file ${result.exportBytes.join(' / ')} bytes${result.exportDigests.length === 1 ? `, byte-identical every time (sha256 ${result.exportDigests[0].slice(0, 12)}…)` : ' — FILES DIFFER'}`,
  );
  log(
    `export: reading the store before exporting: options page ${optionsReadMs} ms, panel (all rows) ${panelReadMs} ms; then making the file ahead in idle moments: options page ${optionsPreparedMs} ms, panel ${panelPreparedMs} ms`,
  );
  return result;
}

/** The goal lines of the export and import benchmark. */
export function exportGoals(result) {
  const records = result.records.toLocaleString('en');
  const identical = result.exportDigests.length === 1;
  const grouped = result.lab?.writes.find((w) => w.label.startsWith('as stored'));
  return [
    goal(
      'export-jsonl-10k',
      result.exportJsonlMs <= 150 && identical,
      `${result.exportJsonlMs.toFixed(0)} ms ≤ 150 ms for ${records} records to JSONL, made ahead in idle moments (median of ${EXPORT_RUNS}: options page ${result.exportOptionsMs.toFixed(0)} ms, panel ${result.exportPanelMs.toFixed(0)} ms); ` +
        `${result.unpreparedJsonlMs.toFixed(0)} ms with nothing made ahead, a click right after the records arrive (median of ${UNPREPARED_RUNS}: options page ${result.unpreparedOptionsMs.toFixed(0)} ms, panel ${result.unpreparedPanelMs.toFixed(0)} ms); byte-identical: ${identical ? 'yes' : 'no'}`,
    ),
    goal(
      'import-10k-validated',
      result.importMs <= 1000,
      `${result.importMs} ms ≤ 1000 ms for ${records} records validated and stored (median of ${IMPORT_RUNS}: preview ${result.importPreviewMs} ms + commit ${result.importCommitMs} ms; a raw IndexedDB put of the same records one value each takes ${result.rawPutMs} ms here, ${grouped ? `${grouped.wallMs.toFixed(0)} ms as stored, a page's claims in one value` : 'the stored layout not measured'})`,
    ),
    goal(
      'import-10k',
      result.importWallMs <= 1500,
      `${result.importWallMs} ms ≤ 1500 ms for ${records} records through the options page, from choosing the file to the report, clicks included (median of ${IMPORT_RUNS})`,
    ),
  ];
}

await runAlone(import.meta.url, benchExport, exportGoals);
