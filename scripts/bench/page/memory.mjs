// Memory: what a page pays in JS heap for the extension (the ~2 MB page with its 500 claims painted, and
// the same page with nothing stored, against a browser without the extension), and what the service
// worker holds after a page's lookup with 1,000 and with 100,000 claims stored (nothing should grow with
// the whole store when one page is open). Heaps are read over the DevTools protocol after a full garbage
// collection; each figure is the median of three (two with BENCH_QUICK). Used by run.mjs (BENCH_ONLY=memory);
// `node scripts/bench/page/memory.mjs` runs it alone.
import { bigPage, claimsOn, onPlainPage } from '../harness/bigpage.mjs';
import { importThroughOptions, launch, waitPainted } from '../harness/extension.mjs';
import { goal, runAlone } from '../harness/harness.mjs';
import { median } from '../harness/stats.mjs';
import { lookupTimes, pageHeap, seedStore, serviceWorkerHeap, stopServiceWorker } from '../harness/store.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const LOADS = QUICK ? 2 : 3;
const MB = 1024 * 1024;
/** Store sizes the service worker is weighed at, after one page lookup. */
const STORE_SIZES = QUICK ? [1_000, 10_000] : [1_000, 100_000];

/** Loads `url` in a new tab `LOADS` times (waiting for `painted` claims when asked); the median heap and buffer sizes after GC. */
async function heapOf(context, url, painted = 0) {
  const all = [];
  for (let i = 0; i < LOADS; i++) {
    const tab = await context.newPage();
    await tab.goto(url, { waitUntil: 'load' });
    if (painted) await waitPainted(tab, painted, 120_000);
    await tab.waitForTimeout(1000);
    all.push(await pageHeap(context, tab));
    await tab.close();
  }
  return { heap: median(all.map((h) => h.heap)), buffers: median(all.map((h) => h.buffers)), total: median(all.map((h) => h.total)) };
}

/** What keeping the page's text index (with its lazy maps filled by anchoring every passage) costs, in a plain page: the heap with and without it. */
async function indexWeight(page) {
  return onPlainPage(page, async ({ context, tab }) => {
    const before = await pageHeap(context, tab);
    const chars = await tab.evaluate(() => globalThis.RLBench.keepIndex(true));
    const kept = await pageHeap(context, tab);
    await tab.evaluate(() => globalThis.RLBench.keepIndex(false));
    return { chars, heap: kept.heap - before.heap, buffers: kept.buffers - before.buffers, total: kept.total - before.total };
  });
}

const mb = (bytes) => `${(bytes / MB).toFixed(2)} MB`;

/** The page's heap with and without the extension, and what of it a kept text index explains. */
async function pageSide(log) {
  const page = await bigPage({ seed: 1, passages: 500 });
  const bare = `${page.url}-nothing-stored`;
  const pages = new Map([
    [page.url, page.html],
    [bare, page.html],
  ]);
  const { jsonl, count } = claimsOn(page, page.passages.length);
  const without = await launch({ extension: false, pages });
  let withoutHeap;
  try {
    withoutHeap = await heapOf(without.context, page.url);
  } finally {
    await without.close();
  }
  const ext = await launch({ extension: true, pages });
  let out;
  try {
    await importThroughOptions(ext.context, ext.extensionId, 'memory-claims.jsonl', jsonl);
    const claimsHeap = await heapOf(ext.context, page.url, page.right);
    const nothingHeap = await heapOf(ext.context, bare);
    out = { claims: count, painted: page.right, withoutHeap, nothingHeap, claimsHeap };
  } finally {
    await ext.close();
  }
  // What a kept index weighs explains the figure and is no goal: BENCH_QUICK leaves it out.
  out.index = QUICK ? null : await indexWeight(page);
  const extra = (h) =>
    `+${mb(h.total - out.withoutHeap.total)} (JS heap +${mb(h.heap - out.withoutHeap.heap)}, array buffers +${mb(h.buffers - out.withoutHeap.buffers)})`;
  log(
    `the 2 MB page's memory in its JS engine (median of ${LOADS} loads, after GC): ${mb(out.withoutHeap.total)} without the extension; with it ${extra(out.nothingHeap)} with nothing stored, ${extra(out.claimsHeap)} with ${count} claims painted`,
  );
  if (out.index)
    log(
      `of which a kept text index of the page (${out.index.chars.toLocaleString('en')} characters, maps filled by anchoring) explains ${mb(out.index.total)} (JS heap ${mb(out.index.heap)}, array buffers ${mb(out.index.buffers)}), measured alone in a plain page`,
    );
  return out;
}

/** The service worker's heap and the page lookup's time after one lookup, at each store size. */
async function workerSide(log) {
  const page = await bigPage({ seed: 1, passages: 500 });
  const probe = 'http://fixtures.test/bench/lookup-probe';
  const ext = await launch({ extension: true, pages: new Map([[probe, '<!doctype html><title>probe</title><p>A page with nothing stored.</p>']]) });
  try {
    const options = await ext.context.newPage();
    await options.goto(`chrome-extension://${ext.extensionId}/options.html`);
    await options.getByTestId('import-panel').waitFor();
    const sizes = [];
    let stored = 0;
    for (const size of STORE_SIZES) {
      const seedMs = await seedStore(ext.context, { from: stored, to: size });
      stored = size;
      await stopServiceWorker(ext.context, options);
      // One page opens and makes one lookup, which starts the worker, and nothing else asks for anything. (A page
      // with nothing stored no longer asks by itself, the claims index tells it so: without this lookup no worker
      // runs and there is no heap to weigh.)
      const tab = await ext.context.newPage();
      await tab.goto(probe, { waitUntil: 'load' });
      await lookupTimes(ext.context, tab, page.url.replace('arxiv-1', 'none'), 1);
      await tab.waitForTimeout(1500);
      const heaps = [];
      for (let i = 0; i < LOADS; i++) heaps.push(await serviceWorkerHeap(ext.context, tab));
      if (heaps.some((h) => h === null)) throw new Error("the service worker was not running after the page's lookup: no heap to weigh");
      const lookups = await lookupTimes(ext.context, tab, page.url.replace('arxiv-1', 'none'), 5);
      await tab.close();
      const entry = { stored: size, heap: median(heaps), lookupMs: median(lookups.map(([ms]) => ms)), seedMs };
      sizes.push(entry);
      log(
        `service worker with ${size.toLocaleString('en')} claims stored (filled in ${(seedMs / 1000).toFixed(1)} s), after one page's lookup: JS heap ${(entry.heap / MB).toFixed(2)} MB; lookup round trip ${entry.lookupMs.toFixed(1)} ms`,
      );
    }
    await options.close();
    return { sizes };
  } finally {
    await ext.close();
  }
}

/** Runs the memory benchmark. */
export async function benchMemory({ log = console.log }) {
  return { page: await pageSide(log), worker: await workerSide(log) };
}

/** The goal lines of the memory benchmark. */
export function memoryGoals(result) {
  const p = result.page;
  const paid = p.claimsHeap.total - p.withoutHeap.total;
  const [small, big] = [result.worker.sizes[0], result.worker.sizes.at(-1)];
  const growth = big.heap - small.heap;
  return [
    goal(
      'page-heap-500-claims-under-5mb',
      paid < 5 * MB,
      `the 2 MB page holds ${mb(paid)} more in its JS engine (heap and array buffers) with the extension and ${p.claims} claims painted than without it (${mb(p.nothingHeap.total - p.withoutHeap.total)} with nothing stored; a kept text index of the page alone is ${p.index ? mb(p.index.total) : 'not weighed with BENCH_QUICK'}), median of ${LOADS} loads after GC`,
    ),
    goal(
      'nothing-scales-with-store',
      growth < 2 * MB && big.lookupMs < 4 * Math.max(small.lookupMs, 5),
      `after one page's lookup the service worker's JS heap is ${(big.heap / MB).toFixed(2)} MB with ${big.stored.toLocaleString('en')} claims stored vs ${(small.heap / MB).toFixed(2)} MB with ${small.stored.toLocaleString('en')}; lookup ${big.lookupMs.toFixed(1)} vs ${small.lookupMs.toFixed(1)} ms`,
    ),
  ];
}

await runAlone(import.meta.url, benchMemory, memoryGoals, { browser: 'none' });
