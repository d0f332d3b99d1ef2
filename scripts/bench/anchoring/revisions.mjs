// The real-revisions benchmark (BENCH_ONLY=real-revisions, or `node scripts/bench/anchoring/revisions.mjs` alone): the
// public corpus of real document revisions (../shared/fixtures/revisions, see its README) through the built
// extension in Chromium, and through the three peers in the same run.
//
// The extension: the corpus's claim records are imported through the options page (they were captured on each
// pair's old revision), then each pair's new revision is opened at the pair's URL; once the extension has painted
// (or orphaned) every claim of the page, the ranges under its highlights are read from `CSS.highlights` and mapped
// to offsets of the page's rendered text. The peers: each pair's old revision gives the position hints they would
// have stored (textContent offsets), then they run on the new revision with the stored quotes. Every answer is
// judged as the corpus README says: right = overlaps an expected span by at least half of the shorter of the two;
// wrong = painted anywhere else; orphan = not painted. As in the issue's table, a removed passage painted on the very
// text that replaced it counts against the "removed: not painted" column rather than as a paint on a wrong passage.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { ROOT } from '../harness/build.mjs';
import { importThroughOptions, paintedCount } from '../harness/extension.mjs';
import { runAlone } from '../harness/harness.mjs';

/** The public corpus, beside the repository. */
export const CORPUS = path.resolve(ROOT, '..', 'shared', 'fixtures', 'revisions');
/** Highlight names the extension paints claims under (one per claim kind). */
const PAINTED = '^recipe-lens-(stage|algorithm|framework|reward|system|intention|undisclosed)$';
/** The peers, in the order of the table. */
const ALL_PEERS = ['hypothesis', 'text-quote', 'apache'];
/**
 * The peers run: none with BENCH_QUICK, which measures the extension alone (every goal is the extension's; the peers
 * only stand beside it in the figures, and loading each pair's old and new revision for them is two thirds of the suite).
 */
const QUICK = process.env.BENCH_QUICK === '1';
const PEERS = QUICK ? [] : ALL_PEERS;
/** Labels of the table's rows. */
const LABEL = {
  ours: 'Recipe Lens (extension)',
  hypothesis: 'Hypothesis-style (approx-string-match)',
  'text-quote': 'dom-anchor-text-quote',
  apache: '@apache-annotator/dom (exact)',
};
/** Most time one peer may spend on one page before its remaining passages are skipped (reported). */
const PEER_BUDGET_MS = 60_000;
/** Most time the extension may take to settle every claim of one page. */
const SETTLE_TIMEOUT_MS = 60_000;

/** The corpus's cases cut to every other page pair, with the passage counts of those pairs (BENCH_QUICK). */
function everyOtherPair(cases) {
  const pairs = cases.pairs.filter((_, i) => i % 2 === 0);
  const counts = { ...cases.counts, pairs: pairs.length, same: 0, edited: 0, removed: 0, passages: 0 };
  for (const pair of pairs)
    for (const p of pair.passages) {
      counts[p.class] += 1;
      counts.passages += 1;
    }
  return { ...cases, pairs, counts };
}

/** The corpus (cases, records, pages), or null when the shared folder is absent. */
export function loadCorpus() {
  let cases;
  try {
    cases = JSON.parse(readFileSync(path.join(CORPUS, 'cases.json'), 'utf8'));
  } catch {
    return null;
  }
  const jsonl = readFileSync(path.join(CORPUS, 'records.jsonl'), 'utf8');
  const kinds = new Map(
    jsonl
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l))
      .map((r) => [r.id, r.kind]),
  );
  const rule = {
    skip: cases.renderedText.skip,
    block: cases.renderedText.block,
    whitespace: cases.renderedText.whitespace.map((u) => Number.parseInt(u.slice(2), 16)),
  };
  const html = (page) => readFileSync(path.join(CORPUS, cases.pages[page].file));
  const text = (page) => readFileSync(path.join(CORPUS, 'texts', `${page}.txt`), 'utf8');
  return { cases, jsonl, kinds, rule, html, text };
}

/** The in-page bundle (the rendered-text map and the peers). */
async function bundle() {
  const out = await esbuild.build({
    entryPoints: [path.join(import.meta.dirname, 'revisions-page.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0].text;
}

/** Whether a painted span [s, e) is right for a passage: it overlaps one of its expected spans by half of the shorter. */
export function isRight(passage, s, e) {
  return passage.expected.some((x) => Math.min(x.end, e) - Math.max(x.start, s) >= 0.5 * Math.min(x.end - x.start, e - s));
}

/** Whether [s, e) lies on a removed passage's replacement (for reports: a paint there is still wrong). */
function onReplacement(passage, s, e) {
  const r = passage.replacement;
  return !!r && Math.min(r.end, e) - Math.max(r.start, s) > 0;
}

/** Words of a text, for telling which claim an unattributed paint belongs to. */
function words(s) {
  return new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
}

/**
 * Per-passage verdicts from what the extension painted on one page: each
 * highlight (one per claim kind) may hold the ranges of several claims, so a
 * range is attributed to the claim of its kind whose expected span it
 * overlaps (README: "attributed to the claim whose expected span it
 * overlaps"); a range no claim accounts for is a wrong paint, attributed to
 * the unaccounted claim of its kind whose quote shares the most words with it.
 */
export function judgeExtension(pair, painted, kinds, newText) {
  const verdicts = new Map();
  const byKind = new Map();
  for (const p of pair.passages) {
    const k = `recipe-lens-${kinds.get(p.id)}`;
    if (!byKind.has(k)) byKind.set(k, []);
    byKind.get(k).push(p);
  }
  for (const [name, passages] of byKind) {
    const ranges = (painted[name] ?? []).filter(Boolean);
    const free = new Set(passages);
    const left = [];
    for (const [s, e] of ranges) {
      const claim = passages.find((p) => free.has(p) && p.class !== 'removed' && isRight(p, s, e));
      if (claim) {
        free.delete(claim);
        verdicts.set(claim.id, { verdict: 'right', span: [s, e] });
      } else left.push([s, e]);
    }
    for (const [s, e] of left) {
      const w = words(newText.slice(s, e));
      let best = null;
      let bestShared = -1;
      for (const p of free) {
        const shared = [...words(p.quote.exact)].filter((x) => w.has(x)).length;
        if (shared > bestShared) {
          best = p;
          bestShared = shared;
        }
      }
      if (!best) continue; // more ranges than claims: cannot happen (one range per claim)
      free.delete(best);
      verdicts.set(best.id, { verdict: 'wrong', span: [s, e], replacement: onReplacement(best, s, e) });
    }
    for (const p of free) verdicts.set(p.id, { verdict: 'orphan' });
  }
  return verdicts;
}

/** Per-passage verdicts from a peer's answers (one per passage, in order). */
function judgePeer(pair, answers) {
  const verdicts = new Map();
  pair.passages.forEach((p, i) => {
    const a = answers[i];
    if (a === 'skipped') verdicts.set(p.id, { verdict: 'skipped' });
    else if (!a || a === 'error') verdicts.set(p.id, { verdict: 'orphan', error: a === 'error' });
    else if (p.class !== 'removed' && isRight(p, a[0], a[1])) verdicts.set(p.id, { verdict: 'right', span: a });
    else verdicts.set(p.id, { verdict: 'wrong', span: a, replacement: onReplacement(p, a[0], a[1]) });
  });
  return verdicts;
}

/** Totals of one matcher's verdicts over the corpus. */
export function tally(cases, verdicts) {
  const t = {
    same: { n: 0, right: 0 },
    edited: { n: 0, right: 0, orphan: 0 },
    removed: { n: 0, notPainted: 0, onReplacement: 0 },
    /** Paints on a wrong passage: a same or edited passage painted elsewhere, or a removed one painted other than on the text that replaced it. */
    wrong: 0,
    skipped: 0,
  };
  for (const pair of cases.pairs)
    for (const p of pair.passages) {
      const v = verdicts.get(p.id)?.verdict ?? 'skipped';
      const c = t[p.class];
      c.n++;
      if (v === 'skipped') {
        t.skipped++;
        continue;
      }
      if (v === 'right') c.right++;
      if (v === 'orphan' && p.class === 'edited') c.orphan++;
      if (v === 'orphan' && p.class === 'removed') c.notPainted++;
      // As in the issue's table: a removed passage painted on the very text that replaced it is a removed passage
      // painted (it fails the "removed" column), not a paint on a wrong passage.
      if (v === 'wrong' && p.class === 'removed' && verdicts.get(p.id).replacement) t.removed.onReplacement++;
      else if (v === 'wrong') t.wrong++;
    }
  return t;
}

/** Waits until the extension has settled every claim of the open page (painted + orphaned = claims), from its highlights and badge. */
async function settled(page, worker, url, claims) {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let last = '';
  let stableSince = Date.now();
  for (;;) {
    const painted = await paintedCount(page);
    const badge = await worker.evaluate(async (u) => {
      const tabs = await chrome.tabs.query({});
      const tab = tabs.find((t) => t.url === u);
      return tab?.id ? chrome.action.getBadgeText({ tabId: tab.id }) : '';
    }, url);
    const orphans = badge.endsWith('!') ? Number(badge.slice(0, -1)) : 0;
    const shown = badge.endsWith('!') ? painted + orphans : Number(badge || 0);
    const state = `${painted}/${badge}`;
    if (state !== last) {
      last = state;
      stableSince = Date.now();
    }
    if (shown === claims && painted + orphans === claims && Date.now() - stableSince > 300) return { painted, orphans };
    if (Date.now() > deadline) return { painted, orphans, timedOut: true };
    await page.waitForTimeout(100);
  }
}

/** Percent with one decimal. */
const pct = (a, b) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;

/** The table row of one matcher. */
function row(label, t) {
  const skipped = t.skipped ? ` (${t.skipped} not run: time budget)` : '';
  const repl = t.removed.onReplacement ? ` (${t.removed.onReplacement} painted on the text that replaced it)` : '';
  return `| ${label} | ${t.same.right} | ${t.edited.right} / ${t.edited.orphan} | ${t.removed.notPainted}${repl} | ${t.wrong} |${skipped}`;
}

/**
 * The suite: `{ context, extensionId, log }` is a fresh browser profile with
 * the built extension (see suites.mjs). Returns the per-matcher totals, the
 * per-passage verdicts and the problems met.
 */
export async function benchRevisions({ context, extensionId, log = console.log }) {
  const corpus = loadCorpus();
  if (!corpus) {
    log(`real-revisions: the corpus is not at ${path.relative(ROOT, CORPUS)}: skipped`);
    return { skipped: true };
  }
  const { jsonl, kinds, rule } = corpus;
  // BENCH_QUICK: every other page pair of the corpus (the goal lines count what was run).
  const cases = QUICK ? everyOtherPair(corpus.cases) : corpus.cases;
  if (QUICK) log(`BENCH_QUICK: ${cases.pairs.length} of the corpus's ${corpus.cases.pairs.length} page pairs (every other one)`);
  const code = await bundle();
  const problems = [];
  const served = new Map();
  for (const pair of cases.pairs) {
    served.set(pair.url, corpus.html(pair.new.page));
    served.set(`http://fixtures.test/rev-old/${pair.id}`, corpus.html(pair.old.page));
    served.set(`http://fixtures.test/rev-new/${pair.id}`, corpus.html(pair.new.page));
  }
  // Registered after the launcher's own route, so it is asked first.
  await context.route(/^http:\/\/fixtures\.test\/rev(-old|-new)?\//, (route) => {
    const body = served.get(route.request().url().split('#')[0].split('?')[0]);
    return body === undefined ? route.fallback() : route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body });
  });
  const started = Date.now();
  const report = await importThroughOptions(context, extensionId, 'revisions.jsonl', jsonl);
  log(`imported the corpus's ${cases.counts.passages} claims: ${report.replace(/\s+/g, ' ').slice(0, 100)} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  const worker = context.serviceWorkers()[0];
  const verdicts = { ours: new Map(), ...Object.fromEntries(PEERS.map((p) => [p, new Map()])) };
  const peerMs = Object.fromEntries(PEERS.map((p) => [p, 0]));
  let oursMs = 0;
  for (const pair of cases.pairs) {
    const newText = corpus.text(pair.new.page);
    // The extension, on the new revision at the pair's URL.
    const page = await context.newPage();
    const t0 = Date.now();
    await page.goto(pair.url, { waitUntil: 'load' });
    const done = await settled(page, worker, pair.url, pair.passages.length);
    oursMs += Date.now() - t0;
    if (done.timedOut)
      problems.push(
        `${pair.id}: the extension had not settled every claim after ${SETTLE_TIMEOUT_MS / 1000} s (${done.painted} painted, ${done.orphans} orphans)`,
      );
    await page.addScriptTag({ content: code });
    const text = await page.evaluate((r) => globalThis.RLRevisions.text(r), rule);
    if (text !== newText) problems.push(`${pair.id}: the page's rendered text differs from texts/${pair.new.page}.txt`);
    const painted = await page.evaluate(([r, re]) => globalThis.RLRevisions.painted(r, re), [rule, PAINTED]);
    for (const [id, v] of judgeExtension(pair, painted, kinds, newText)) verdicts.ours.set(id, v);
    await page.close();

    // The peers (none with BENCH_QUICK): hints from the old revision, then a run on the new one.
    const line = [];
    if (PEERS.length) {
      const old = await context.newPage();
      await old.goto(`http://fixtures.test/rev-old/${pair.id}`, { waitUntil: 'load' });
      await old.addScriptTag({ content: code });
      const hints = await old.evaluate(([r, starts]) => globalThis.RLRevisions.hints(r, starts), [rule, pair.passages.map((p) => p.position.start)]);
      await old.close();
      const selectors = pair.passages.map((p, i) => ({ exact: p.quote.exact, prefix: p.quote.prefix, suffix: p.quote.suffix, hint: hints[i] ?? null }));
      const peerPage = await context.newPage();
      await peerPage.goto(`http://fixtures.test/rev-new/${pair.id}`, { waitUntil: 'load' });
      await peerPage.addScriptTag({ content: code });
      for (const peer of PEERS) {
        const res = await peerPage.evaluate(([r, m, s, b]) => globalThis.RLRevisions.run(r, m, s, b), [rule, peer, selectors, PEER_BUDGET_MS]);
        peerMs[peer] += res.ms;
        for (const [id, v] of judgePeer(pair, res.answers)) verdicts[peer].set(id, v);
        line.push(`${peer} ${(res.ms / 1000).toFixed(1)} s`);
      }
      await peerPage.close();
    }
    const mine = pair.passages.map((p) => verdicts.ours.get(p.id)?.verdict);
    log(
      `${pair.id}: ${pair.passages.length} passages; ours ${mine.filter((v) => v === 'right').length} right, ${mine.filter((v) => v === 'orphan').length} orphan, ${mine.filter((v) => v === 'wrong').length} wrong${line.length ? `; ${line.join(', ')}` : ''}`,
    );
  }

  const totals = Object.fromEntries(Object.entries(verdicts).map(([m, v]) => [m, tally(cases, v)]));
  const c = cases.counts;
  log('');
  log(`| matcher | same (${c.same}): right | edited (${c.edited}): right / orphan | removed (${c.removed}): not painted | wrong passage |`);
  log('|---|---|---|---|---|');
  for (const m of ['ours', ...PEERS]) log(row(LABEL[m], totals[m]));
  log('');
  log(
    `time: the extension ${(oursMs / 1000).toFixed(1)} s from navigation to every claim settled over ${cases.pairs.length} pages; peers ${PEERS.length ? PEERS.map((p) => `${p} ${(peerMs[p] / 1000).toFixed(1)} s`).join(', ') : 'not run (BENCH_QUICK)'}`,
  );
  for (const p of problems) log(`problem: ${p}`);
  const misses = [];
  for (const pair of cases.pairs)
    for (const p of pair.passages) {
      const v = verdicts.ours.get(p.id);
      const fine = p.class === 'removed' ? v?.verdict === 'orphan' : v?.verdict === 'right';
      if (!fine) misses.push({ id: p.id, class: p.class, verdict: v?.verdict ?? 'none', detail: p.detail, kept: p.kept, quote: p.quote.exact });
    }
  if (misses.length) {
    log('ours, passages not as expected:');
    for (const x of misses) log(`  ${x.class} ${x.verdict}: ${x.id} (${x.detail}, kept ${x.kept}): ${x.quote.slice(0, 90)}`);
  }
  return {
    counts: cases.counts,
    totals,
    misses,
    problems,
    timing: { extensionMs: oursMs, peerMs },
    verdicts: Object.fromEntries(Object.entries(verdicts).map(([m, v]) => [m, Object.fromEntries(v)])),
  };
}

/** The goal lines of the suite. */
export function revisionsGoals(result) {
  if (!result || result.skipped) {
    return ['real-same-100', 'real-edited-95', 'real-wrong-0', 'real-removed-0'].map((name) => ({
      name,
      holds: false,
      figure: 'not measured: the corpus is absent',
    }));
  }
  const { totals, counts } = result;
  const o = totals.ours;
  const peers = ALL_PEERS.filter((p) => totals[p]);
  const bothAxes = peers.filter((p) => o.edited.right >= totals[p].edited.right && o.wrong <= totals[p].wrong);
  const against = peers.length
    ? `at least as good as every peer on both axes (edited right, wrong): ${bothAxes.length === peers.length ? 'yes' : `no, not against ${peers.filter((p) => !bothAxes.includes(p)).join(', ')}`}`
    : 'the peers not run (BENCH_QUICK)';
  return [
    {
      name: 'real-same-100',
      holds: o.same.right === counts.same,
      figure: `${o.same.right}/${counts.same} unchanged passages painted in place (${pct(o.same.right, counts.same)})`,
    },
    {
      name: 'real-edited-95',
      holds: o.edited.right >= 0.95 * counts.edited,
      figure: `${pct(o.edited.right, counts.edited)} of edited passages painted on their new text, ${o.edited.right}/${counts.edited}, ${o.edited.orphan} orphans; peers: ${peers.length ? peers.map((p) => `${p} ${o.edited.right >= totals[p].edited.right ? '≤' : '>'} ours (${totals[p].edited.right})`).join(', ') : 'not run (BENCH_QUICK)'}`,
    },
    {
      name: 'real-wrong-0',
      holds: o.wrong === 0,
      figure: `${o.wrong} paints on a wrong passage; ${o.removed.notPainted}/${counts.removed} removed passages left unpainted${o.removed.onReplacement ? ` (${o.removed.onReplacement} painted on the text that replaced it)` : ''}; ${peers.length ? `peers: ${peers.map((p) => `${p} ${totals[p].wrong} wrong, ${totals[p].removed.notPainted}/${counts.removed} removed unpainted`).join('; ')}; ` : ''}${against}`,
    },
    {
      // The issue's fourth goal: a removed passage is painted nowhere, not even on the text that took its place
      // (the corpus counts that as a failure too, of a different kind from a wrong passage).
      name: 'real-removed-0',
      holds: o.removed.notPainted === counts.removed,
      figure: `${o.removed.notPainted}/${counts.removed} removed passages painted nowhere (${counts.removed - o.removed.notPainted} painted: ${o.removed.onReplacement ?? 0} on the text that replaced them, ${counts.removed - o.removed.notPainted - (o.removed.onReplacement ?? 0)} elsewhere); peers: ${peers.length ? peers.map((p) => `${p} ${totals[p].removed.notPainted}/${counts.removed}`).join(', ') : 'not run (BENCH_QUICK)'}`,
    },
  ];
}

await runAlone(import.meta.url, benchRevisions, revisionsGoals);
