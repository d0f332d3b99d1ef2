// The generated arXiv-scale page (~2 MB of text, corpus.mjs) and its passages as stored claims, for the
// suites that measure what the extension costs on a big page (long tasks, highlights, memory, scaling).
// The passages' selectors are what our capture stores (`describe` in the page, via page-bench.ts), read
// once per page in a plain Chromium without the extension.
import { chromium } from 'playwright-core';
import { bundlePageBench } from './build.mjs';
import { generatePage } from './corpus.mjs';
import { CHROMIUM_FLAGS, chromiumPath } from '../browsers.mjs';
import { pageClaimsJsonl } from './records.mjs';

const made = new Map();

/** Serves `pages` (url → html) to a browser context by request routing (no caching). */
export async function routePages(context, pages) {
  await context.route('http://fixtures.test/**', (route) => {
    const url = route.request().url().split('#')[0].split('?')[0];
    const body = pages.get(url) ?? pages.get(`${url}/`) ?? pages.get(url.replace(/\/$/, ''));
    return body === undefined
      ? route.fulfill({ status: 404, contentType: 'text/plain', body: 'no such page' })
      : route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', headers: { 'cache-control': 'no-store' }, body });
  });
}

/**
 * The 2 MB page with `passages` marked passages (seeded), their stored selectors, and how many of them
 * our anchoring places right on the unedited page. Made once per process for each (seed, passages).
 * @returns {Promise<{ url: string, title: string, html: string, passages: Array<{ id: string, kind: string, quote: object, position: object }>, right: number, verdicts: string }>}
 */
export function bigPage({ seed = 1, passages = 500 } = {}) {
  const key = `${seed}:${passages}`;
  if (!made.has(key)) made.set(key, makeBigPage(seed, passages));
  return made.get(key);
}

async function makeBigPage(seed, count) {
  const name = count === 500 ? `arxiv-${seed}` : `arxiv-${seed}-${count}`;
  const page = {
    url: `http://fixtures.test/bench/${name}`,
    title: `Scaling Reinforcement Learning for Reasoning Models (benchmark page ${seed})`,
  };
  const { html } = generatePage({ seed, targetChars: 2_000_000, passages: count, id: name, title: page.title });
  return onPlainPage({ ...page, html }, async ({ tab, passages }) => {
    const ours = await tab.evaluate(() => globalThis.RLBench.run('ours', 'stored', 600_000, 1));
    // One letter per passage: r(ight), o(rphan), w(rong) — which of them the library places right.
    return { ...page, html, passages, right: ours.counts.right, verdicts: ours.verdicts };
  });
}

/** Survey-record JSONL of `n` of the page's passages, spread evenly over the page (all of them when n ≥ their count), and how many of those the library places right. */
export function claimsOn(page, n) {
  const all = page.passages;
  const at = n >= all.length ? all.map((_, i) => i) : Array.from({ length: n }, (_, i) => Math.floor((i * all.length) / n));
  const picked = at.map((i) => all[i]);
  return { jsonl: pageClaimsJsonl(page, picked), count: picked.length, right: at.filter((i) => page.verdicts?.[i] === 'r').length };
}

/**
 * Runs `fn({ context, tab, passages })` with `page` loaded in a plain Chromium (no extension), the
 * in-page bench bundle (page-bench.ts) added and its marked passages prepared (`passages`: their stored
 * selectors); closes the browser afterwards.
 */
export async function onPlainPage(page, fn) {
  const { code } = await bundlePageBench();
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await routePages(context, new Map([[page.url, page.html]]));
    const tab = await context.newPage();
    await tab.goto(page.url, { waitUntil: 'load' });
    await tab.addScriptTag({ content: code });
    const passages = await tab.evaluate(() => globalThis.RLBench.prepare({ seed: 1, records: [], random: 0 }));
    return await fn({ context, tab, passages });
  } finally {
    await browser.close();
  }
}
