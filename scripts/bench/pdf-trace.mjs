// Where the first page of the real reports spends its time, from Chromium traces of single openings of the viewer:
// the marks (milliseconds from navigation) and the CPU of the viewer's main thread and of pdf.js's worker thread
// (booting: fetching, decoding, compiling and evaluating its script, until the document is open; then the first
// page), by driver: `playwright` opens the viewer as the benchmark does (Playwright attaches to the page and to its
// worker), `raw` drives Chromium through its DevTools port at the browser level only, so nothing is attached to the
// viewer or its worker, as for a curator. Both serve the reports from 127.0.0.1. A development tool, not a suite:
//   [TRACE_DRIVERS=raw,playwright] [TRACE_RUNS=3] node scripts/bench/pdf-trace.mjs
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { EXTENSION_DIR } from './build.mjs';
import { CHROMIUM_FLAGS, chromiumPath, extensionFlags } from '../browsers.mjs';
import { launch } from './extension.mjs';
import { describeLoad, noteLoad } from './harness.mjs';
import { median } from './stats.mjs';

const PDFS = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'pdfs');
const REPORTS = ['qwen3-technical-report.pdf', 'areal-paper.pdf'];
const DRIVERS = (process.env.TRACE_DRIVERS ?? 'raw,playwright').split(',');
const RUNS = Number(process.env.TRACE_RUNS ?? 3);
const CATEGORIES = ['toplevel', '__metadata', 'blink.user_timing', 'blink', 'v8', 'devtools.timeline'];
/**
 * Time an opening is left alone before the raw driver attaches to the page to see whether its sharp first page is in
 * (and waits on for it if not): long past the worker's start, so attaching changes nothing measured.
 */
const OPENING_MS = 5000;
if (!existsSync(PDFS)) throw new Error('../shared/fixtures/pdfs is not beside the repository');

/** Serves the reports on 127.0.0.1; resolves to the server and its base address. */
async function serveReports() {
  const server = createServer((req, res) => {
    const file = path.join(PDFS, path.basename(new URL(req.url, 'http://x').pathname));
    if (!existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/pdf', 'cache-control': 'no-store' });
    res.end(readFileSync(file));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}/` };
}

/** A CDP connection over Chromium's DevTools WebSocket: `send`, and listeners of its events. */
function cdpOver(ws) {
  let id = 0;
  const pending = new Map();
  const listeners = new Set();
  ws.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.id && pending.has(message.id)) {
      pending.get(message.id)(message.result);
      pending.delete(message.id);
    } else for (const listener of listeners) listener(message.method, message.params);
  });
  return {
    send: (method, params = {}, sessionId = undefined) =>
      new Promise((resolve) => {
        pending.set(++id, resolve);
        ws.send(JSON.stringify({ id, method, params, sessionId }));
      }),
    on: (listener) => listeners.add(listener),
    off: (listener) => listeners.delete(listener),
  };
}

/** Traces `open()` through a CDP client (`send`/`on`/`off`); resolves to the trace events. */
async function traced(cdp, open) {
  const events = [];
  let finish;
  const complete = new Promise((resolve) => (finish = resolve));
  const listener = (method, params) => {
    if (method === 'Tracing.dataCollected') events.push(...params.value);
    if (method === 'Tracing.tracingComplete') finish();
  };
  cdp.on(listener);
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: CATEGORIES, excludedCategories: ['*'] }, transferMode: 'ReportEvents' });
  const after = await open();
  await cdp.send('Tracing.end');
  await complete;
  cdp.off(listener);
  await after?.();
  return events;
}

/** Chromium with the extension, driven at the browser level only; `open(url)` traces one opening. */
async function rawDriver() {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'recipe-lens-trace-'));
  const chrome = spawn(
    chromiumPath(),
    [
      '--headless',
      ...CHROMIUM_FLAGS,
      ...extensionFlags(EXTENSION_DIR),
      `--user-data-dir=${userDataDir}`,
      '--remote-debugging-port=0',
      '--window-size=1280,900',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const wsUrl = await new Promise((resolve, reject) => {
    let text = '';
    chrome.stderr.on('data', (d) => {
      text += d;
      const found = text.match(/DevTools listening on (ws:\/\/\S+)/);
      if (found) resolve(found[1]);
    });
    chrome.once('exit', () => reject(new Error(`Chromium exited: ${text.slice(-500)}`)));
  });
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve) => ws.once('open', resolve));
  const cdp = cdpOver(ws);
  let extension = null;
  for (let i = 0; i < 50 && !extension; i++) {
    const { targetInfos } = await cdp.send('Target.getTargets');
    extension = targetInfos.find((t) => t.url.startsWith('chrome-extension://'));
    if (!extension) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (!extension) throw new Error('the extension did not start');
  const extensionId = new URL(extension.url).host;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Waits until the page's sharp first page is in (attaching to the page only once OPENING_MS have passed). */
  const settle = async (targetId) => {
    await sleep(OPENING_MS);
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
    const expression = 'document.documentElement.dataset.pdfFirstPageSharpMs !== undefined';
    for (let i = 0; i < 120; i++) {
      const answer = await cdp.send('Runtime.evaluate', { expression, returnByValue: true }, sessionId);
      if (answer?.result?.value === true) return;
      await sleep(500);
    }
  };
  return {
    extensionId,
    async open(url) {
      return traced(cdp, async () => {
        const { targetId } = await cdp.send('Target.createTarget', { url });
        await settle(targetId);
        return () => cdp.send('Target.closeTarget', { targetId });
      });
    },
    async close() {
      ws.close();
      chrome.kill();
      await new Promise((resolve) => chrome.once('exit', resolve));
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Chromium with the extension driven by Playwright, as the benchmark opens the viewer. */
async function playwrightDriver() {
  const browser = await launch({ extension: true, pages: new Map() });
  return {
    extensionId: browser.extensionId,
    async open(url) {
      const page = await browser.context.newPage();
      const session = await browser.context.newCDPSession(page);
      const cdp = {
        send: (method, params) => session.send(method, params),
        on: (listener) => {
          session.on('Tracing.dataCollected', (p) => listener('Tracing.dataCollected', p));
          session.on('Tracing.tracingComplete', (p) => listener('Tracing.tracingComplete', p));
        },
        off: () => undefined,
      };
      return traced(cdp, async () => {
        await page.goto(url);
        await page.waitForFunction(() => document.documentElement.dataset.pdfFirstPageSharpMs !== undefined, null, { timeout: 120_000 });
        return () => page.close();
      });
    },
    close: () => browser.close(),
  };
}

/** pdf.js's engine: a shared worker (a page's own worker where shared workers are missing), in whichever process hosts it. */
const ENGINE_THREADS = new Set(['SharedWorker thread', 'DedicatedWorker thread']);

/** The marks and the CPU (ms) by thread and phase of one traced opening. */
function breakdown(events) {
  const threads = new Map();
  for (const e of events) if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const markEvent = (name) => events.find((e) => e.name === `recipe-lens:${name}` && e.cat?.includes('blink.user_timing') && e.args?.data);
  const entry = markEvent('viewer-script');
  if (!entry) return null;
  const { pid } = entry;
  const origin = entry.ts / 1000 - entry.args.data.startTime;
  const at = (name) => markEvent(name)?.args.data.startTime ?? Number.NaN;
  const marks = {
    entry: at('viewer-script'),
    opened: at('pdfOpenedMs'),
    drawing: at('first-draw-start'),
    canvas: at('first-canvas'),
    shown: at('pdfFirstPageMs'),
  };
  const worker = 'engine';
  const on = (thread, name, from, to) => {
    let sum = 0;
    for (const e of events) {
      const threadName = threads.get(`${e.pid}:${e.tid}`);
      if (e.ph !== 'X' || e.name !== name || !(thread === worker ? ENGINE_THREADS.has(threadName) : e.pid === pid && threadName === thread)) continue;
      const start = e.ts / 1000 - origin;
      if (start >= from && start < to) sum += (e.tdur ?? 0) / 1000;
    }
    return sum;
  };
  const task = 'ThreadControllerImpl::RunTask';
  const round = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v)]));
  return round({
    ...marks,
    'worker boot': on(worker, task, 0, marks.opened),
    'script decode': on(worker, 'TextResourceDecoder::Decode', 0, marks.opened),
    compile: on(worker, 'v8.compileModule', 0, marks.opened),
    evaluate: on(worker, 'v8.evaluateModule', 0, marks.opened),
    'worker first page': on(worker, task, marks.opened, marks.canvas),
    'main to open': on('CrRendererMain', task, 0, marks.opened),
    'main to shown': on('CrRendererMain', task, marks.opened, marks.shown),
  });
}

const load = noteLoad();
const { server, base } = await serveReports();
try {
  for (const name of DRIVERS) {
    const driver = name === 'raw' ? await rawDriver() : await playwrightDriver();
    try {
      const url = (file) => `chrome-extension://${driver.extensionId}/pdf-viewer.html?file=${encodeURIComponent(base + file)}`;
      // One opening first, unmeasured: the extension's own scripts are then in Chromium's code cache as for a curator.
      await driver.open(url(REPORTS[0]));
      for (const file of REPORTS) {
        const rows = [];
        for (let i = 0; i < RUNS; i++) {
          const row = breakdown(await driver.open(url(file)));
          if (row) rows.push(row);
        }
        if (!rows.length) {
          console.log(`${name} ${file}: no opening traced`);
          continue;
        }
        const keys = Object.keys(rows[0]);
        console.log(`${name} ${file} (median of ${rows.length}): ${keys.map((k) => `${k} ${median(rows.map((r) => r[k]))}`).join(', ')}`);
      }
    } finally {
      await driver.close();
    }
  }
} finally {
  server.close();
}
console.log(`marks in ms from navigation; CPU in ms of thread time; ${describeLoad(load())}`);
