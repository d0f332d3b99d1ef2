// Highlights on the ~2 MB page, in a plain Chromium (no extension): what the browser's style and paint
// work costs when the anchored passages' highlights appear — all at once in one Highlight per kind (as
// the capture script paints today), spread over more Highlights per kind, or added in batches per
// animation frame (HighlightPainter.paintInBatches) — traced on the page's main thread: the longest task
// and what it was made of, and the time until every passage is drawn. Used by run.mjs
// (BENCH_ONLY=highlights); `node scripts/bench/page/highlights.mjs` runs it alone.
import { bigPage, onPlainPage } from '../harness/bigpage.mjs';
import { summarize, traceMainThread } from '../harness/extension.mjs';
import { runAlone } from '../harness/harness.mjs';
import { median } from '../harness/stats.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const ROUNDS = QUICK ? 2 : 3;
/** The ways of painting compared: all at once (one Highlight per kind, or `split` per kind), or `batch` ranges per frame. */
const STRATEGIES = [
  { label: 'all at once, one Highlight per kind', batch: null, split: 1 },
  { label: 'all at once, one Highlight per kind, underlined', batch: null, split: 1, styled: 'underlined' },
  { label: 'all at once, one Highlight per kind, on the root element', batch: null, split: 1, styled: 'root' },
  { label: 'all at once, one Highlight per kind, on the root element, underlined', batch: null, split: 1, styled: 'root-underlined' },
  { label: 'all at once, 4 Highlights per kind', batch: null, split: 4 },
  { label: 'all at once, 16 Highlights per kind', batch: null, split: 16 },
  { label: '200 ranges per frame', batch: 200, split: 1 },
  { label: '100 ranges per frame', batch: 100, split: 1 },
  { label: '50 ranges per frame', batch: 50, split: 1 },
  { label: '25 ranges per frame', batch: 25, split: 1 },
];

/** Runs the highlight benchmark; returns per strategy the median longest task (wall and CPU), the time to drawn and the longest task's parts. */
export async function benchHighlights({ log = console.log }) {
  const page = await bigPage({ seed: 1, passages: 500 });
  return onPlainPage(page, async ({ context, tab }) => {
    const anchored = await tab.evaluate(() => globalThis.RLBench.anchorForPaint());
    // Every split's style rules are in before anything is traced (adding a stylesheet restyles the page).
    await tab.evaluate((n) => globalThis.RLBench.setupSplit(n), Math.max(...STRATEGIES.map((s) => s.split)));
    await tab.evaluate(() => globalThis.RLBench.clearProbe());
    const runs = new Map(STRATEGIES.map((s) => [s.label, []]));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...STRATEGIES].reverse() : STRATEGIES;
      for (const strategy of order) {
        const traced = await traceMainThread(context, tab, page.url, () => tab.evaluate((o) => globalThis.RLBench.paintProbe(o), strategy));
        const sum = summarize(traced.tasks);
        runs.get(strategy.label).push({ ...sum, ms: traced.result.ms });
        await tab.evaluate(() => globalThis.RLBench.clearProbe());
      }
    }
    const results = STRATEGIES.map((s) => {
      const rs = runs.get(s.label);
      const longest = rs.reduce((a, b) => (b.maxTaskMs > a.maxTaskMs ? b : a));
      return {
        ...s,
        maxTaskMs: median(rs.map((r) => r.maxTaskMs)),
        maxTaskCpuMs: median(rs.map((r) => r.maxTaskCpuMs)),
        paintedMs: median(rs.map((r) => r.ms)),
        parts: longest.longestParts[0] ?? null,
      };
    });
    log(`${anchored} passages anchored on ${page.url}; each way of painting them ${ROUNDS} times (medians):`);
    for (const r of results)
      log(
        `  ${r.label}: longest task ${r.maxTaskMs.toFixed(0)} ms wall (${r.maxTaskCpuMs.toFixed(0)} ms CPU), all drawn after ${r.paintedMs.toFixed(0)} ms${r.parts ? `; the longest of all runs: ${r.parts}` : ''}`,
      );
    return { anchored, rounds: ROUNDS, results };
  });
}

/** The highlight benchmark informs `no-long-task-over-50ms` (long-tasks.mjs) and the painter's batch size; it has no goal line of its own. */
export function highlightGoals() {
  return [];
}

await runAlone(import.meta.url, benchHighlights, highlightGoals, { browser: 'none', extension: false });
