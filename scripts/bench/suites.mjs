// Every benchmark suite `npm run bench` knows, by the name `BENCH_ONLY` picks it by, in the order they
// run. A suite is a module exporting a bench function and a goals function (result → goal lines, see
// harness/harness.mjs). The bench function gets `{ context, extensionId, log }` in a fresh browser with the
// extension, or `{ log }` alone with `browser: 'none'` (it launches what it needs); `extension: false`
// marks a suite that never loads the extension (it is not built for it). Registering a suite is one line
// below. Suite modules import harness/harness.mjs, never this file, and are imported only when they run.
import { goal, runSuite } from './harness/harness.mjs';

/** A suite entry: its module (relative to this folder), the names of its bench and goals exports, options. */
const suite = (module, bench, goals, options = {}) => ({ module, bench, goals, ...options });

/** The suites, by name, in the order a full run takes them. */
export const SUITES = {
  anchoring: suite('./anchoring/anchoring.mjs', 'benchAnchoring', 'anchoringGoals', { browser: 'none', extension: false }),
  'page-load': suite('./page/page-load.mjs', 'benchPageLoad', 'pageLoadGoals', { browser: 'none' }),
  capture: suite('./page/capture.mjs', 'benchCapture', 'captureGoals', { browser: 'none' }),
  'long-tasks': suite('./page/long-tasks.mjs', 'benchLongTasks', 'longTaskGoals', { browser: 'none' }),
  highlights: suite('./page/highlights.mjs', 'benchHighlights', 'highlightGoals', { browser: 'none', extension: false }),
  panel: suite('./panel-transfer/panel.mjs', 'benchPanel', 'panelGoals'),
  transfer: suite('./panel-transfer/export.mjs', 'benchExport', 'exportGoals'),
  pdf: suite('./pdf/pdf.mjs', 'benchPdf', 'pdfGoals'),
  memory: suite('./page/memory.mjs', 'benchMemory', 'memoryGoals', { browser: 'none' }),
  scaling: suite('./page/scaling.mjs', 'benchScaling', 'scalingGoals', { browser: 'none' }),
  finder: suite('./finder/finder.mjs', 'benchFinderSuite', 'finderSuiteGoals', { browser: 'none', extension: false }),
  reports: suite('./pdf/pdf-reports.mjs', 'benchReports', 'reportsGoals'),
  'real-revisions': suite('./anchoring/revisions.mjs', 'benchRevisions', 'revisionsGoals'),
  dataset: suite('./dataset/dataset.mjs', 'benchDataset', 'datasetGoals', { browser: 'none', extension: false }),
  recheck: suite('./recheck/recheck.mjs', 'benchRecheck', 'recheckGoals', { browser: 'none', extension: false }),
};

/** Loads a registered suite's module and returns its bench and goals functions with its options. */
export async function loadSuite(name) {
  const entry = SUITES[name];
  if (!entry) throw new Error(`no benchmark suite named ${name} (known: ${Object.keys(SUITES).join(', ')})`);
  const mod = await import(new URL(entry.module, import.meta.url).href);
  const bench = mod[entry.bench];
  const goals = mod[entry.goals];
  if (typeof bench !== 'function' || typeof goals !== 'function') throw new Error(`${entry.module} must export ${entry.bench} and ${entry.goals}`);
  return { bench, goals, browser: entry.browser ?? 'extension', extension: entry.extension !== false };
}

/** Why a suite failed, in one line: the error's first non-empty line of message (its name when it has none). */
function failure(error) {
  if (!(error instanceof Error)) return String(error);
  const line = error.message.split('\n').find((l) => l.trim());
  return line ? line.trim() : error.name;
}

/**
 * Runs the named suites one after another; a suite that fails is reported as a problem (its name and why) and
 * its goals as not measured (why included), and the others still run. Each suite's result keeps the load at
 * its start and end and its wall time (`seconds`), which the log shows after it, failed or not.
 */
export async function runSuites(names, log = console.log) {
  const results = {};
  const goals = [];
  const problems = [];
  for (const name of names) {
    const started = Date.now();
    const seconds = () => Math.round((Date.now() - started) / 1000);
    log(`\n${name} benchmark`);
    try {
      const run = await runSuite(await loadSuite(name), (line) => log(`  ${line}`));
      results[name] = { ...run.result, load: run.load, seconds: seconds() };
      goals.push(...run.goals);
      log(`  (${name}: ${seconds()} s; load average ${run.load.start.toFixed(1)} → ${run.load.end.toFixed(1)})`);
    } catch (error) {
      const why = failure(error);
      results[name] = { failed: why, seconds: seconds() };
      problems.push(`${name} suite failed after ${seconds()} s: ${why}`);
      log(`  ${problems.at(-1)}`);
      const frames = String(error?.stack ?? '')
        .split('\n')
        .filter((line) => line.trim().startsWith('at '));
      for (const frame of frames.slice(0, 3)) log(`    ${frame.trim()}`);
      goals.push(goal(`${name}-suite`, false, `not measured: the suite failed: ${why}`));
    }
  }
  return { results, goals, problems };
}
