#!/usr/bin/env node
// `npm run demo`: builds the extension, starts Chromium with it, fills the store from ../shared/fixtures
// records (or from scripts/demo/records.jsonl when that folder is absent), and opens a page with its claims
// painted beside the evidence panel. Headed when there is a display; otherwise it writes screenshots to demo/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_MISSING, extensionFlags, findChromium } from './browsers.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const EXT = path.join(ROOT, '.output', 'chrome-mv3');
const SHARED = path.resolve(ROOT, '..', 'shared', 'fixtures');
const OWN = path.join(ROOT, 'tests', 'e2e', 'fixtures');
const OUT = path.join(ROOT, 'demo');
const headed = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const chromiumPath = findChromium();
if (!chromiumPath) {
  console.error(CHROMIUM_MISSING);
  process.exit(1);
}

console.log('Building the extension…');
const build = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'wxt'), ['build'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const shared = existsSync(path.join(SHARED, 'pages.json'));
const pages = shared ? JSON.parse(readFileSync(path.join(SHARED, 'pages.json'), 'utf8')) : [];
const recordFiles = shared ? pages.filter((p) => p.records).map((p) => path.join(SHARED, p.records)) : [path.join(ROOT, 'scripts', 'demo', 'records.jsonl')];
const showUrl = shared ? (pages.find((p) => p.url.includes('qwen3'))?.url ?? pages[0].url) : 'http://local.test/drift.html';
console.log(shared ? 'Using the real pages and records in ../shared/fixtures.' : 'No ../shared/fixtures here: using Recipe Lens’s own demo page and records.');

const context = await chromium.launchPersistentContext(mkdtempSync(path.join(tmpdir(), 'recipe-lens-demo-')), {
  executablePath: chromiumPath,
  headless: !headed,
  viewport: headed ? null : { width: 1280, height: 860 },
  args: [...extensionFlags(EXT), ...CHROMIUM_FLAGS],
});
await context.route('http://fixtures.test/**', async (route) => {
  const url = route.request().url().split('#')[0].split('?')[0];
  const page = pages.find((p) => p.url === url || p.url === `${url}/`);
  if (!page) return route.fulfill({ status: 404, body: 'not a fixture' });
  return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: readFileSync(path.join(SHARED, page.file)) });
});
await context.route('http://local.test/**', async (route) => {
  const file = path.join(OWN, new URL(route.request().url()).pathname.replace(/^\/+/, ''));
  if (!file.startsWith(OWN) || !existsSync(file)) return route.fulfill({ status: 404, body: 'no such page' });
  return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: readFileSync(file) });
});
const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
const id = new URL(worker.url()).host;

console.log('Importing records through the options page…');
const options = context.pages()[0] ?? (await context.newPage());
await options.goto(`chrome-extension://${id}/options.html`);
const panel = options.getByTestId('import-panel');
const before = Number(await panel.getAttribute('data-runs'));
await options.getByTestId('import-input').setInputFiles(recordFiles);
// The import may show a preview to confirm first.
const confirm = options.getByTestId('import-confirm');
await Promise.race([
  options.waitForFunction((n) => Number(document.querySelector('[data-testid=import-panel]')?.getAttribute('data-runs')) > n, before, { timeout: 30_000 }),
  confirm.waitFor({ timeout: 30_000 }).then(() => confirm.click()),
]);
await options.waitForFunction((n) => Number(document.querySelector('[data-testid=import-panel]')?.getAttribute('data-runs')) > n, before, { timeout: 30_000 });

const page = await context.newPage();
await page.goto(showUrl);
await page.waitForFunction(
  () => {
    let n = 0;
    CSS.highlights.forEach((h, name) => {
      if (/^recipe-lens-(stage|algorithm|framework|reward|system|intention|undisclosed)$/.test(name)) n += h.size;
    });
    return n > 0;
  },
  null,
  { timeout: 15_000 },
);
await page.evaluate(() => {
  let first = null;
  CSS.highlights.forEach((h) => {
    for (const r of h) first ??= r;
  });
  first?.startContainer.parentElement?.scrollIntoView({ block: 'center' });
});
const windowId = await worker.evaluate(async (url) => (await chrome.tabs.query({})).find((t) => t.url === url)?.windowId ?? -1, showUrl);
const panelPage = context.waitForEvent('page', (p) => p.url().includes('sidepanel.html'));
await worker.evaluate(
  async ({ ext, windowId }) => chrome.windows.create({ url: `chrome-extension://${ext}/sidepanel.html?window=${windowId}`, width: 460, height: 900 }),
  { ext: id, windowId },
);
const side = await panelPage;
await side.getByTestId('survey-row').first().waitFor({ timeout: 15_000 });
await options.close();

if (headed) {
  console.log(`Showing ${showUrl} with its claims painted, and the evidence panel in the window beside it. Close the browser to end the demo.`);
  await new Promise((resolve) => context.on('close', resolve));
} else {
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: path.join(OUT, 'page.png') });
  await side.setViewportSize({ width: 440, height: 860 });
  await side.screenshot({ path: path.join(OUT, 'panel.png') });
  console.log(`No display: wrote ${path.relative(ROOT, path.join(OUT, 'page.png'))} and ${path.relative(ROOT, path.join(OUT, 'panel.png'))}.`);
  await context.close();
}
