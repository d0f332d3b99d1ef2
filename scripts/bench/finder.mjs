// Claim-finder benchmark: findCandidates (lib/finder) on ~2 MB of synthetic page text — the
// arXiv-scale corpus of corpus.mjs, whose sentences nearly all name a taxonomy term, rendered to
// text roughly as the content script's text index would (inline tags vanish, blocks become
// spaces, white space collapses). The library is bundled with esbuild, as it ships in the
// extension. Used by run.mjs; `node scripts/bench/finder.mjs` runs it alone.
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { generatePage } from './corpus.mjs';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const TARGET_CHARS = 2_000_000;
const WARMUP = 5;
const RUNS = 25;

/** Elements whose boundaries read as white space in the rendered text. */
const BLOCK_TAG = /<\/?(?:p|div|h[1-6]|li|ul|ol|table|thead|tbody|tr|td|th|caption|pre|section|article|header|footer|nav|main|figure|figcaption|blockquote|br|hr)\b[^>]*>/gi;

/** The page's text as the text index would collapse it (an approximation good enough for timing). */
function renderText(html) {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(BLOCK_TAG, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Bundles lib/finder into an ES module and imports it. */
async function loadFinder() {
  const out = await esbuild.build({
    entryPoints: [path.join(ROOT, 'lib', 'finder', 'index.ts')],
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

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
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

/** The goal line of the finder benchmark. */
export function finderGoals(result) {
  return [
    {
      name: 'finder-2mb',
      holds: result.ms <= 50,
      figure: `median ${result.ms.toFixed(1)} ms ≤ 50 ms for findCandidates on ${(result.chars / 1e6).toFixed(2)} M chars (first call ${result.coldMs.toFixed(0)} ms)`,
    },
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const result = await benchFinder();
  for (const g of finderGoals(result)) console.log(`goal ${g.name}: ${g.holds ? 'holds' : 'misses'} (${g.figure})`);
}
