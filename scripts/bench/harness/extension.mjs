// Driving Chromium with and without the built extension: the launcher, main-thread traces (tasks and
// what they were made of), painted-highlight counts, importing through the options page, the long-task
// scenarios on a ~2 MB page, and bundle sizes. Used by the suites (page-load.mjs, long-tasks.mjs, …).
import { waitInPage } from './wait.mjs';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath, extensionFlags } from '../../browsers.mjs';
import { EXTENSION_DIR } from './build.mjs';

/** Highlight names the extension paints claims under. */
/** Our highlights' names (the claim kinds; not the active, pending or finder ones). */
export const PAINTED_RE = '^recipe-lens-(stage|algorithm|framework|reward|system|intention|undisclosed)$';

/**
 * A persistent Chromium context, with or without the built extension, that
 * serves `pages` (url → html) by request routing. `extensionDir` loads
 * another unpacked build instead of the benchmark's.
 * @param {{ extension: boolean, pages: Map<string, string | Buffer>, extensionDir?: string }} options
 */
export async function launch({ extension, pages, extensionDir = EXTENSION_DIR }) {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'recipe-lens-bench-'));
  const args = extension ? [...extensionFlags(extensionDir), ...CHROMIUM_FLAGS] : [...CHROMIUM_FLAGS];
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    headless: true,
    viewport: { width: 1280, height: 900 },
    args,
  });
  await context.route('http://fixtures.test/**', (route) => {
    const url = route.request().url().split('#')[0].split('?')[0];
    const body = pages.get(url) ?? pages.get(url.replace(/\/$/, '')) ?? pages.get(`${url}/`);
    if (body === undefined) return route.fulfill({ status: 404, contentType: 'text/plain', body: 'no such page' });
    return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'cache-control': 'no-store' }, body });
  });
  let extensionId = null;
  if (extension) {
    let worker = context.serviceWorkers()[0];
    worker ??= await context.waitForEvent('serviceworker', { timeout: 20000 });
    extensionId = new URL(worker.url()).host;
  }
  return {
    context,
    extensionId,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `fn` while Chromium traces, and returns its result with every task
 * the page's renderer main thread ran (`RunTask` events, as DevTools and
 * Lighthouse count long tasks) and every complete event on that thread. A trace sees all work on that thread,
 * extension content scripts included — the in-page Long Tasks API does not
 * report tasks spent in a content script's isolated world.
 */
export async function traceMainThread(context, page, pageUrl, fn) {
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => {
    for (const ev of e.value) if (ev.ph === 'X' || ev.name === 'thread_name' || ev.name === 'TracingStartedInBrowser') events.push(ev);
  });
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    // devtools.timeline names what ran inside a task (script evaluation and calls with their file, style, layout, paint, GC).
    traceConfig: { includedCategories: ['toplevel', '__metadata', 'devtools.timeline', 'disabled-by-default-devtools.timeline'], excludedCategories: ['*'] },
    transferMode: 'ReportEvents',
  });
  let result;
  try {
    result = await fn();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach().catch(() => undefined);
  }
  const frames = events.filter((e) => e.name === 'TracingStartedInBrowser').flatMap((e) => e.args?.data?.frames ?? []);
  const frame = frames.find((f) => f.url === pageUrl) ?? frames.find((f) => f.isOutermostMainFrame);
  const pid = frame?.processId;
  const main = events.find((e) => e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain');
  const onMain = events.filter((e) => e.ph === 'X' && e.pid === pid && (!main || e.tid === main.tid));
  const tasks = onMain.filter((e) => e.name === 'RunTask').map((e) => ({ ts: e.ts / 1000, dur: (e.dur ?? 0) / 1000, cpu: (e.tdur ?? e.dur ?? 0) / 1000 }));
  // What the long tasks spent their time on: the events directly inside them, by name (and script file).
  const inner = onMain.filter((e) => e.name !== 'RunTask' && e.dur);
  for (const task of tasks) {
    if (task.dur <= 50) continue;
    const start = task.ts * 1000;
    const end = start + task.dur * 1000;
    // Scheduler wrappers say nothing about the work: look through them.
    const within = inner.filter(
      (e) => e.ts >= start && e.ts + e.dur <= end && !/^(ThreadControllerImpl::RunTask|BlinkScheduler_|SequenceManager|ThreadPool_)/.test(e.name),
    );
    const top = within.filter((e) => !within.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur >= e.ts + e.dur && o.dur > e.dur));
    const parts = new Map();
    for (const e of top) {
      const file = e.args?.data?.url ? ` ${String(e.args.data.url).split('/').slice(-2).join('/')}` : '';
      const key = `${e.name}${file}`;
      parts.set(key, (parts.get(key) ?? 0) + e.dur / 1000);
    }
    task.parts = [...parts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([name, ms]) => `${name} ${Math.round(ms)} ms`);
  }
  return { result, tasks, events: onMain, traced: pid !== undefined };
}

/**
 * Longest task and the count of tasks over 50 ms, in wall time (what users
 * feel and the Long Tasks API reports) and in thread CPU time (the work
 * itself: on a machine with more runnable threads than cores, wall time also
 * counts the time the thread waited for a core).
 */
export function summarize(tasks) {
  const long = tasks.filter((t) => t.dur > 50);
  return {
    maxTaskMs: tasks.length ? Math.max(...tasks.map((t) => t.dur)) : 0,
    maxTaskCpuMs: tasks.length ? Math.max(...tasks.map((t) => t.cpu)) : 0,
    tasksOver50: long.length,
    tasksOver50Cpu: tasks.filter((t) => t.cpu > 50).length,
    cpuMs: tasks.reduce((n, t) => n + t.cpu, 0),
    longest: [...long]
      .sort((a, b) => b.dur - a.dur)
      .slice(0, 5)
      .map((t) => [Math.round(t.dur), Math.round(t.cpu)]),
    // What the longest tasks were made of (trace events directly inside them).
    longestParts: [...long]
      .sort((a, b) => b.dur - a.dur)
      .slice(0, 3)
      .map((t) => `${Math.round(t.dur)} ms: ${(t.parts ?? []).join(', ') || 'no detail'}`),
  };
}

/**
 * Waits until at least `count` ranges are painted under the extension's highlight names, on a page already open;
 * returns the count and when (page clock). The count is checked in the page by `watchPainting` and read from here
 * with `waitInPage`, so no harness script runs on the page's main thread while it paints.
 */
export async function waitPainted(page, count, timeout) {
  await page.evaluate(watchPainting, { count, re: PAINTED_RE });
  return waitInPage(page, () => (window.__rlPaintedAt === null ? null : { total: window.__rlPaintedTotal, at: window.__rlPaintedAt }), undefined, {
    timeout,
    interval: 50,
    what: `${count} painted ranges`,
  });
}

/**
 * What `watchPainting` (an init script of the load) noted on `page`, once all were painted or `timeout` ms passed:
 * when they were painted and how many, DOMContentLoaded and the first frame after it (page clock; null if not seen).
 */
export async function paintingNoted(page, timeout) {
  await waitInPage(page, () => window.__rlPaintedAt !== null, undefined, { timeout, interval: 100 }).catch(() => undefined);
  return page.evaluate(() => ({ at: window.__rlPaintedAt, total: window.__rlPaintedTotal, dcl: window.__rlDcl, frame: window.__rlFirstFrame }));
}

/** How many ranges the extension has painted on the page now. */
export async function paintedCount(page) {
  return page.evaluate((re) => {
    let total = 0;
    const names = new RegExp(re);
    CSS.highlights.forEach((h, name) => {
      if (names.test(name)) total += h.size;
    });
    return total;
  }, PAINTED_RE);
}

/**
 * Imports a JSONL file through the options page and waits for the import to
 * finish (the panel's `data-runs` goes up); when the page first shows a
 * preview, its confirm button is pressed. Returns the report text.
 */
export async function importThroughOptions(context, extensionId, name, jsonl) {
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  const panel = options.getByTestId('import-panel');
  await panel.waitFor();
  const before = Number(await panel.getAttribute('data-runs'));
  await options.getByTestId('import-input').setInputFiles({ name, mimeType: 'application/x-ndjson', buffer: Buffer.from(jsonl) });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (Number(await panel.getAttribute('data-runs')) > before) break;
    const confirm = options.getByTestId('import-confirm');
    if (await confirm.isVisible().catch(() => false)) await confirm.click().catch(() => undefined);
    if (Date.now() > deadline) throw new Error('the import through the options page did not finish within 2 minutes');
    await options.waitForTimeout(100);
  }
  const report =
    (await options
      .getByTestId('import-result')
      .first()
      .textContent()
      .catch(() => '')) ?? '';
  await options.close();
  return report.trim();
}

/**
 * Main-thread tasks while the extension anchors and paints `expected`
 * claims on a large page, measured with a Chromium trace, in two scenarios:
 * - "open tab": the page is loaded and idle with nothing stored; the claims
 *   are then imported through the options page (the background tells the
 *   tab, which anchors and paints): only the extension's work runs on the
 *   page's main thread.
 * - "fresh load": with the claims stored, the page is loaded again; the
 *   page's own parsing and layout show up too (the same page is also loaded
 *   without the extension, for comparison).
 */
export async function longTasks({ url, pages, jsonl, expected, log = () => {} }) {
  const browser = await launch({ extension: true, pages });
  const out = {};
  try {
    const page = await browser.context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(1500);
    const traced = await traceMainThread(browser.context, page, url, async () => {
      const t0 = await page.evaluate(() => performance.now());
      const report = await importThroughOptions(browser.context, browser.extensionId, 'bench-claims.jsonl', jsonl);
      log(`imported: ${report.replace(/\s+/g, ' ').slice(0, 120)}`);
      const painted = await waitPainted(page, expected, 120000).catch(async () => ({ total: await paintedCount(page), at: null }));
      await page.waitForTimeout(300);
      return { painted, t0 };
    });
    const { painted, t0 } = traced.result;
    out.openTab = {
      painted: painted.total,
      expected,
      timeToPaintedMs: painted.at === null ? null : painted.at - t0,
      traced: traced.traced,
      ...summarize(traced.tasks),
    };
    log(
      `open tab: ${out.openTab.painted}/${expected} painted ${fmtMs(out.openTab.timeToPaintedMs)} after the import started; longest main-thread task ${out.openTab.maxTaskMs.toFixed(0)} ms wall, ${out.openTab.maxTaskCpuMs.toFixed(0)} ms CPU (${out.openTab.tasksOver50} over 50 ms wall, ${out.openTab.tasksOver50Cpu} by CPU)`,
    );
    for (const line of out.openTab.longestParts) log(`  open tab long task ${line}`);

    const fresh = await browser.context.newPage();
    await fresh.addInitScript(watchPainting, { count: expected, re: PAINTED_RE });
    const traced2 = await traceMainThread(browser.context, fresh, url, async () => {
      await fresh.goto(url, { waitUntil: 'load' });
      const noted = await paintingNoted(fresh, 120_000);
      await fresh.waitForTimeout(300);
      return noted;
    });
    const { total, at, dcl, frame } = traced2.result;
    out.freshLoad = {
      painted: total,
      expected,
      timeToPaintedMs: at,
      domContentLoadedMs: dcl,
      paintedAfterDomContentLoadedMs: at === null || dcl === null ? null : at - dcl,
      firstFrameAfterDomContentLoadedMs: frame === null || dcl === null ? null : frame - dcl,
      traced: traced2.traced,
      ...summarize(traced2.tasks),
    };
    log(
      `fresh load: ${out.freshLoad.painted}/${expected} painted ${fmtMs(out.freshLoad.timeToPaintedMs)} after navigation (${fmtMs(out.freshLoad.paintedAfterDomContentLoadedMs)} after DOMContentLoaded; the page's first frame after DOMContentLoaded was out ${fmtMs(out.freshLoad.firstFrameAfterDomContentLoadedMs)} after it); longest main-thread task ${out.freshLoad.maxTaskMs.toFixed(0)} ms wall, ${out.freshLoad.maxTaskCpuMs.toFixed(0)} ms CPU (page parsing and layout included)`,
    );
    await fresh.close();
    await page.close();
  } finally {
    await browser.close();
  }
  // The page's own tasks when nothing is installed, for comparison (no goal's figure: BENCH_QUICK leaves it out).
  if (process.env.BENCH_QUICK === '1') return out;
  const bare = await launch({ extension: false, pages });
  try {
    const page = await bare.context.newPage();
    await page.addInitScript(watchPainting, { count: 0, re: PAINTED_RE });
    const traced = await traceMainThread(bare.context, page, url, async () => {
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForTimeout(1000);
      return page.evaluate(() => ({ dcl: window.__rlDcl, frame: window.__rlFirstFrame }));
    });
    const { dcl, frame } = traced.result;
    out.withoutExtension = {
      traced: traced.traced,
      firstFrameAfterDomContentLoadedMs: frame === null || dcl === null ? null : frame - dcl,
      ...summarize(traced.tasks),
    };
    log(
      `without the extension: longest main-thread task ${out.withoutExtension.maxTaskMs.toFixed(0)} ms wall, ${out.withoutExtension.maxTaskCpuMs.toFixed(0)} ms CPU while the page loads; its first frame after DOMContentLoaded was out ${fmtMs(out.withoutExtension.firstFrameAfterDomContentLoadedMs)} after it`,
    );
  } finally {
    await bare.close();
  }
  return out;
}
/**
 * Init script of a fresh load (the page's own world, from the document's start): notes DOMContentLoaded, the
 * moment the first frame after it is out (a task queued from that frame's animation callback runs once the frame
 * is drawn), and the first moment `count` of our highlights are registered, checked every 10 ms — so the time
 * painted does not wait for the load event or for a poll from outside the page. A `count` of 0 checks nothing.
 * Evaluated on a page already open (`waitPainted`) it watches the painting from then on; a later call stops the
 * check of an earlier one.
 */
export function watchPainting({ count, re }) {
  const watch = {};
  window.__rlWatch = watch;
  window.__rlPaintedAt = null;
  window.__rlPaintedTotal = 0;
  window.__rlDcl = null;
  window.__rlFirstFrame = null;
  document.addEventListener('DOMContentLoaded', () => {
    window.__rlDcl = performance.now();
    requestAnimationFrame(() => setTimeout(() => (window.__rlFirstFrame = performance.now()), 0));
  });
  const names = new RegExp(re);
  const check = () => {
    if (window.__rlWatch !== watch) return;
    let total = 0;
    if (typeof CSS !== 'undefined' && CSS.highlights) CSS.highlights.forEach((h, name) => names.test(name) && (total += h.size));
    window.__rlPaintedTotal = total;
    if (total >= count) window.__rlPaintedAt = performance.now();
    else setTimeout(check, 10);
  };
  if (count > 0) check();
}

/** Milliseconds for a log line. */
function fmtMs(ms) {
  return ms === null || ms === undefined ? '(not reached)' : `${Math.round(ms)} ms`;
}

/** Size of a content-script bundle, raw and gzipped (node:zlib, default level): `claims` runs on every page, `capture` only where needed. */
export function bundleSize(name = 'claims') {
  const file = path.join(EXTENSION_DIR, 'content-scripts', `${name}.js`);
  if (!existsSync(file)) return null;
  const raw = readFileSync(file);
  return { file: path.relative(path.resolve(EXTENSION_DIR, '..', '..'), file), bytes: statSync(file).size, gzipBytes: gzipSync(raw).length };
}

/**
 * Lets pdf.js's engine go, as its keeper does ten minutes after the last viewer (`pdf.engine` with `keep: false`,
 * sent from an extension page), and waits until no engine runs: the next opening boots it cold. A build without the
 * engine (a worker per viewer) answers with an error, which changes nothing: its openings are always cold.
 */
export async function engineCold(context, extensionId) {
  const page = await context.newPage();
  try {
    await page.goto(`chrome-extension://${extensionId}/popup.html`);
    await page.evaluate(() => chrome.runtime.sendMessage({ channel: 'recipe-lens', type: 'pdf.engine', payload: { keep: false } }).catch(() => null));
    const session = await context.newCDPSession(page);
    for (let i = 0; i < 200; i++) {
      const { targetInfos } = await session.send('Target.getTargets');
      if (!targetInfos.some((t) => t.type === 'shared_worker' && t.url.includes('/assets/engine.worker'))) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("pdf.js's engine did not end once its keeper was closed");
  } finally {
    await page.close();
  }
}
