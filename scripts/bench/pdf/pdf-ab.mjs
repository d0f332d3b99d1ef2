// A/B of the PDF viewer's first page on the two real reports (../shared/fixtures/pdfs) between two unpacked
// builds, each in its own Chromium, opened in interleaved rounds (A then B, report by report) so the machine's
// load falls on both alike. For each build and report: the median moment the first canvas was put in its page box
// (`first-canvas`; a build without that mark: `pdfFirstPageMs`, which it took at that moment), the median first page
// on screen (`pdfFirstPageMs`) and the medians of the other marks. A development tool, not a suite:
//   AB_BASE_DIR=<unpacked build> [AB_ROUNDS=7] [AB_COLD=1] node scripts/bench/pdf/pdf-ab.mjs
// (B is this worktree's build, `.output/chrome-mv3` or RECIPE_LENS_OUT.) AB_COLD=1 lets each build's pdf.js engine go
// before every opening, so every opening boots it cold (the first report of a browser session); by default a build
// that keeps its engine finds it warm after its first opening.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EXTENSION_DIR } from '../harness/build.mjs';
import { engineCold, launch } from '../harness/extension.mjs';
import { describeLoad, noteLoad } from '../harness/harness.mjs';
import { median } from '../harness/stats.mjs';

const BASE_DIR = process.env.AB_BASE_DIR;
if (!BASE_DIR) throw new Error('AB_BASE_DIR must name the unpacked build to compare with (e.g. a build of main)');
const ROUNDS = Number(process.env.AB_ROUNDS ?? 7);
const COLD = process.env.AB_COLD === '1';
const PDFS = path.resolve(import.meta.dirname, '..', '..', '..', '..', 'shared', 'fixtures', 'pdfs');
const BASE = 'http://reports.bench.test/';
const REPORTS = ['qwen3-technical-report.pdf', 'areal-paper.pdf'];
if (!existsSync(PDFS)) throw new Error('../shared/fixtures/pdfs is not beside the repository');

/** Opens a report in a build's viewer and reads its marks (milliseconds from navigation) once the first page is on screen (and sharp, where the build says). */
async function open(browser, file) {
  const page = await browser.context.newPage();
  await page.goto(`chrome-extension://${browser.extensionId}/pdf-viewer.html?file=${encodeURIComponent(BASE + file)}`);
  await page.waitForFunction(
    () => {
      const d = document.documentElement.dataset;
      const twoStep = performance.getEntriesByName('recipe-lens:viewer-app').length > 0;
      return d.pdfFirstPageMs !== undefined && (!twoStep || d.pdfFirstPageSharpMs !== undefined);
    },
    null,
    { timeout: 120_000 },
  );
  const marks = await page.evaluate(() => {
    const out = {};
    for (const entry of performance.getEntriesByType('mark')) {
      if (entry.name.startsWith('recipe-lens:')) out[entry.name.slice('recipe-lens:'.length)] ??= Math.round(entry.startTime);
    }
    out.shown = Number(document.documentElement.dataset.pdfFirstPageMs);
    out.canvas = out['first-canvas'] ?? out.shown;
    return out;
  });
  await page.close();
  return marks;
}

const load = noteLoad();
const builds = [];
for (const [name, dir] of [
  ['A', BASE_DIR],
  ['B', EXTENSION_DIR],
]) {
  const browser = await launch({ extension: true, pages: new Map(), extensionDir: dir });
  await browser.context.route(`${BASE}**`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/pdf', body: readFileSync(path.join(PDFS, new URL(route.request().url()).pathname.slice(1))) }),
  );
  builds.push({ name, dir, browser, runs: Object.fromEntries(REPORTS.map((r) => [r, []])) });
}
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const file of REPORTS) {
      for (const build of builds) {
        if (COLD) await engineCold(build.browser.context, build.browser.extensionId);
        build.runs[file].push(await open(build.browser, file));
      }
    }
  }
} finally {
  for (const build of builds) await build.browser.close();
}
for (const build of builds) {
  for (const file of REPORTS) {
    const runs = build.runs[file];
    const keys = [...new Set(runs.flatMap((r) => Object.keys(r)))].filter((k) => k !== 'shown' && k !== 'canvas');
    const m = (k) => median(runs.map((r) => r[k]).filter((v) => Number.isFinite(v)));
    console.log(
      `${build.name} ${file}: canvas in place ${m('canvas')} ms (${runs.map((r) => r.canvas).join(', ')}), on screen ${m('shown')} ms; medians: ${keys.map((k) => `${k} ${m(k)}`).join(', ')}`,
    );
  }
}
const shown = (build, file) => median(build.runs[file].map((r) => r.shown));
for (const file of REPORTS) {
  const [a, b] = builds;
  console.log(`${file}: on screen B/A ${(shown(b, file) / shown(a, file)).toFixed(2)} (${shown(b, file)} vs ${shown(a, file)} ms, medians)`);
}
console.log(`A = ${BASE_DIR}, B = ${EXTENSION_DIR}; ${ROUNDS} rounds${COLD ? ', the engine let go before every opening' : ''}; ${describeLoad(load())}`);
