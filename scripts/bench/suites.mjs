// The benchmarks that run through the extension beside the anchoring one: the evidence panel, export and
// import, and the PDF viewer. Each runs in its own fresh browser profile (its own store) with the built
// extension loaded. Used by run.mjs; each module can also run alone (`node scripts/bench/panel.mjs`).
import path from 'node:path';
import { ensureExtensionBuilt } from './build.mjs';
import { launch } from './extension.mjs';

/** Runs `fn({ context, extensionId })` in a fresh browser with the extension, and closes it. */
export async function withExtension(fn) {
  const browser = await launch({ extension: true, pages: new Map() });
  try {
    return await fn({ context: browser.context, extensionId: browser.extensionId });
  } finally {
    await browser.close();
  }
}

/** Prints a suite's goal lines as run.mjs does. */
export function printGoals(goals, log = console.log) {
  for (const g of goals) log(`goal ${g.name}: ${g.holds ? 'holds' : 'misses'} (${g.figure})`);
}

/** The entry of a suite module run on its own: builds the extension if needed, runs the suite, prints its goals. */
export async function runAlone(moduleUrl, bench, goals) {
  if (!process.argv[1] || path.resolve(process.argv[1]) !== path.resolve(new URL(moduleUrl).pathname)) return;
  ensureExtensionBuilt();
  const result = await withExtension((ext) => bench({ ...ext, log: console.log }));
  printGoals(goals(result));
}

/** The suites run.mjs knows, by the name `BENCH_ONLY` uses. */
export const SUITES = {
  panel: async () => {
    const { benchPanel, panelGoals } = await import('./panel.mjs');
    return { bench: benchPanel, goals: panelGoals };
  },
  transfer: async () => {
    const { benchExport, exportGoals } = await import('./export.mjs');
    return { bench: benchExport, goals: exportGoals };
  },
  pdf: async () => {
    const { benchPdf, pdfGoals } = await import('./pdf.mjs');
    return { bench: benchPdf, goals: pdfGoals };
  },
  reports: async () => {
    const { benchReports, reportsGoals } = await import('./pdf-reports.mjs');
    return { bench: benchReports, goals: reportsGoals };
  },
  'real-revisions': async () => {
    const { benchRevisions, revisionsGoals } = await import('./revisions.mjs');
    return { bench: benchRevisions, goals: revisionsGoals };
  },
};

/**
 * Runs the named suites one after another; a suite that fails is reported as
 * a problem and its goals as not measured, and the others still run.
 */
export async function runSuites(names, log = console.log) {
  const results = {};
  const goals = [];
  const problems = [];
  for (const name of names) {
    const started = Date.now();
    log(`\n${name} benchmark`);
    const suite = await SUITES[name]();
    try {
      const result = await withExtension((ext) => suite.bench({ ...ext, log: (line) => log(`  ${line}`) }));
      results[name] = result;
      goals.push(...suite.goals(result));
      log(`  (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    } catch (error) {
      problems.push(`${name} benchmark failed: ${error instanceof Error ? error.message.split('\n')[0] : error}`);
      log(`  ${problems.at(-1)}`);
      goals.push({ name: `${name}-suite`, holds: false, figure: 'not measured: the suite failed' });
    }
  }
  return { results, goals, problems };
}
