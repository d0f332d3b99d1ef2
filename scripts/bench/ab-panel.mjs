// A/B of the evidence panel's first paint between two unpacked builds loaded side by side in one
// Chromium: the same 10,000 claims / 500 models imported into each, then the panel of each opened in
// interleaved rounds (A, B, B, A, …) on a warm worker, and on the first open after every service worker
// was stopped — so the machine's load falls on both alike. Prints each build's median and quartiles and
// the median of the per-round ratios B/A. A development tool, not a suite:
//   AB_BASE_DIR=<unpacked build> [AB_ROUNDS=12] node scripts/bench/ab-panel.mjs
// (B is this worktree's build, `.output/chrome-mv3` or RECIPE_LENS_OUT.)
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { EXTENSION_DIR } from './build.mjs';
import { CHROMIUM_FLAGS, chromiumPath, extensionFlags } from '../browsers.mjs';
import { importThroughOptions } from './extension.mjs';
import { describeLoad, noteLoad } from './harness.mjs';
import { openPanel } from './panel.mjs';
import { generateStore } from './records.mjs';
import { median, quartiles } from './stats.mjs';
import { stopServiceWorker } from './store.mjs';

const BASE_DIR = process.env.AB_BASE_DIR;
if (!BASE_DIR) throw new Error('AB_BASE_DIR must name the unpacked build to compare with (e.g. a build of main)');
const ROUNDS = Number(process.env.AB_ROUNDS ?? 12);

/** Copies of both builds in one scratch folder (their paths give them distinct extension ids). */
function copies() {
  const dir = mkdtempSync(path.join(tmpdir(), 'recipe-lens-ab-'));
  const a = path.join(dir, 'a');
  const b = path.join(dir, 'b');
  cpSync(BASE_DIR, a, { recursive: true });
  cpSync(EXTENSION_DIR, b, { recursive: true });
  return { dir, a, b };
}

/** The extension ids of the loaded builds, by folder. */
async function extensionIds(context, count) {
  const deadline = Date.now() + 30_000;
  while (context.serviceWorkers().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return context.serviceWorkers().map((w) => new URL(w.url()).host);
}

const load = noteLoad();
const { dir, a, b } = copies();
const userDataDir = mkdtempSync(path.join(tmpdir(), 'recipe-lens-ab-profile-'));
const context = await chromium.launchPersistentContext(userDataDir, {
  executablePath: chromiumPath(),
  headless: true,
  args: [...extensionFlags(a, b), ...CHROMIUM_FLAGS],
});
try {
  const ids = await extensionIds(context, 2);
  const byBuild = await identify(context, ids, b);
  const jsonl = generateStore();
  for (const [name, id] of Object.entries(byBuild)) console.log(`${name}: imported (${await importThroughOptions(context, id, 'bench.jsonl', jsonl)})`);
  const warm = { A: [], B: [] };
  const cold = { A: [], B: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? ['B', 'A'] : ['A', 'B'];
    for (const name of order) {
      const { panel, firstRowMs } = await openPanel(context, byBuild[name]);
      warm[name].push(firstRowMs);
      await panel.close();
    }
    for (const name of order) {
      const blank = await context.newPage();
      await stopServiceWorker(context, blank);
      await blank.close();
      const { panel, firstRowMs } = await openPanel(context, byBuild[name]);
      cold[name].push(firstRowMs);
      await panel.close();
    }
  }
  for (const [label, runs] of [
    ['warm', warm],
    ['first open after the worker starts', cold],
  ]) {
    const ratios = runs.A.map((v, i) => runs.B[i] / v);
    const q = (xs) => {
      const { q1, q3 } = quartiles(xs);
      return `${q1.toFixed(0)}–${q3.toFixed(0)}`;
    };
    console.log(
      `panel first paint, ${label}: A (base) median ${median(runs.A).toFixed(0)} ms (quartiles ${q(runs.A)}), B (this build) ${median(runs.B).toFixed(0)} ms (quartiles ${q(runs.B)}); median ratio B/A ${median(ratios).toFixed(2)} over ${ROUNDS} rounds`,
    );
  }
} finally {
  await context.close();
  rmSync(userDataDir, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
  console.log(describeLoad(load()));
}

/** Maps 'A' and 'B' to extension ids: B is the one whose side panel page is this build's (its chunks' hashed names differ). */
async function identify(context, ids, bDir) {
  const bPage = readFileSync(path.join(bDir, 'sidepanel.html'), 'utf8');
  const page = await context.newPage();
  const out = {};
  for (const id of ids) {
    await page.goto(`chrome-extension://${id}/manifest.json`);
    const text = await page.evaluate(async (u) => (await fetch(u)).text(), `chrome-extension://${id}/sidepanel.html`);
    out[text === bPage ? 'B' : 'A'] = id;
  }
  await page.close();
  if (!out.A || !out.B) throw new Error('could not tell the two builds apart (the same side panel page)');
  return out;
}
