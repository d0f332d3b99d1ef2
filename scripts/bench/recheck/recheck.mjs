// The recheck benchmark (issue 26; BENCH_ONLY=recheck, or `node scripts/bench/recheck/recheck.mjs` alone): lib/recheck on the
// public revision corpus (../shared/fixtures/revisions), through the path `survey recheck` takes once it has a page —
// each pair's new page parsed by linkedom, its claims (records.jsonl) rechecked with `recheckPage` — with each verdict
// judged against its passage's class (scripts/anchoring/recheck-judge.ts, as the unit test judges). Then the time per
// source in interleaved rounds beside the plain anchoring pass (`anchorAll` on the same page) as the peer, and the
// peak memory of a child process that rechecks the whole corpus once. No browser, no extension, no network.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { goal, runAlone } from '../harness/harness.mjs';
import { CONTENT_TYPE, loadRecheckCode, loadRecheckSources, recheckCorpus } from './recheck-corpus.mjs';
import { median, percentile } from '../harness/stats.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
/** Timed rounds over every source (after one warm-up round that is not kept). */
const ROUNDS = QUICK ? 3 : 10;

const ms = (x) => `${x.toFixed(1)} ms`;
const pct = (n, d) => `${d ? ((100 * n) / d).toFixed(1) : '0.0'}%`;

/**
 * Each source's times over `ROUNDS` interleaved rounds: the recheck (parse + `recheckPage`) and the peer (parse +
 * `anchorAll` on the page's body, with the same selectors), each on a page parsed for it; the two arms swap order every
 * source and every round, and each round starts one source further on. Returns per-source medians (ms).
 */
function timeSources(code, sources) {
  const samples = sources.map(() => ({ parse: [], recheck: [], anchoring: [], total: [] }));
  for (let round = -1; round < ROUNDS; round++) {
    for (let k = 0; k < sources.length; k++) {
      const i = (k + Math.max(round, 0)) % sources.length;
      const s = sources[i];
      for (const arm of (round + k) % 2 ? ['recheck', 'anchoring'] : ['anchoring', 'recheck']) {
        const t0 = performance.now();
        const doc = code.parsePage(s.html, CONTENT_TYPE);
        const t1 = performance.now();
        if (arm === 'recheck') code.recheckPage(s.url, doc, s.claims);
        else code.anchorAll(doc.body ?? doc.documentElement, s.selectors);
        const t2 = performance.now();
        if (round < 0) continue;
        samples[i].parse.push(t1 - t0);
        samples[i][arm].push(t2 - t1);
        if (arm === 'recheck') samples[i].total.push(t2 - t0);
      }
    }
  }
  return samples.map((x) => ({ parse: median(x.parse), recheck: median(x.recheck), anchoring: median(x.anchoring), total: median(x.total) }));
}

/** The whole corpus rechecked once in a child process (recheck-memory.mjs): its peak RSS. */
function peakMemory() {
  const run = spawnSync(process.execPath, [path.join(import.meta.dirname, 'recheck-memory.mjs')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (run.status !== 0) throw new Error(`recheck-memory.mjs failed: ${run.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1));
}

/** The suite's bench function (suites.mjs): verdicts judged, times per source with the peer's, peak memory. */
export async function benchRecheck({ log = console.log } = {}) {
  const code = await loadRecheckCode();
  const sources = loadRecheckSources(code);
  if (!sources) {
    log('recheck: ../shared/fixtures/revisions not found beside the repository, not measured');
    return { absent: true };
  }
  const claims = sources.reduce((n, s) => n + s.claims.length, 0);
  log(
    `${sources.length} sources (${claims} claims) of the revision corpus: each new page parsed by linkedom and rechecked with recheckPage, as survey recheck does (no network)`,
  );

  const { tally, candidates } = recheckCorpus(code, sources);
  const { same, edited, removed } = tally;
  log(
    `verdicts: same ${same.unchanged}/${same.total} unchanged; edited ${edited.onSpan}/${edited.total} edited on the expected span (${edited.edited} edited in all, ${edited.exactText} with exactly its text, ${edited.gone} gone); removed ${removed.gone}/${removed.total} gone (${removed.edited.length} edited${removed.edited.length ? `: ${removed.edited.join(', ')}` : ''}); ${tally.changed.calledUnchanged.length} of ${tally.changed.total} whose text changed called unchanged; ${candidates} new candidates`,
  );

  const perSource = timeSources(code, sources);
  const total = perSource.map((x) => x.total);
  const time = {
    rounds: ROUNDS,
    median: median(total),
    p95: percentile(total, 95),
    parseMedian: median(perSource.map((x) => x.parse)),
    recheckMedian: median(perSource.map((x) => x.recheck)),
    anchoringMedian: median(perSource.map((x) => x.anchoring)),
    ratioMedian: median(perSource.map((x) => x.recheck / x.anchoring)),
    ratioTotal: perSource.reduce((n, x) => n + x.recheck, 0) / perSource.reduce((n, x) => n + x.anchoring, 0),
  };
  log(
    `measured recheck-time-per-source: median ${ms(time.median)}, p95 ${ms(time.p95)} (parse + recheckPage, no fetch; each source's median over ${ROUNDS} interleaved rounds, then the median and p95 over the ${sources.length} sources; parse alone median ${ms(time.parseMedian)}, recheckPage alone ${ms(time.recheckMedian)})`,
  );
  log(
    `ratio time recheck/anchoring: ${time.ratioMedian.toFixed(2)} (median over sources of recheckPage / the plain anchorAll pass on the same parsed page, same rounds: ${ms(time.recheckMedian)} vs ${ms(time.anchoringMedian)} median; over the whole corpus ${time.ratioTotal.toFixed(2)}): what hidden-element removal, the verdicts and the new candidates add`,
  );

  const memory = peakMemory();
  const mb = (n) => `${(n / (1024 * 1024)).toFixed(0)} MB`;
  log(
    `measured recheck-peak-memory: ${mb(memory.peakRss)} peak RSS for the whole corpus (${memory.sources} sources, ${memory.claims} claims, rechecked once in a child process; process.resourceUsage().maxRSS), ${mb(memory.loadedRss)} of it already after loading the code, before the first page`,
  );
  return { sources: sources.length, claims, tally, candidates, time, perSource, memory };
}

/** The suite's goal lines, from its result (time and memory are measurement lines in its log: the issue sets them no threshold). */
export function recheckGoals(result) {
  const names = ['recheck-unchanged-100', 'recheck-edited-95', 'recheck-removed-95', 'recheck-unchanged-when-changed-0'];
  if (result.absent) return names.map((name) => goal(name, false, 'not measured: ../shared/fixtures/revisions not found'));
  const { same, edited, removed, changed } = result.tally;
  const wrong = changed.calledUnchanged;
  return [
    goal(names[0], same.total > 0 && same.unchanged === same.total, `${same.unchanged}/${same.total} same passages called unchanged`),
    goal(
      names[1],
      edited.total > 0 && edited.onSpan >= 0.95 * edited.total,
      `${edited.onSpan}/${edited.total} (${pct(edited.onSpan, edited.total)}) edited passages called edited with the new text on the expected span (≥ 50% overlap, the corpus README's rule), ${edited.exactText} of them exactly its text; ${edited.gone} called gone`,
    ),
    goal(
      names[2],
      removed.total > 0 && removed.gone >= 0.95 * removed.total,
      `${removed.gone}/${removed.total} (${pct(removed.gone, removed.total)}) removed passages called gone; ${removed.edited.length} called edited`,
    ),
    goal(
      names[3],
      wrong.length === 0,
      `${wrong.length} of the ${changed.total} passages whose text changed called unchanged${wrong.length ? `: ${wrong.join(', ')}` : ''}`,
    ),
  ];
}

await runAlone(import.meta.url, benchRecheck, recheckGoals, { browser: 'none', extension: false });
