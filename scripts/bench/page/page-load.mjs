// What the extension costs a page with nothing stored, measured so that the machine's load cancels out:
// one browser with the extension and one without load the same page in interleaved pairs (ABAB…, the
// order swapped every pair), each pair's with/without ratio is taken, and the median ratio is reported
// with its interquartile range and a 95 % bootstrap interval. Pages are served over real HTTP on
// 127.0.0.1 (no request interception). Then the page script is profiled: its evaluation in the page's
// trace, and — in its own isolated world — what the webextension polyfill and the URL normalisation
// cost, and the one lookup's round trip. Before that, what pages with nothing stored ask of the background:
// service-worker starts and messages, counted over 100 loads of the fixture pages. Used by run.mjs
// (BENCH_ONLY=page-load); `node scripts/bench/page/page-load.mjs` runs it alone.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { EXTENSION_DIR, ROOT } from '../harness/build.mjs';
import { generatePage } from '../harness/corpus.mjs';
import { bundleSize, launch, traceMainThread } from '../harness/extension.mjs';
import { goal, runAlone, serveLocally } from '../harness/harness.mjs';
import { median, spread } from '../harness/stats.mjs';
import { serviceWorker, watchServiceWorker } from '../harness/store.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
/** Interleaved rounds measured (after WARMUP rounds that are not): each a load with and one without the extension (and one per ablated build). */
const PAIRS = QUICK ? 8 : 48;
const WARMUP = 4;
/** Traced loads each, for the main thread's CPU time and the page script's evaluation. */
const TRACED = QUICK ? 3 : 6;
/** Loads of pages with nothing stored over which the background's wake-ups are counted (the issue asks 100). */
const WAKE_LOADS = QUICK ? 20 : 100;
const FIXTURE_PAGES = path.resolve(ROOT, '..', 'shared', 'fixtures', 'pages');
const VERL = path.join(FIXTURE_PAGES, 'volcengine__verl__README.html');
const PAGE_PATH = '/volcengine/verl';
/** The content script's bundle in the build, as trace events name it. */
const PAGE_SCRIPT = '/content-scripts/claims.js';

/** The page measured: the verl README fixture when the shared fixtures are present, else a generated page of about its size. */
function pageHtml() {
  if (existsSync(VERL)) return { html: readFileSync(VERL, 'utf8'), name: 'verl README (shared fixture, 38 KB)' };
  const { html } = generatePage({ seed: 5, targetChars: 30_000, passages: 0, id: 'small', title: 'A small page' });
  return { html, name: `generated page (${(html.length / 1024).toFixed(0)} KB; shared fixtures not found)` };
}

/** The other shared fixture pages, as [path, HTML] (none without the fixtures): the wake count loads them in turn with the measured page. */
function otherFixturePages() {
  if (!existsSync(FIXTURE_PAGES)) return [];
  return readdirSync(FIXTURE_PAGES)
    .filter((file) => file.endsWith('.html') && path.join(FIXTURE_PAGES, file) !== VERL)
    .map((file) => [`/fixtures/${file.replace(/\.html$/, '')}`, readFileSync(path.join(FIXTURE_PAGES, file), 'utf8')]);
}

/** Navigation timing of the page now shown, and the first idle moment after its load event (page clock, ms). */
async function loadFigures(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const nav = performance.getEntriesByType('navigation')[0];
        const done = () =>
          requestIdleCallback(() => resolve({ loadEventEnd: nav.loadEventEnd, domContentLoaded: nav.domContentLoadedEventEnd, idle: performance.now() }), {
            timeout: 2000,
          });
        if (nav.loadEventEnd > 0) done();
        else addEventListener('load', () => setTimeout(done, 0), { once: true });
      }),
  );
}

/** Loads the page in one browser and returns its figures. */
async function loadOnce(tab, url) {
  await tab.goto(url, { waitUntil: 'load' });
  return loadFigures(tab);
}

/** The page script's own trace events in one traced load: its evaluation (compile included) and its later calls. */
function pageScriptEvents(events) {
  const mine = events.filter((e) => String(e.args?.data?.url ?? '').endsWith(PAGE_SCRIPT));
  const evaluate = mine.filter((e) => e.name === 'EvaluateScript').reduce((n, e) => n + e.dur / 1000, 0);
  const compile = mine.filter((e) => e.name === 'v8.compile').reduce((n, e) => n + e.dur / 1000, 0);
  const calls = mine.filter((e) => e.name === 'FunctionCall').reduce((n, e) => n + e.dur / 1000, 0);
  return { evaluate, compile, calls };
}

/** Bundles the probes run in the page script's isolated world: the webextension polyfill, and URL normalisation. */
async function probeBundles() {
  const bundle = async (contents) =>
    (
      await esbuild.build({
        stdin: { contents, resolveDir: ROOT, loader: 'ts' },
        bundle: true,
        format: 'iife',
        platform: 'browser',
        target: 'chrome120',
        minify: true,
        write: false,
        logLevel: 'silent',
      })
    ).outputFiles[0].text;
  return {
    polyfill: await bundle("import browser from 'webextension-polyfill'; globalThis.__rlProbePolyfill = browser;"),
    // What the page script reads of its address (the background decides the canonical link by the Public Suffix List).
    url: await bundle("import { pageAddress } from './lib/source/url'; globalThis.__rlProbeUrl = (doc) => pageAddress(doc).url;"),
  };
}

/** The page script's isolated world in the tab (the extension's content-script context; Playwright's own worlds left out). */
async function isolatedWorld(cdp, tab, url) {
  const contexts = [];
  cdp.on('Runtime.executionContextCreated', (e) => contexts.push(e.context));
  await cdp.send('Runtime.enable');
  await tab.goto(url, { waitUntil: 'load' });
  await tab.waitForTimeout(200);
  const world = contexts.filter((c) => c.auxData?.type === 'isolated' && !c.name.startsWith('__playwright')).at(-1);
  if (!world) throw new Error(`no content-script world on ${url}`);
  return world.id;
}

/** Evaluates `expression` (an async function body's result) in the isolated world and returns its value. */
async function inWorld(cdp, contextId, expression) {
  const r = await cdp.send('Runtime.evaluate', { expression, contextId, awaitPromise: true, returnByValue: true });
  if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
  return r.result.value;
}

/**
 * What parts of the page script cost, in its own isolated world on the page: evaluating the
 * webextension polyfill (compiled afresh, and again from V8's cache), normalising the page's URL
 * (`pageAddress`, first call and later ones), and the one lookup (`document.claims`) through the
 * extension's messaging, round trip.
 */
async function profileParts(context, url) {
  const probes = await probeBundles();
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  try {
    const id = await isolatedWorld(cdp, tab, url);
    const timeEval = (src) => `(() => { const t = performance.now(); (0, eval)(${JSON.stringify(src)}); return performance.now() - t; })()`;
    const polyfillCold = [];
    for (let i = 0; i < 5; i++) polyfillCold.push(await inWorld(cdp, id, timeEval(`${probes.polyfill}\n//${i}-${Date.now()}`)));
    const polyfillWarm = [];
    for (let i = 0; i < 5; i++) polyfillWarm.push(await inWorld(cdp, id, timeEval(probes.polyfill)));
    const urlLoad = await inWorld(cdp, id, timeEval(probes.url));
    const urlCalls = await inWorld(
      cdp,
      id,
      `(() => { const out = []; for (let i = 0; i < 21; i++) { const t = performance.now(); globalThis.__rlProbeUrl(document); out.push(performance.now() - t); } return out; })()`,
    );
    const lookups = await inWorld(
      cdp,
      id,
      `(async () => { const url = globalThis.__rlProbeUrl(document); const out = []; for (let i = 0; i < 11; i++) { const t = performance.now(); const reply = await chrome.runtime.sendMessage({ channel: 'recipe-lens', type: 'document.claims', payload: { url } }); if (!reply?.ok) throw new Error('lookup failed: ' + JSON.stringify(reply)); out.push(performance.now() - t); } return out; })()`,
    );
    return {
      polyfillBytes: probes.polyfill.length,
      polyfillColdMs: median(polyfillCold),
      polyfillWarmMs: median(polyfillWarm),
      urlModuleMs: urlLoad,
      urlFirstCallMs: urlCalls[0],
      urlCallMs: median(urlCalls.slice(1)),
      lookups: lookups.length,
      lookupFirstMs: lookups[0],
      lookupMs: median(lookups.slice(1)),
    };
  } finally {
    await cdp.detach().catch(() => undefined);
    await tab.close();
  }
}

/**
 * Copies of the build with one part taken out of the manifest, to see what each part costs a page load:
 * no content script (the page script and its stylesheet), no `webRequest` permission, the page script without
 * its stylesheet. The PDF navigation
 * listener is now registered only while "open every PDF" is on, so with nothing stored and default settings
 * this copy no longer differs by a listener; it is kept because the permission alone still costs: Chromium
 * routes the profile's requests through its webRequest proxy as soon as a loaded extension holds the
 * permission, listener or not (`WebRequestAPI::MayHaveProxies` counts such extensions).
 */
const ABLATIONS = {
  'no content script': ({ content_scripts: _c, ...m }) => m,
  'no webRequest': (m) => ({ ...m, permissions: m.permissions.filter((p) => p !== 'webRequest') }),
  // The page script without the highlights' stylesheet that comes with it (`highlights-root.css`, Chromium only).
  'no highlights stylesheet': (m) => ({ ...m, content_scripts: m.content_scripts.map(({ css: _css, ...script }) => script) }),
  // The page script's file emptied (`void 0;`), its stylesheet and manifest entry kept: what having a content script
  // on the page costs, whatever it does (docs/benchmarks.md, "What a content script costs a page load").
  'an empty page script': (m, dir) => {
    writeFileSync(path.join(dir, PAGE_SCRIPT), 'void 0;\n');
    return m;
  },
};

/** An unpacked copy of the build with its manifest edited (`edit` gets the copy's folder too); returns its folder. */
function ablatedBuild(edit) {
  const dir = mkdtempSync(path.join(tmpdir(), 'recipe-lens-ablated-'));
  cpSync(EXTENSION_DIR, dir, { recursive: true });
  const file = path.join(dir, 'manifest.json');
  writeFileSync(file, JSON.stringify(edit(JSON.parse(readFileSync(file, 'utf8')), dir)));
  return dir;
}

/**
 * What pages with nothing stored ask of the background, over `loads` loads of `urls` in turn in the browser
 * with the extension, once the background has written the claims index the page script reads
 * (lib/claims-index: `claimsIndex` in storage.local; without it a page asks). First with the service worker
 * stopped (`ServiceWorker.stopWorker`): how often it starts (changes to `starting` in
 * `ServiceWorker.workerVersionUpdated`). Then with it running and a counting listener of `runtime.onMessage`
 * and `runtime.onConnect` added in it (`worker.evaluate`): the messages and connections it received over the
 * same loads. `heard()` reads that listener's counts again later (null once the worker stopped).
 */
async function countWakes(browser, urls, loads) {
  const control = await browser.context.newPage();
  const tab = await browser.context.newPage();
  const watch = await watchServiceWorker(browser.context, control, browser.extensionId);
  const loadAll = async () => {
    for (let i = 0; i < loads; i++) await loadOnce(tab, urls[i % urls.length]);
    await tab.waitForTimeout(500); // a late message or start still counts
  };
  const running = async () => {
    if (watch.states.at(-1) !== 'running') await watch.start();
    return serviceWorker(browser.context);
  };
  try {
    const indexed = await (await running()).evaluate(async () => {
      for (let i = 0; i < 150; i++) {
        if ('claimsIndex' in (await chrome.storage.local.get('claimsIndex'))) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return false;
    });
    await watch.stop();
    const stoppedAt = watch.states.length;
    await loadAll();
    const starts = watch.startsSince(stoppedAt);
    const worker = await running();
    await worker.evaluate(() => {
      const heard = { messages: 0, connects: 0 };
      globalThis.__rlBenchHeard = heard;
      chrome.runtime.onMessage.addListener(() => {
        heard.messages += 1;
      });
      chrome.runtime.onConnect.addListener(() => {
        heard.connects += 1;
      });
    });
    await loadAll();
    const heard = () => worker.evaluate(() => globalThis.__rlBenchHeard ?? null).catch(() => null);
    const during = await heard();
    return { loads, indexed, starts, messages: during?.messages ?? null, connects: during?.connects ?? null, heard };
  } finally {
    await watch.detach();
    await tab.close();
    await control.close();
  }
}

/** Runs the page-load benchmark; returns the rounds, the ratios with their spread, the traced CPU, the background's wake-ups and the page script's profile. */
export async function benchPageLoad({ log = console.log }) {
  const page = pageHtml();
  const others = otherFixturePages();
  const server = await serveLocally(new Map([[PAGE_PATH, page.html], ...others]));
  const url = `${server.origin}${PAGE_PATH}`;
  // BENCH_QUICK leaves the ablated builds out: they explain the ratio, none of them is a goal.
  const ablated = QUICK ? [] : Object.entries(ABLATIONS).map(([name, edit]) => [name, ablatedBuild(edit)]);
  const browsers = { without: await launch({ extension: false, pages: new Map() }), with: await launch({ extension: true, pages: new Map() }) };
  for (const [name, dir] of ablated) browsers[name] = await launch({ extension: true, pages: new Map(), extensionDir: dir });
  try {
    const arms = Object.keys(browsers);
    const tabs = {};
    for (const arm of arms) tabs[arm] = await browsers[arm].context.newPage();
    // Rounds: every arm loads the page once, in an order rotated each round, so each arm meets the same load.
    const rounds = [];
    for (let i = 0; i < WARMUP + PAIRS; i++) {
      const order = arms.map((_, k) => arms[(i + k) % arms.length]);
      if (i % 2) order.reverse();
      const round = {};
      for (const arm of order) round[arm] = await loadOnce(tabs[arm], url);
      if (i >= WARMUP) rounds.push(round);
    }
    const ratios = (arm, key) => rounds.map((r) => r[arm][key] / r.without[key]);
    const load = spread(ratios('with', 'loadEventEnd'));
    const dcl = spread(ratios('with', 'domContentLoaded'));
    const idle = spread(ratios('with', 'idle'));
    const medians = {
      with: median(rounds.map((r) => r.with.loadEventEnd)),
      without: median(rounds.map((r) => r.without.loadEventEnd)),
    };
    log(
      `${page.name} at ${url}, ${PAIRS} interleaved rounds: loadEventEnd ratio with/without median ${load.median.toFixed(3)} (IQR ${load.q1.toFixed(3)}–${load.q3.toFixed(3)}, 95% bootstrap interval ${load.ciLow.toFixed(3)}–${load.ciHigh.toFixed(3)}); medians ${medians.with.toFixed(1)} vs ${medians.without.toFixed(1)} ms`,
    );
    log(
      `DOMContentLoaded ratio median ${dcl.median.toFixed(3)} (IQR ${dcl.q1.toFixed(3)}–${dcl.q3.toFixed(3)}); first idle after load ratio ${idle.median.toFixed(3)} (IQR ${idle.q1.toFixed(3)}–${idle.q3.toFixed(3)})`,
    );
    const parts = {};
    for (const [name] of ablated) {
      parts[name] = spread(ratios(name, 'loadEventEnd'));
      log(
        `  the build with ${name}: loadEventEnd ratio median ${parts[name].median.toFixed(3)} (IQR ${parts[name].q1.toFixed(3)}–${parts[name].q3.toFixed(3)}, 95% interval ${parts[name].ciLow.toFixed(3)}–${parts[name].ciHigh.toFixed(3)})`,
      );
    }

    // Traced loads, interleaved too: the main thread's CPU per load, and the page script's own events.
    const cpu = { with: [], without: [] };
    const byName = { with: new Map(), without: new Map() };
    const script = [];
    for (let i = 0; i < TRACED * 2; i++) {
      const arm = i % 2 ? 'with' : 'without';
      const traced = await traceMainThread(browsers[arm].context, tabs[arm], url, () => loadOnce(tabs[arm], url));
      cpu[arm].push(traced.tasks.reduce((n, t) => n + t.cpu, 0));
      for (const e of traced.events) byName[arm].set(e.name, (byName[arm].get(e.name) ?? 0) + (e.tdur ?? e.dur ?? 0) / 1000 / TRACED);
      if (arm === 'with') script.push(pageScriptEvents(traced.events));
    }
    // Where the extra main-thread time goes: trace events by name, CPU per load with minus without (nested events count in their parents too).
    const extra = [...new Set([...byName.with.keys(), ...byName.without.keys()])]
      .filter((name) => !/^(RunTask|ThreadControllerImpl::RunTask)$/.test(name))
      .map((name) => [name, (byName.with.get(name) ?? 0) - (byName.without.get(name) ?? 0)])
      .filter(([, ms]) => Math.abs(ms) >= 0.3)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8);
    const cpuWith = median(cpu.with);
    const cpuWithout = median(cpu.without);
    const evaluate = median(script.map((s) => s.evaluate));
    const compile = median(script.map((s) => s.compile));
    const calls = median(script.map((s) => s.calls));
    log(
      `main-thread CPU per load (${TRACED} traced loads each): ${cpuWith.toFixed(1)} vs ${cpuWithout.toFixed(1)} ms (ratio ${(cpuWith / cpuWithout).toFixed(3)}); the page script: evaluation ${evaluate.toFixed(2)} ms (compile ${compile.toFixed(2)} ms of it), later calls ${calls.toFixed(2)} ms`,
    );
    log(`extra main-thread CPU per load by trace event: ${extra.map(([name, ms]) => `${name} ${ms >= 0 ? '+' : ''}${ms.toFixed(1)} ms`).join(', ')}`);
    const wakeUrls = [PAGE_PATH, ...others.map(([p]) => p)].map((p) => `${server.origin}${p}`);
    const { heard, ...wakes } = await countWakes(browsers.with, wakeUrls, WAKE_LOADS);
    wakes.pages = others.length ? `the ${wakeUrls.length} shared fixture pages in turn` : page.name;
    log(
      `nothing stored, ${wakes.loads} loads of ${wakes.pages}: ${wakes.starts} service-worker starts with the worker stopped before; ${wakes.messages} messages and ${wakes.connects} connections received by the running worker${wakes.indexed ? '' : ' (the claims index was not written within 15 s)'}`,
    );
    const profile = await profileParts(browsers.with.context, url);
    // The check that the counting listener hears a content script: the profile's lookups, sent after the loads.
    const after = await heard();
    wakes.check = { sent: profile.lookups, heard: after && after.messages - wakes.messages };
    log(`the counting listener heard ${wakes.check.heard} of the ${wakes.check.sent} lookups the profile sent after the loads`);
    const pageScript = bundleSize('claims');
    const pageScriptText = pageScript ? readFileSync(path.join(EXTENSION_DIR, 'content-scripts', 'claims.js'), 'utf8') : '';
    // The polyfill's own error message marks it in a bundle.
    const withPolyfill = pageScriptText.includes('This script should only be loaded in a browser extension');
    log(
      `the page script as built: ${pageScript ? `${(pageScript.bytes / 1024).toFixed(1)} KiB (${(pageScript.gzipBytes / 1024).toFixed(1)} KiB gzipped)` : 'missing'}, ${withPolyfill ? 'with' : 'without'} the webextension polyfill`,
    );
    log(
      `in the page script's world, for scale: webextension polyfill (${(profile.polyfillBytes / 1024).toFixed(1)} KiB minified) evaluated in ${profile.polyfillColdMs.toFixed(2)} ms compiled afresh, ${profile.polyfillWarmMs.toFixed(2)} ms from V8's cache; pageAddress ${profile.urlFirstCallMs.toFixed(3)} ms on its first call, ${profile.urlCallMs.toFixed(3)} ms after (its module ${profile.urlModuleMs.toFixed(2)} ms to evaluate); the lookup (document.claims, nothing stored) ${profile.lookupFirstMs.toFixed(1)} ms first, ${profile.lookupMs.toFixed(1)} ms median round trip`,
    );
    return {
      page: page.name,
      url,
      pairs: PAIRS,
      samples: rounds,
      loadRatio: load,
      domContentLoadedRatio: dcl,
      idleRatio: idle,
      ablations: parts,
      loadEventEnd: medians,
      mainThreadCpu: { with: cpuWith, without: cpuWithout, ratio: cpuWith / cpuWithout, runs: TRACED, extraByEvent: Object.fromEntries(extra) },
      wakes,
      pageScript: { evaluateMs: evaluate, compileMs: compile, callsMs: calls, ...profile },
    };
  } finally {
    for (const b of Object.values(browsers)) await b.close();
    for (const [, dir] of ablated) rmSync(dir, { recursive: true, force: true });
    await server.close();
  }
}

/**
 * The goal lines of the page-load benchmark: loadEventEnd and main-thread CPU with/without the extension both
 * ≤ 1.02, and no service-worker start, message or connection for pages with nothing stored (the counting
 * listener having heard the lookups sent after, so a deaf counter cannot pass).
 */
export function pageLoadGoals(result) {
  const r = result.loadRatio;
  const cpu = result.mainThreadCpu;
  const w = result.wakes;
  const quick = w.loads < 100 ? ` (BENCH_QUICK: ${w.loads} loads, the goal counts over 100)` : '';
  const counted = (n) => n ?? 'not counted (the worker stopped meanwhile)';
  return [
    goal(
      'page-load-ratio-1.02',
      r.median <= 1.02 && cpu.ratio <= 1.02,
      `loadEventEnd ratio with/without extension median ${r.median.toFixed(3)} ≤ 1.02 over ${r.n} interleaved pairs of loads, nothing stored (IQR ${r.q1.toFixed(3)}–${r.q3.toFixed(3)}, 95% bootstrap interval of the median ${r.ciLow.toFixed(3)}–${r.ciHigh.toFixed(3)}); main-thread CPU ratio ${cpu.ratio.toFixed(3)} ≤ 1.02 (median ${cpu.with.toFixed(1)} vs ${cpu.without.toFixed(1)} ms per load over ${cpu.runs} traced loads each)`,
    ),
    goal(
      'no-wake-for-nothing',
      w.starts === 0 && w.messages === 0 && w.connects === 0 && w.check.heard !== null && w.check.heard >= w.check.sent,
      `${w.starts} service-worker starts over ${w.loads} loads with the worker stopped before them; ${counted(w.messages)} messages and ${counted(w.connects)} connections received by the background over ${w.loads} loads with it running (its counting listener then heard ${counted(w.check.heard)} of the ${w.check.sent} lookups sent after); nothing stored, ${w.pages}${quick}${w.indexed ? '' : '; the claims index was not written within 15 s'}`,
    ),
  ];
}

await runAlone(import.meta.url, benchPageLoad, pageLoadGoals, { browser: 'none' });
