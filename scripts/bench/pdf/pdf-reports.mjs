// Real-report benchmark (issue 18): the two technical reports in ../shared/fixtures/pdfs, as labs publish them.
// In the real viewer: the time to the first page on screen (a quick draw, then sharp), with pdf.js's engine cold and warm
// (3 interleaved openings each way) of each
// report. In Node, on the body text the viewer reads (lib/pdf's text model over pdf.js's runs): the claim finder's share of claim-worthy candidates in
// its top ten (hand judgments in tests/unit/fixtures/finder-judgments.json, by candidate key), the report's own-recipe
// sentences found among its candidates, and negated mentions offered as positive claims (the ground truth written by
// hand in tests/unit/fixtures/pdf-reports.json). Used by run.mjs (BENCH_ONLY=reports); `node scripts/bench/pdf/pdf-reports.mjs`
// runs it alone.
import { waitInPage } from '../harness/wait.mjs';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Window } from 'happy-dom';
import { engineCold } from '../harness/extension.mjs';
import { bundleForNode } from '../finder/finder.mjs';
import { runAlone } from '../harness/harness.mjs';
import { median } from '../harness/stats.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const PDFS = path.resolve(ROOT, '..', 'shared', 'fixtures', 'pdfs');
const TRUTH = path.join(ROOT, 'tests', 'unit', 'fixtures', 'pdf-reports.json');
const JUDGMENTS = path.join(ROOT, 'tests', 'unit', 'fixtures', 'finder-judgments.json');
/** Rounds per report, each a cold opening then a warm one. */
const ROUNDS = process.env.BENCH_QUICK === '1' ? 2 : 3;
const BASE = 'http://reports.bench.test/';
/** The issue's own examples of negated mentions (from reports not in the shared set), scored on their own too. */
const ISSUE_NEGATIONS = [
  [
    'We do not apply the outcome or process neural reward model, because we find that the neural reward model may suffer from reward hacking.',
    'model-based reward',
  ],
  [
    'We explore the potential of LLMs to develop reasoning capabilities without relying on human-annotated reasoning trajectories or process reward models.',
    'process reward',
  ],
  [
    'DeepSeek-R1-Zero, a model trained via large-scale reinforcement learning (RL) without supervised fine-tuning (SFT) as a preliminary step, demonstrates remarkable reasoning capabilities.',
    'SFT / Distillation',
  ],
];

/** The text model, source detection and the finder, bundled for Node as they ship in the extension. */
function loadLib() {
  return bundleForNode("export * from './lib/pdf/index.ts';\nexport * from './lib/finder/index.ts';");
}

/** A report's runs per page (pdf.js `getTextContent`, as the viewer keeps them) and its metadata. */
async function readReport(file) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const dist = path.join(ROOT, 'node_modules', 'pdfjs-dist');
  const doc = await getDocument({
    data: new Uint8Array(readFileSync(path.join(PDFS, file))),
    isEvalSupported: false,
    cMapUrl: `${dist}/cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${dist}/standard_fonts/`,
    verbosity: 0,
  }).promise;
  const pages = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(
      content.items.filter((i) => 'str' in i).map((i) => ({ str: i.str, hasEOL: i.hasEOL, transform: i.transform, width: i.width, fontName: i.fontName })),
    );
  }
  const info = (await doc.getMetadata()).info;
  await doc.destroy();
  return { pages, info };
}

/** The finder on one report's body text, against the hand judgments and the ground truth. */
function finderOnReport(lib, report, pages, info, judged) {
  const window = new Window();
  const document = window.document;
  const model = lib.PdfTextModel.build(pages, document);
  const source = lib.detectPdfSource({ url: report.url, info, lines: lib.linesOf(pages[0]), headings: [] }, '2026-12-01', document);
  const { candidates } = lib.findCandidates(model.text, { ...model.finderHints(), models: source.models });
  const top = lib.rankCandidates(candidates).slice(0, 10);
  const byKey = new Map(judged.map((j) => [j.key, j]));
  const worthy = top.filter((c) => byKey.get(c.key)?.worthy).length;
  const unjudged = top.filter((c) => !byKey.has(c.key)).length;
  const own = report.finder.own.filter((o) => candidates.some((c) => c.sentence.includes(o))).length;
  let negatedOffered = 0;
  for (const n of report.finder.negative) {
    for (const c of candidates) if (c.sentence.includes(n.opening) && c.polarity !== 'negative' && c.values.includes(n.value)) negatedOffered++;
  }
  window.happyDOM.close();
  return {
    file: report.file,
    candidates: candidates.length,
    top: top.length,
    worthy,
    unjudged,
    own,
    ownTotal: report.finder.own.length,
    negatives: report.finder.negative.length,
    negatedOffered,
    furniture: model.reading.furniture.length,
    hyphens: model.reading.hyphens.length,
  };
}

/**
 * The first page of each report in the real viewer (milliseconds from navigation): on screen (the quick canvas in its
 * page box and the frame showing it out), and sharp (the same for the full-density canvas). `ROUNDS` rounds per report,
 * each a cold opening (pdf.js's engine let go before it, as its keeper does ten idle minutes after the last viewer)
 * then a warm one (the engine booted and its code run, as a curator's next report finds it): cold and warm interleaved,
 * so a change of the machine's load falls on both alike (docs/pdf.md, "Opening fast").
 */
async function firstPages(context, extensionId, reports, log) {
  const serve = (route) => {
    const file = new URL(route.request().url()).pathname.slice(1);
    return route.fulfill({ status: 200, contentType: 'application/pdf', body: readFileSync(path.join(PDFS, file)) });
  };
  await context.route(`${BASE}**`, serve);
  const open = async (report) => {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/pdf-viewer.html?file=${encodeURIComponent(BASE + report.file)}`);
    await waitInPage(page, () => document.documentElement.dataset.pdfFirstPageSharpMs !== undefined, undefined, {
      timeout: 120_000,
      what: 'the first page drawn sharp',
    });
    const marks = await page.evaluate(() => {
      const at = (name) => Math.round(performance.getEntriesByName(`recipe-lens:${name}`)[0]?.startTime ?? Number.NaN);
      return {
        first: Number(document.documentElement.dataset.pdfFirstPageMs),
        sharp: Number(document.documentElement.dataset.pdfFirstPageSharpMs),
        entry: at('viewer-script'),
        app: at('viewer-app'),
        attached: at('viewer-attached'),
        pdfjs: at('pdfjs-loaded'),
        opened: at('pdfOpenedMs'),
        draw: at('first-draw-start'),
        canvas: at('first-canvas'),
      };
    });
    await page.close();
    return marks;
  };
  const out = [];
  try {
    for (const report of reports) {
      const cold = [];
      const warm = [];
      for (let i = 0; i < ROUNDS; i++) {
        await engineCold(context, extensionId);
        cold.push(await open(report));
        warm.push(await open(report));
      }
      const all = [...cold, ...warm];
      const figure = (runs, k) => median(runs.map((p) => p[k]));
      const list = (runs, k) => runs.map((p) => p[k]).join(', ');
      const phases = (runs) =>
        `viewer entry ${figure(runs, 'entry')} ms, pdf.js loaded ${figure(runs, 'pdfjs')} ms, viewer code ${figure(runs, 'app')} ms, ` +
        `viewer attached ${figure(runs, 'attached')} ms, document open ${figure(runs, 'opened')} ms, drawing from ${figure(runs, 'draw')} ms, ` +
        `quick canvas in place ${figure(runs, 'canvas')} ms`;
      const r = {
        file: report.file,
        coldMs: figure(cold, 'first'),
        coldRuns: cold.map((p) => p.first),
        warmMs: figure(warm, 'first'),
        warmRuns: warm.map((p) => p.first),
        coldSharpMs: figure(cold, 'sharp'),
        warmSharpMs: figure(warm, 'sharp'),
        firstPageMs: figure(all, 'first'),
        sharpMs: figure(all, 'sharp'),
        cold,
        warm,
      };
      out.push(r);
      log(
        `reports: ${report.file} first page with pdf.js's engine cold ${r.coldMs} ms (median of ${ROUNDS}: ${list(cold, 'first')}; sharp ${r.coldSharpMs} ms), ` +
          `warm ${r.warmMs} ms (median of ${ROUNDS}: ${list(warm, 'first')}; sharp ${r.warmSharpMs} ms), warm/cold ${(r.warmMs / r.coldMs).toFixed(2)}, interleaved`,
      );
      log(`  cold, medians: ${phases(cold)}`);
      log(`  warm, medians: ${phases(warm)}`);
    }
  } finally {
    await context.unroute(`${BASE}**`, serve);
  }
  return out;
}

/** Runs the real-report benchmark; null when ../shared/fixtures/pdfs is not beside the repository. */
export async function benchReports({ context, extensionId, log = console.log }) {
  if (!existsSync(PDFS)) {
    log('reports: ../shared/fixtures/pdfs not found beside the repository, not measured');
    return null;
  }
  const truth = JSON.parse(readFileSync(TRUTH, 'utf8')).reports;
  const judgments = JSON.parse(readFileSync(JUDGMENTS, 'utf8')).pages;
  // The first pages are timed before the finder's part, which runs in this process: after it, the viewer's code
  // loaded 100-300 ms later (medians 446-699 ms against 320-393 ms before it, in runs of 2026-12-02), the
  // benchmark's own work competing with the browser for the two cores.
  const first = await firstPages(context, extensionId, truth, log);
  const lib = await loadLib();
  const finder = [];
  for (const report of truth) {
    const { pages, info } = await readReport(report.file);
    const r = finderOnReport(lib, report, pages, info, judgments[`pdfs/${report.file}`] ?? []);
    finder.push(r);
    log(
      `reports: ${r.file}: ${r.furniture} furniture lines left out, ${r.hyphens} line-end hyphens decided; finder ${r.worthy}/${r.top} of the top ten claim-worthy` +
        `${r.unjudged ? ` (${r.unjudged} not judged)` : ''}, ${r.candidates} candidates, own-recipe sentences found ${r.own}/${r.ownTotal}, negated mentions offered as positive ${r.negatedOffered}/${r.negatives}`,
    );
  }
  let issueNegatedOffered = 0;
  for (const [sentence, value] of ISSUE_NEGATIONS) {
    for (const c of lib.findCandidates(sentence, { minScore: -100 }).candidates)
      if (c.polarity !== 'negative' && c.values.includes(value)) issueNegatedOffered++;
  }
  log(`reports: the issue's ${ISSUE_NEGATIONS.length} negated sentences offered as positive claims: ${issueNegatedOffered}`);
  return { finder, first, issueNegatedOffered, issueNegations: ISSUE_NEGATIONS.length };
}

/** The goal lines of the real-report benchmark (none when the reports were not found). */
export function reportsGoals(result) {
  if (!result) return [{ name: 'reports-suite', holds: false, figure: 'not measured: ../shared/fixtures/pdfs not found' }];
  const { finder, first } = result;
  const worst = Math.max(...first.flatMap((f) => [f.coldMs, f.warmMs]));
  const offered = finder.reduce((n, r) => n + r.negatedOffered, 0) + result.issueNegatedOffered;
  const negatives = finder.reduce((n, r) => n + r.negatives, 0) + result.issueNegations;
  return [
    {
      name: 'reports-first-page',
      holds: worst <= 1000,
      figure: `${first.map((f) => `${f.file} engine cold ${f.coldMs} ms, warm ${f.warmMs} ms (sharp ${f.coldSharpMs} / ${f.warmSharpMs} ms)`).join(', ')} ≤ 1000 ms from navigation to the first page on screen, cold and warm, drawn quickly at half density then sharpened (median of ${ROUNDS} openings each way, cold and warm interleaved)`,
    },
    {
      name: 'reports-finder-precision-top10',
      holds: finder.every((r) => r.top > 0 && r.worthy / r.top >= 0.5),
      figure: `${finder.map((r) => `${r.file} ${r.worthy}/${r.top}`).join(', ')} of the top-ten candidates claim-worthy (hand judgments; at least half each)`,
    },
    {
      name: 'reports-own-recipe-found',
      holds: finder.every((r) => r.own / r.ownTotal >= 0.8),
      figure: `${finder.map((r) => `${r.file} ${r.own}/${r.ownTotal}`).join(', ')} own-recipe sentences among the candidates (at least 80% each)`,
    },
    {
      name: 'reports-negations-as-positive-0',
      holds: offered === 0,
      figure: `${offered} of ${negatives} negated mentions (the reports' and the issue's) offered as positive claims`,
    },
  ];
}

await runAlone(import.meta.url, benchReports, reportsGoals);
