// Anchoring accuracy and speed, in real Chromium without the extension: our anchoring and three published
// peers on the same pages (the shared fixture pages and generated arXiv-scale pages), each unedited and
// edited in the live DOM, with known right answers (see docs/benchmarks.md). Used by run.mjs
// (BENCH_ONLY=anchoring); `node scripts/bench/anchoring/anchoring.mjs` runs it alone.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { bundlePageBench, ROOT } from '../harness/build.mjs';
import { generatePage } from '../harness/corpus.mjs';
import { CHROMIUM_FLAGS, chromiumPath } from '../../browsers.mjs';
import { goal, runAlone } from '../harness/harness.mjs';
import { median } from '../harness/stats.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
/** The shared fixture pages, beside the repository. */
export const SHARED = path.resolve(ROOT, '..', 'shared', 'fixtures');

/** Generated pages: ~2 MB of rendered text and 500 passages each. */
export const GENERATED = (QUICK ? [1] : [1, 2]).map((seed) => ({
  seed,
  name: `arxiv-${seed}`,
  url: `http://fixtures.test/bench/arxiv-${seed}`,
  title: `Scaling Reinforcement Learning for Reasoning Models (benchmark page ${seed})`,
  targetChars: 2_000_000,
  passages: 500,
}));
/** Random passages added on each shared fixture page (besides its curator records). */
const FIXTURE_RANDOM = 40;
/** The matchers, ours first. */
const MATCHERS = ['ours', 'hypothesis', 'text-quote', 'apache'];
/** Fuzzy peers (the speed goal compares against the fastest of them). */
const FUZZY_PEERS = ['hypothesis', 'text-quote'];
/** Labels used in the output. */
const LABEL = {
  ours: 'ours (lib/anchoring)',
  hypothesis: 'approx-string-match, Hypothesis-style scoring',
  'text-quote': 'dom-anchor-text-quote (diff-match-patch)',
  apache: '@apache-annotator/dom (exact)',
};
/** Per page variant, at most this long per peer before it stops (the rest is "not run"); generated pages get their own budget per peer. */
const PEER_BUDGET_MS = 60_000;
/** With BENCH_QUICK the peers get a tenth of that on the 2 MB page (the exact @apache-annotator a twentieth): fewer sampled passages, the same extrapolation. */
const GENERATED_BUDGET_MS = QUICK ? { hypothesis: 2_000, 'text-quote': 1_500, apache: 1_000 } : { hypothesis: 20_000, 'text-quote': 12_000, apache: 20_000 };
/**
 * On the 2 MB pages the peers run on a sample, every STRIDE-th passage (the
 * same passages for both), to keep the whole benchmark within minutes:
 * dom-anchor-text-quote takes ~0.5–1 s per passage there and the
 * Hypothesis-style matcher up to ~0.1 s. Their per-page time is extrapolated
 * from the sample; ours runs on every passage.
 */
const PEER_STRIDE = { hypothesis: 3, 'text-quote': 25, apache: 1 };

/** The shared fixture pages with their records (empty when the folder is absent). */
export function fixtures() {
  let pages;
  try {
    pages = JSON.parse(readFileSync(path.join(SHARED, 'pages.json'), 'utf8'));
  } catch {
    return [];
  }
  return pages.map((p, i) => ({
    name: p.url.replace('http://fixtures.test/', '').replace(/\/$/, ''),
    url: p.url,
    html: readFileSync(path.join(SHARED, p.file)),
    seed: 100 + i,
    records: p.records
      ? readFileSync(path.join(SHARED, p.records), 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l))
          .filter((r) => r.schema === 'rl-survey.claim/1')
          .map((r) => ({ id: r.id, quote: r.quote }))
      : [],
  }));
}

/** Runs one matcher on the page's current state. */
async function runMatcher(page, matcher, options) {
  return page.evaluate(([m, o]) => globalThis.RLBench.run(m, o.mode, o.budgetMs, o.stride), [matcher, options]);
}

/** Accuracy and speed of every matcher on one page, unedited and edited. */
async function benchPage(context, bundle, spec, apacheMissing, log, quiet = false) {
  const page = await context.newPage();
  await page.goto(spec.url, { waitUntil: 'load' });
  await page.addScriptTag({ content: bundle });
  const passages = await page.evaluate((o) => globalThis.RLBench.prepare(o), { seed: spec.seed, records: spec.records ?? [], random: spec.random ?? 0 });
  const out = { page: spec.name, url: spec.url, generated: !!spec.generated, passages: passages.length, variants: [] };
  for (const variant of ['unedited', 'edited']) {
    const edits = variant === 'edited' ? await page.evaluate((s) => globalThis.RLBench.edit(s), spec.seed + 7) : {};
    const truth = await page.evaluate(() => globalThis.RLBench.expect());
    if (truth.unchangedMismatch) log(`warning: ${truth.unchangedMismatch} passages changed text under an edit that should keep it`);
    const v = { variant, edits, truth, runs: {} };
    for (const matcher of MATCHERS) {
      if (matcher === 'apache' && apacheMissing) {
        v.runs[matcher] = { matcher, unavailable: apacheMissing };
        continue;
      }
      const stride = spec.generated && matcher !== 'ours' ? PEER_STRIDE[matcher] : 1;
      const repeats = matcher === 'ours' ? 3 : 1;
      const runs = [];
      const budgetMs = spec.generated && matcher !== 'ours' ? GENERATED_BUDGET_MS[matcher] : PEER_BUDGET_MS;
      for (let r = 0; r < repeats; r++) runs.push(await runMatcher(page, matcher, { mode: 'stored', budgetMs, stride }));
      runs.sort((a, b) => a.ms - b.ms);
      const res = runs[Math.floor(runs.length / 2)];
      res.pageMs = res.attempted ? (res.ms * passages.length) / res.attempted : null;
      res.extrapolated = res.attempted < passages.length;
      v.runs[matcher] = res;
      if (!spec.generated && matcher !== 'ours') {
        // Peers also with the selectors they would have stored themselves (textContent quote and context).
        const native = await runMatcher(page, matcher, { mode: 'native', budgetMs: PEER_BUDGET_MS, stride: 1 });
        v.runs[`${matcher}:native`] = native;
      }
    }
    out.variants.push(v);
    const o = v.runs.ours;
    if (!quiet)
      log(
        `${spec.name} ${variant}: ${passages.length} passages (${truth.deleted} deleted), ${truth.chars} chars; ours ${o.counts.right}/${o.counts.orphan}/${o.counts.wrong} right/orphan/wrong in ${o.ms.toFixed(0)} ms` +
          FUZZY_PEERS.map(
            (m) => `; ${m} ${fmtCounts(v.runs[m])} in ${(v.runs[m].pageMs ?? 0).toFixed(0)} ms${v.runs[m].extrapolated ? ' (extrapolated)' : ''}`,
          ).join('') +
          ` [${log.elapsed()}]`,
      );
  }
  await page.close();
  return { out, passages };
}

/** "right/orphan/wrong" of a run. */
function fmtCounts(r) {
  return r?.counts ? `${r.counts.right}/${r.counts.orphan}/${r.counts.wrong}` : 'n/a';
}

/** Totals of right/orphan/wrong for one matcher over the pages' variants of one kind. */
function totals(pages, matcher, variant) {
  const t = { right: 0, orphan: 0, wrong: 0, attempted: 0 };
  for (const p of pages) {
    for (const v of p.variants) {
      if (v.variant !== variant) continue;
      const r = v.runs[matcher];
      if (!r?.counts) continue;
      t.right += r.counts.right;
      t.orphan += r.counts.orphan;
      t.wrong += r.counts.wrong;
      t.attempted += r.counts.right + r.counts.orphan + r.counts.wrong;
    }
  }
  t.rightPct = t.attempted ? (100 * t.right) / t.attempted : NaN;
  return t;
}

/** Median per-page time of a matcher over every page variant (extrapolated where it ran on a sample). */
function medianTime(pages, matcher, filter = () => true) {
  const xs = [];
  for (const p of pages.filter(filter)) for (const v of p.variants) if (v.runs[matcher]?.pageMs) xs.push(v.runs[matcher].pageMs);
  return median(xs);
}

/** Percent with one decimal. */
const pct = (x) => `${x.toFixed(1)}%`;

/** Serves `pages` (url → html) to a browser context by request routing. */
export async function servePages(context, pages) {
  await context.route('http://fixtures.test/**', (route) => {
    const url = route.request().url().split('#')[0].split('?')[0];
    const body = pages.get(url) ?? pages.get(`${url}/`) ?? pages.get(url.replace(/\/$/, ''));
    return body === undefined
      ? route.fulfill({ status: 404, body: 'no such page' })
      : route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
  });
}

/** Runs the anchoring benchmark in a plain Chromium; returns every page's runs and the summary table. */
export async function benchAnchoring({ log = console.log }) {
  const started = Date.now();
  const say = Object.assign((line) => log(line), { elapsed: () => `${((Date.now() - started) / 1000).toFixed(0)} s` });
  const { code: bundle, apacheMissing } = await bundlePageBench();
  if (apacheMissing) log(`peer unavailable: @apache-annotator/dom cannot run: ${apacheMissing}`);

  // ── Corpus ──
  const fixturePages = fixtures();
  if (!fixturePages.length) log('shared fixtures not found: only generated pages are used');
  const generated = GENERATED.map((g) => {
    const made = generatePage({ seed: g.seed, targetChars: g.targetChars, passages: g.passages, id: g.name, title: g.title });
    return { ...g, generated: true, html: made.html };
  });
  const served = new Map();
  for (const f of fixturePages) served.set(f.url, f.html);
  for (const g of generated) served.set(g.url, g.html);
  log(
    `corpus: ${fixturePages.length} fixture pages, ${generated.length} generated pages (${generated.map((g) => `${(g.html.length / 1e6).toFixed(1)} MB HTML`).join(', ')}) [${say.elapsed()}]`,
  );

  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_FLAGS });
  const pages = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await servePages(context, served);
    // Warm-up (not measured): every matcher once on a fixture page, so JIT compilation is not billed to the first page.
    if (fixturePages.length) await benchPage(context, bundle, { ...fixturePages[0], random: 10 }, apacheMissing, say, true);
    for (const f of fixturePages) pages.push((await benchPage(context, bundle, { ...f, random: FIXTURE_RANDOM }, apacheMissing, say)).out);
    for (const g of generated) pages.push((await benchPage(context, bundle, g, apacheMissing, say)).out);
  } finally {
    await browser.close();
  }

  log('');
  log('Accuracy (right / orphan / wrong; edited pages: a deleted passage is right when orphaned):');
  const table = [];
  for (const m of [...MATCHERS, 'hypothesis:native', 'text-quote:native']) {
    const u = totals(pages, m, 'unedited');
    const e = totals(pages, m, 'edited');
    if (!u.attempted && !e.attempted) continue;
    const time = medianTime(pages, m);
    const bigTime = medianTime(pages, m, (p) => p.generated);
    table.push({ matcher: m, unedited: u, edited: e, medianPageMs: time, medianGeneratedPageMs: bigTime });
    log(
      `  ${(LABEL[m] ?? `${LABEL[m.split(':')[0]]}, own selectors (fixture pages only)`).padEnd(64)} unedited ${u.right}/${u.orphan}/${u.wrong} (${pct(u.rightPct)} right)  edited ${e.right}/${e.orphan}/${e.wrong} (${pct(e.rightPct)} right)  median ${Number.isFinite(time) ? time.toFixed(0) : '-'} ms/page (${Number.isFinite(bigTime) ? bigTime.toFixed(0) : '-'} ms on 2 MB pages)`,
    );
  }
  if (apacheMissing) log(`  ${LABEL.apache.padEnd(64)} not run: ${apacheMissing}`);
  const row = (m) => table.find((t) => t.matcher === m);
  const ours = row('ours');
  log('');
  for (const m of ['hypothesis', 'text-quote', 'apache']) {
    const peer = row(m);
    if (!peer) {
      log(`ratio time ours/${m}: n/a (${m} did not run: ${apacheMissing ?? 'no result'})`);
      log(`ratio right-on-edited ours/${m}: n/a`);
      continue;
    }
    log(
      `ratio time ours/${m}: ${(ours.medianPageMs / peer.medianPageMs).toFixed(3)} (median per page ${ours.medianPageMs.toFixed(0)} ms vs ${peer.medianPageMs.toFixed(0)} ms)`,
    );
    log(
      `ratio right-on-edited ours/${m}: ${(ours.edited.rightPct / peer.edited.rightPct).toFixed(2)} (${pct(ours.edited.rightPct)} vs ${pct(peer.edited.rightPct)}; wrong passages ${ours.edited.wrong} vs ${peer.edited.wrong})`,
    );
  }
  return { apacheMissing, pages, table };
}

/** The goal lines of the anchoring benchmark. */
export function anchoringGoals(result) {
  const row = (m) => result.table.find((t) => t.matcher === m);
  const ours = row('ours');
  const goals = [
    goal(
      'unedited-100-right',
      ours.unedited.right === ours.unedited.attempted,
      `${pct(ours.unedited.rightPct)} right, ${ours.unedited.right}/${ours.unedited.attempted}, ${ours.unedited.wrong} wrong`,
    ),
    goal(
      'edited-95-right-0-wrong',
      ours.edited.rightPct >= 95 && ours.edited.wrong === 0,
      `${pct(ours.edited.rightPct)} right, ${ours.edited.orphan} orphan, ${ours.edited.wrong} wrong of ${ours.edited.attempted}`,
    ),
  ];
  const fuzzy = FUZZY_PEERS.map(row)
    .filter(Boolean)
    .sort((a, b) => a.medianPageMs - b.medianPageMs)[0];
  if (fuzzy) {
    const r = ours.medianPageMs / fuzzy.medianPageMs;
    const asGood =
      ours.edited.rightPct >= fuzzy.edited.rightPct && ours.unedited.rightPct >= fuzzy.unedited.rightPct && ours.edited.wrong <= fuzzy.edited.wrong;
    goals.push(
      goal(
        'time-half-of-fastest-fuzzy-peer',
        r <= 0.5 && asGood,
        `${r.toFixed(3)} × ${fuzzy.matcher} (${ours.medianPageMs.toFixed(0)} vs ${fuzzy.medianPageMs.toFixed(0)} ms/page), accuracy ${asGood ? 'equal or better' : 'worse'}: edited ${pct(ours.edited.rightPct)} vs ${pct(fuzzy.edited.rightPct)} right`,
      ),
    );
  }
  return goals;
}

await runAlone(import.meta.url, benchAnchoring, anchoringGoals, { browser: 'none', extension: false });
