#!/usr/bin/env node
// `npm run bench`: every benchmark suite (suites.mjs), in real Chromium, in one run — anchoring accuracy
// and speed against published peers, what the extension costs a page (load, long tasks, highlights,
// memory), the evidence panel, export and import, the PDF viewer, the claim finder, and how cost grows
// with the work (scaling). BENCH_ONLY=name,name picks suites (default: all); BENCH_QUICK=1 runs fewer
// pages and loads. Prints one `ratio` line per comparison and one `goal` line per goal (a `problem` line
// with the reason for a suite that failed, whose goal is then not measured), each suite's wall time, the
// machine's load at the start and the end, writes everything to bench/results/ (see docs/benchmarks.md),
// and ends with one line: `bench: N goals, M missed` (not measured counts as missed).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureExtensionBuilt, ROOT } from './harness/build.mjs';
import { describeLoad, goalLine, noteLoad } from './harness/harness.mjs';
import { runSuites, SUITES } from './suites.mjs';

const RESULTS = path.join(ROOT, 'bench', 'results');
const QUICK = process.env.BENCH_QUICK === '1';
/** The suites to run: `BENCH_ONLY` (comma-separated names of suites.mjs), else all. */
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((s) => s.trim()) : null;

async function main() {
  const started = Date.now();
  const load = noteLoad();
  const unknown = (ONLY ?? []).filter((name) => !(name in SUITES));
  if (unknown.length) throw new Error(`BENCH_ONLY names no suite: ${unknown.join(', ')} (known: ${Object.keys(SUITES).join(', ')})`);
  const names = Object.keys(SUITES).filter((name) => !ONLY || ONLY.includes(name));
  const atStart = load();
  console.log(`Recipe Lens benchmark${QUICK ? ' (quick)' : ''}: ${names.join(', ')} — ${atStart.cpus} CPUs, load average ${atStart.start.toFixed(1)}`);
  if (names.some((name) => SUITES[name].extension !== false)) ensureExtensionBuilt(console.log);
  const { results, goals, problems } = await runSuites(names, console.log);
  const machine = load();
  const report = {
    startedAt: new Date(started).toISOString(),
    seconds: (Date.now() - started) / 1000,
    machine: { cpus: machine.cpus, loadAverageAtStart: machine.start, loadAverageAtEnd: machine.end },
    suites: results,
    problems,
    summary: { goals, missed: goals.filter((g) => !g.holds).length },
  };
  console.log('');
  for (const p of problems) console.log(`problem: ${p}`);
  for (const g of goals) console.log(goalLine(g));
  mkdirSync(RESULTS, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const json = JSON.stringify(report, null, 1);
  writeFileSync(path.join(RESULTS, `bench-${stamp}.json`), json);
  writeFileSync(path.join(RESULTS, 'latest.json'), json);
  console.log(`\ntime by suite: ${names.map((name) => `${name} ${results[name].seconds} s`).join(', ')}`);
  console.log(`results: bench/results/bench-${stamp}.json (also latest.json); ${report.seconds.toFixed(0)} s in all; ${describeLoad(machine)}`);
  console.log(`bench: ${goals.length} goals, ${report.summary.missed} missed`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
