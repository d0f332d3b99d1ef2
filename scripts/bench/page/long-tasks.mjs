// Long tasks on a ~2 MB page while the extension anchors and paints 500 claims (an open tab, and a fresh
// load with them stored), traced on the page's main thread; in the same run, the Hypothesis-style peer
// on the same page (for the "painted within 0.02 × the peer's time" goal) and our library alone (async
// anchoring plus painting, no extension). Also the sizes of the content-script bundles. Used by run.mjs
// (BENCH_ONLY=long-tasks); `node scripts/bench/page/long-tasks.mjs` runs it alone.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bigPage, claimsOn, onPlainPage } from '../harness/bigpage.mjs';
import { ROOT } from '../harness/build.mjs';
import { bundleSize, longTasks, summarize, traceMainThread } from '../harness/extension.mjs';
import { goal, runAlone } from '../harness/harness.mjs';

/** The Hypothesis-style peer runs on every STRIDE-th passage within BUDGET_MS; its page time is extrapolated. */
const STRIDE = process.env.BENCH_QUICK === '1' ? 6 : 3;
const BUDGET_MS = 30_000;

/** In a plain Chromium: the Hypothesis-style peer's time for the whole page, and our library's async API plus painting under a trace. */
async function withoutExtension(page, log) {
  return onPlainPage(page, async ({ context, tab }) => {
    await tab.evaluate(() => globalThis.RLBench.expect());
    const peer = await tab.evaluate(([budget, stride]) => globalThis.RLBench.run('hypothesis', 'stored', budget, stride), [BUDGET_MS, STRIDE]);
    const passages = page.passages.length;
    const hypothesisPageMs = peer.attempted ? (peer.ms * passages) / peer.attempted : null;
    log(
      `Hypothesis-style peer on the same page: ${peer.attempted} of ${passages} passages (every ${STRIDE}${STRIDE === 3 ? 'rd' : 'th'}) in ${peer.ms.toFixed(0)} ms, ${hypothesisPageMs?.toFixed(0)} ms for the page (extrapolated)`,
    );
    const traced = await traceMainThread(context, tab, page.url, () => tab.evaluate(() => globalThis.RLBench.probeAsync(8)));
    const library = { ...traced.result, trace: summarize(traced.tasks) };
    log(
      `library alone (buildTextIndexAsync + anchorAllAsync in 8 ms slices + HighlightPainter): longest task ${library.trace.maxTaskMs.toFixed(0)} ms wall, ${library.trace.maxTaskCpuMs.toFixed(0)} ms CPU; ${library.anchored} painted ${(library.paintedAtMs / 1000).toFixed(1)} s after the start`,
    );
    return { hypothesis: { ms: peer.ms, attempted: peer.attempted, pageMs: hypothesisPageMs, right: peer.counts.right }, library };
  });
}

/** Runs the long-task benchmark; returns the scenarios' traces, the peer's time and the bundle sizes. */
export async function benchLongTasks({ log = console.log }) {
  const page = await bigPage({ seed: 1, passages: 500 });
  const { jsonl, count } = claimsOn(page, page.passages.length);
  // Kept for looking into the long tasks alone (see docs/benchmarks.md).
  const results = path.join(ROOT, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  writeFileSync(path.join(results, 'long-task-claims.jsonl'), jsonl);
  log(`${count} claims on ${page.url} (${page.right} of them anchored right by the library on the unedited page)`);
  const plain = await withoutExtension(page, log);
  const tasks = await longTasks({ url: page.url, pages: new Map([[page.url, page.html]]), jsonl, expected: page.right, log });
  const claims = bundleSize('claims');
  const paint = bundleSize('paint');
  const capture = bundleSize('capture');
  const kib = (b) => `${b.file} ${(b.bytes / 1024).toFixed(1)} KiB, ${(b.gzipBytes / 1024).toFixed(1)} KiB gzipped`;
  if (claims) log(`content-script bundle on every page: ${kib(claims)}`);
  if (paint) log(`painting script, injected where claims are stored (the only one of the two this scenario runs): ${kib(paint)}`);
  if (capture) log(`capture script, injected on the curator's first interaction: ${kib(capture)}`);
  return { url: page.url, claims: count, expected: page.right, ...plain, tasks, bundle: claims, paintBundle: paint, captureBundle: capture };
}

/** The page's first frame after DOMContentLoaded, as a figure. */
function frameMs(load) {
  const ms = load?.firstFrameAfterDomContentLoadedMs;
  return ms === null || ms === undefined ? '(not measured)' : `${ms.toFixed(0)} ms`;
}

/** The goal lines of the long-task benchmark. */
export function longTaskGoals(result) {
  const lt = result.tasks.openTab;
  const lib = result.library.trace;
  const fresh = result.tasks.freshLoad;
  const peerMs = result.hypothesis.pageMs;
  const after = fresh.paintedAfterDomContentLoadedMs;
  const ratio = after === null || !peerMs ? null : after / peerMs;
  return [
    goal(
      'no-long-task-over-50ms',
      lt.maxTaskMs <= 50 && lt.painted >= lt.expected,
      `longest main-thread task ${lt.maxTaskMs.toFixed(0)} ms wall (${lt.maxTaskCpuMs.toFixed(0)} ms CPU) while the extension anchored and painted ${lt.painted}/${lt.expected} claims in an open tab; the library's async API plus painting alone: ${lib.maxTaskMs.toFixed(0)} ms wall (${lib.maxTaskCpuMs.toFixed(0)} ms CPU)`,
    ),
    goal(
      'big-page-painted-0.02-of-hypothesis',
      ratio !== null && ratio <= 0.02 && fresh.painted >= fresh.expected,
      ratio === null
        ? `not measured: ${fresh.painted}/${fresh.expected} painted on a fresh load`
        : `${ratio.toFixed(3)} × the Hypothesis-style matcher: ${fresh.painted}/${fresh.expected} painted ${after.toFixed(0)} ms after DOMContentLoaded on a fresh load of the 2 MB page vs ${peerMs.toFixed(0)} ms for the peer on the same page in the same run (extrapolated from every ${STRIDE}${STRIDE === 3 ? 'rd' : 'th'} passage); the page's own first frame after DOMContentLoaded is out ${frameMs(result.tasks.withoutExtension)} after it without the extension, ${frameMs(fresh)} with it`,
    ),
  ];
}

await runAlone(import.meta.url, benchLongTasks, longTaskGoals, { browser: 'none' });
