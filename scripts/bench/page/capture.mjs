// The capture UI's cost (issue 24): from the curator's end of a selection to the toolbar on screen, and from the
// click on "Tag as claim" to the form on screen, with trusted input (the automation protocol's keyboard and mouse),
// and the size of every content script. The UI is wherever the build puts it: extension frames in a closed shadow
// root (this build), or an open shadow root (an older build, `BENCH_CAPTURE_BASE=<its .output/chrome-mv3>`, measured
// in the same run, interleaved, as the peer: ratios printed). Used by run.mjs (BENCH_ONLY=capture); `node
// scripts/bench/page/capture.mjs` runs it alone.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { EXTENSION_DIR } from '../harness/build.mjs';
import { launch } from '../harness/extension.mjs';
import { goal, runAlone } from '../harness/harness.mjs';
import { median } from '../harness/stats.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const ROUNDS = QUICK ? 3 : 7;
const BASE = process.env.BENCH_CAPTURE_BASE ? path.resolve(process.env.BENCH_CAPTURE_BASE) : null;
const URL = 'http://fixtures.test/capture-bench';
const PASSAGE = 'Zeta-9 was post-trained with GRPO on verifiable math rewards, then with RLHF for helpfulness.';
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Zeta-9 model card</title></head><body><main>
<h1>Zeta-9 model card</h1>${'<p>Filler paragraph about the model card, its evaluation and its license terms.</p>'.repeat(40)}
<p id="target">${PASSAGE}</p>${'<p>More filler text after the passage, as a model card would have.</p>'.repeat(40)}</main></body></html>`;

/** Every content script of a build: name, raw and gzipped bytes. */
function scripts(dir) {
  const folder = path.join(dir, 'content-scripts');
  return ['claims', 'paint', 'capture'].map((name) => {
    const file = path.join(folder, `${name}.js`);
    if (!existsSync(file)) return { name, bytes: 0, gzip: 0 };
    return { name, bytes: statSync(file).size, gzip: gzipSync(readFileSync(file)).length };
  });
}

/** The element `selector` of the capture UI, in its frames or its open shadow root: its box in the page's viewport, or null. */
async function uiBox(tab, selector) {
  for (const frame of tab.frames()) {
    if (!frame.url().includes('/capture-ui.html#part=')) continue;
    const box = await frame
      .locator(selector)
      .boundingBox({ timeout: 50 })
      .catch(() => null);
    if (box) return box;
  }
  return tab
    .locator(`recipe-lens-ui ${selector}`)
    .boundingBox({ timeout: 50 })
    .catch(() => null);
}

/** Polls until the UI shows `selector`; returns the ms from `since` (performance.now() of this process) and its box. */
async function shown(tab, selector, since, timeout = 15_000) {
  for (;;) {
    const box = await uiBox(tab, selector);
    if (box && box.width > 0 && box.height > 0) return { ms: performance.now() - since, box };
    if (performance.now() - since > timeout) throw new Error(`${selector} never showed`);
  }
}

/** One round in a build's browser: a fresh page, the passage selected, the toolbar, a click, the form. */
async function round(context) {
  const tab = await context.newPage();
  await tab.goto(URL);
  await tab.evaluate(() => {
    const p = document.getElementById('target');
    p.scrollIntoView({ block: 'center' });
    const range = document.createRange();
    range.selectNodeContents(p);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    // A build that still listens for a script's pointerup gets one too; this build ignores it and takes the key.
    document.dispatchEvent(new PointerEvent('pointerup', { bubbles: true }));
  });
  const selected = performance.now();
  await tab.keyboard.press('Shift');
  const toolbar = await shown(tab, '[data-testid=toolbar-tag]', selected);
  const clicked = performance.now();
  await tab.mouse.click(toolbar.box.x + toolbar.box.width / 2, toolbar.box.y + toolbar.box.height / 2);
  const form = await shown(tab, '[data-testid=claim-form]', clicked);
  await tab.close();
  return { toolbar: toolbar.ms, form: form.ms };
}

/** Runs the capture benchmark: this build and, when given, the older one, interleaved round by round. */
export async function benchCapture({ log = console.log }) {
  const builds = [{ label: 'this build', dir: EXTENSION_DIR }];
  if (BASE) builds.push({ label: 'the base build', dir: BASE });
  const pages = new Map([[URL, PAGE]]);
  const browsers = [];
  for (const build of builds) browsers.push({ ...build, browser: await launch({ extension: true, pages, extensionDir: build.dir }), runs: [] });
  try {
    for (let i = 0; i < ROUNDS + 1; i++) {
      const order = i % 2 ? [...browsers].reverse() : browsers;
      // The first round warms each browser (its first capture script and frame); it is not counted.
      for (const b of order) {
        const r = await round(b.browser.context);
        if (i > 0) b.runs.push(r);
      }
    }
  } finally {
    for (const b of browsers) await b.browser.close();
  }
  const result = {};
  for (const b of browsers) {
    const toolbar = median(b.runs.map((r) => r.toolbar));
    const form = median(b.runs.map((r) => r.form));
    const sizes = scripts(b.dir);
    result[b.label] = { toolbar, form, runs: b.runs, sizes };
    log(
      `${b.label}: selection → toolbar ${toolbar.toFixed(0)} ms, click → form ${form.toFixed(0)} ms (medians of ${b.runs.length}; click → form ${b.runs.map((r) => r.form.toFixed(0)).join(', ')}); ${sizes.map((s) => `${s.name}.js ${(s.bytes / 1024).toFixed(1)} KiB (${(s.gzip / 1024).toFixed(1)} KiB gzipped)`).join(', ')}`,
    );
  }
  if (BASE) {
    const a = result['this build'];
    const b = result['the base build'];
    log(
      `ratios this/base: click → form ${(a.form / b.form).toFixed(2)}, selection → toolbar ${(a.toolbar / b.toolbar).toFixed(2)}, claims.js ${(a.sizes[0].bytes / b.sizes[0].bytes).toFixed(2)}`,
    );
  }
  return result;
}

/** The goal lines: the form within 200 ms of the click, and a page script no larger than it was (12 KiB). */
export function captureGoals(result) {
  const a = result['this build'];
  const base = result['the base build'];
  const vs = base ? ` (the base build: ${base.form.toFixed(0)} ms; ratio ${(a.form / base.form).toFixed(2)})` : '';
  const claims = a.sizes.find((s) => s.name === 'claims');
  const baseClaims = base?.sizes.find((s) => s.name === 'claims');
  return [
    goal(
      'capture-click-to-form-200ms',
      a.form <= 200,
      `${a.form.toFixed(0)} ms from the click on "Tag as claim" to the form on screen${vs}, median of ${a.runs.length}`,
    ),
    goal(
      'page-script-not-larger',
      claims.bytes <= (baseClaims?.bytes ?? 12 * 1024),
      `claims.js ${(claims.bytes / 1024).toFixed(1)} KiB ≤ ${baseClaims ? `the base build's ${(baseClaims.bytes / 1024).toFixed(1)} KiB` : '12 KiB'}`,
    ),
  ];
}

await runAlone(import.meta.url, benchCapture, captureGoals, { browser: 'none' });
