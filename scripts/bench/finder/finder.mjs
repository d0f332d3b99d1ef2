// Claim-finder benchmark: findCandidates (lib/finder) on ~2 MB of synthetic page text — the
// arXiv-scale corpus of corpus.mjs, whose sentences nearly all name a taxonomy term, rendered to
// text roughly as the content script's text index would (inline tags vanish, blocks become
// spaces, white space collapses) — and its precision on the shared fixture pages
// (../shared/fixtures, beside the repository; skipped when absent): each page's text built by the
// content script's own text index (lib/anchoring, in happy-dom), the share of the top ten
// candidates judged claim-worthy in tests/unit/fixtures/finder-judgments.json, and how many curated
// records are among the candidates. The library is bundled with esbuild, as it ships in the
// extension. Used by run.mjs; `node scripts/bench/finder/finder.mjs` runs it alone.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { Window } from 'happy-dom';
import { generatePage, renderText } from '../harness/corpus.mjs';
import { runAlone } from '../harness/harness.mjs';
import { median } from '../harness/stats.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const TARGET_CHARS = 2_000_000;
const WARMUP = 5;
const RUNS = 25;

/** Bundles TypeScript modules of the repository (`contents`: export statements) into an ES module for Node, as they ship in the extension, and imports it. */
export async function bundleForNode(contents) {
  const out = await esbuild.build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = out.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

/** Bundles lib/finder (with the text index and model guessing the fixture figures need) into an ES module and imports it. */
async function loadFinder() {
  return bundleForNode(
    [
      "export * from './lib/finder/index.ts';",
      "export { buildTextIndex, normalizeQuoteText } from './lib/anchoring/index.ts';",
      "export { guessModels } from './lib/source/models.ts';",
    ].join('\n'),
  );
}

/**
 * Times findCandidates on ~2 MB of text: the first call (which also builds the matcher) and
 * the median of 25 calls after 5 warm-ups. Returns `{ ms }` (the median) and details; the log
 * line also gives the fastest call and the machine's load, as shared machines vary.
 */
export async function benchFinder({ log = console.log } = {}) {
  const finder = await loadFinder();
  const { html } = generatePage({ seed: 2026, targetChars: TARGET_CHARS, passages: 0, id: 'finder', title: 'Finder benchmark' });
  const text = renderText(html);
  const options = { models: ['Qwen3-235B-A22B', 'GLM-5', 'DeepSeek-R1'] };

  let t = performance.now();
  const first = finder.findCandidates(text, options);
  const coldMs = performance.now() - t;
  for (let i = 1; i < WARMUP; i++) finder.findCandidates(text, options);
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    finder.findCandidates(text, options);
    runs.push(performance.now() - t);
  }
  const ms = median(runs);
  const result = {
    ms,
    minMs: Math.min(...runs),
    coldMs,
    chars: text.length,
    candidates: first.candidates.length,
    mentions: finder.scanMentionList(text).count,
    load: os.loadavg()[0],
    cpus: os.cpus().length,
  };
  log(
    `finder: ${(text.length / 1e6).toFixed(2)} M chars, ${result.mentions} mentions, ${result.candidates} candidates returned; ` +
      `median ${ms.toFixed(1)} ms (min ${result.minMs.toFixed(1)} ms over ${RUNS} runs), first call ${coldMs.toFixed(1)} ms ` +
      `(load average ${result.load.toFixed(1)} on ${result.cpus} CPUs)`,
  );
  return result;
}

const SHARED = path.resolve(ROOT, '..', 'shared', 'fixtures');
const JUDGMENTS = path.join(ROOT, 'tests', 'unit', 'fixtures', 'finder-judgments.json');

/** Whether a candidate covers a record's quote (as tests/unit/finder/finder-fixtures.test.ts decides). */
function covers(text, c, exact) {
  const at = text.indexOf(exact);
  if (at < 0) return c.sentence.includes(exact) || exact.includes(c.sentence);
  const overlap = Math.min(c.end, at + exact.length) - Math.max(c.start, at);
  return overlap >= 0.8 * exact.length || (c.start >= at && c.end <= at + exact.length);
}

/**
 * The finder on each shared fixture page: the top ten candidates and how many of them the
 * hand judgments call claim-worthy (unjudged ones count as not), and the curated records found
 * among all candidates. Null when the shared fixtures are not beside the repository.
 */
export async function finderPrecision({ log = console.log, finder = null } = {}) {
  const pagesJson = path.join(SHARED, 'pages.json');
  if (!existsSync(pagesJson)) {
    log('finder precision: ../shared/fixtures not found beside the repository, not measured');
    return null;
  }
  const lib = finder ?? (await loadFinder());
  const judgments = JSON.parse(readFileSync(JUDGMENTS, 'utf8')).pages;
  const pages = [];
  for (const entry of JSON.parse(readFileSync(pagesJson, 'utf8'))) {
    const window = new Window({ url: entry.url });
    const document = new window.DOMParser().parseFromString(readFileSync(path.join(SHARED, entry.file), 'utf8'), 'text/html');
    const models = lib.guessModels(document, entry.url);
    const text = lib.buildTextIndex(document.body).text;
    const { candidates } = lib.findCandidates(text, { models });
    const top = lib.rankCandidates(candidates).slice(0, 10);
    const byKey = new Map((judgments[entry.file] ?? []).map((j) => [j.key, j]));
    const worthy = top.filter((c) => byKey.get(c.key)?.worthy).length;
    const unjudged = top.filter((c) => !byKey.has(c.key)).length;
    const quotes = entry.records
      ? readFileSync(path.join(SHARED, entry.records), 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l))
          .filter((r) => r.schema === 'rl-survey.claim/1' && r.quote)
          .map((r) => lib.normalizeQuoteText(r.quote.exact))
      : [];
    const found = quotes.filter((q) => candidates.some((c) => covers(text, c, q))).length;
    await window.happyDOM.close();
    const page = {
      file: entry.file,
      candidates: candidates.length,
      top: top.length,
      worthy,
      unjudged,
      records: quotes.length,
      found,
      hasRecords: !!entry.records,
    };
    pages.push(page);
    log(
      `finder precision ${path.basename(entry.file, '.html')}: ${worthy}/${top.length} of the top ${top.length} claim-worthy` +
        `${unjudged ? ` (${unjudged} not judged)` : ''}, ${candidates.length} candidates; records among them ${found}/${quotes.length}`,
    );
  }
  return { pages };
}

/**
 * The goal lines of the finder benchmark: the scan on ~2 MB within 50 ms, and (with the shared
 * fixtures) at least half of each page's top ten claim-worthy and every record among the
 * candidates — a page without records may instead return three or fewer candidates.
 */
export function finderGoals(result, precision = null) {
  const goals = [
    {
      name: 'finder-scan-50ms',
      holds: result.ms <= 50,
      figure: `median ${result.ms.toFixed(1)} ms ≤ 50 ms for findCandidates on ${(result.chars / 1e6).toFixed(2)} M chars (first call ${result.coldMs.toFixed(0)} ms)`,
    },
  ];
  if (precision) {
    const ok = (p) => (!p.hasRecords && p.top <= 3) || (p.top > 0 && p.worthy / p.top >= 0.5);
    const worthy = precision.pages.reduce((n, p) => n + p.worthy, 0);
    const top = precision.pages.reduce((n, p) => n + p.top, 0);
    const found = precision.pages.reduce((n, p) => n + p.found, 0);
    const records = precision.pages.reduce((n, p) => n + p.records, 0);
    goals.push({
      name: 'finder-precision-half-top10',
      holds: precision.pages.every(ok),
      figure: `${worthy}/${top} of the top-ten candidates claim-worthy over ${precision.pages.length} fixture pages (per page: ${precision.pages.map((p) => `${p.worthy}/${p.top}`).join(', ')})`,
    });
    goals.push({ name: 'finder-records-found', holds: found === records, figure: `${found}/${records} curated records among the candidates` });
  }
  return goals;
}

/** The whole finder benchmark (scan time, then precision on the fixtures): `{ scan, precision, goals }`. */
export async function runFinderBench({ log = console.log } = {}) {
  const scan = await benchFinder({ log });
  const precision = await finderPrecision({ log });
  return { scan, precision, goals: finderGoals(scan, precision) };
}

/** The finder as a suite of run.mjs (BENCH_ONLY=finder): the scan and the precision. */
export async function benchFinderSuite({ log = console.log } = {}) {
  return runFinderBench({ log });
}

/** The goal lines of the finder suite. */
export function finderSuiteGoals(result) {
  return result.goals;
}

await runAlone(import.meta.url, benchFinderSuite, finderSuiteGoals, { browser: 'none', extension: false });
