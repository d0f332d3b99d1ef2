/**
 * `survey recheck DIR [--json] [--report FILE.md] [--write] [--today D] [--timeout S]`: every source of a dataset
 * read again as served today, each live claim given the spec's verdict (unchanged, edited, gone, unreachable), the
 * new sentences worth a look listed, and, with `--write`, `records/sources.jsonl` updated (the spec's `source`
 * records; the README's "not disclosed, as of" dates follow them once `survey build .` runs). Fetching keeps the
 * limits in lib/recheck/fetch.ts: two requests at a time per host, a timeout, backoff and `Retry-After`, redirects
 * on the source's site only, bodies cut at 20 MB. Exit 0 once the sources were tried, 1 when the dataset itself is
 * invalid, 2 on a bad command line.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatDatasetProblem, mergeSources, recheckedSource, SOURCES_PATH, sourcesText } from '../../lib/dataset';
import {
  fetchSource,
  HostLimiter,
  markdownReport,
  RECHECK_LIMITS,
  recheckPage,
  recheckPdf,
  recheckTotals,
  sourceStatus,
  totalsLine,
  unreachableSource,
  verdictCounts,
  verdictLine,
  type FetchLimits,
  type SourceRecheck,
} from '../../lib/recheck';
import { CLAIM_SCHEMA, type ClaimRecord } from '../../lib/schema';
import { siteOf } from '../../lib/source/sites';
import { isTombstone } from '../../lib/survey/tombstones';
import { nowTimestamp, today as todayOf } from '../../lib/time';
import { UsageError, parseArgs } from './args';
import type { Io } from './commands';
import { existingFolder, readFolder } from './dataset';
import { isPdf, parsePage, readPdf } from './parse';

/** Sources read at a time in all (each host still gets at most `perHost`). */
const SOURCES_AT_ONCE = 8;

/** What the command needs from outside: the network (a test may serve its own). */
export interface RecheckDeps {
  fetch: typeof fetch;
}

/** Reads one source and rechecks its claims; never throws (a failure is the source's `unreachable` reason). */
async function recheckOne(url: string, claims: ClaimRecord[], limiter: HostLimiter, limits: FetchLimits, deps: RecheckDeps): Promise<SourceRecheck> {
  const fetched = await limiter.run(url, () => fetchSource(url, { fetch: deps.fetch, siteOf }, limits));
  if (!fetched.ok) return unreachableSource(url, claims, fetched.reason);
  try {
    if (isPdf(fetched.contentType, fetched.body)) {
      let model: Awaited<ReturnType<typeof readPdf>>;
      try {
        model = await readPdf(fetched.body);
      } catch (error) {
        return unreachableSource(url, claims, `not a readable PDF (${error instanceof Error ? error.message : String(error)})`);
      }
      return recheckPdf(url, model, claims);
    }
    return recheckPage(url, parsePage(fetched.body, fetched.contentType), claims);
  } catch (error) {
    return unreachableSource(url, claims, `could not be read (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Runs `task` over `items`, at most `n` at a time, results in the items' order; `done` after each. */
async function pool<T, R>(items: readonly T[], n: number, task: (item: T) => Promise<R>, done: (result: R, count: number) => void): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let finished = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!);
      done(out[i]!, ++finished);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

function describe(r: SourceRecheck): string {
  const status = sourceStatus(r.verdicts);
  if (status === 'unreachable') return `unreachable: ${r.verdicts[0]?.reason ?? 'unknown'}`;
  const c = verdictCounts(r.verdicts);
  const parts = [`${c.unchanged} unchanged`, ...(c.edited ? [`${c.edited} edited`] : []), ...(c.gone ? [`${c.gone} gone`] : [])];
  const fresh = r.candidates.length ? `; ${r.candidates.length} new ${r.candidates.length === 1 ? 'candidate' : 'candidates'}` : '';
  return `${status}: ${parts.join(', ')}${fresh}`;
}

/** `survey recheck DIR …`: see the module comment. */
export async function recheck(argv: readonly string[], io: Io, deps: RecheckDeps = { fetch: globalThis.fetch }): Promise<number> {
  const args = parseArgs(argv, { values: { report: [], today: [], timeout: [] }, flags: ['json', 'write'] });
  if (args.positionals.length > 1) throw new UsageError('recheck takes one folder');
  const day = args.values.today ?? todayOf();
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) throw new UsageError(`--today ${JSON.stringify(day)}: use YYYY-MM-DD`);
  const seconds = args.values.timeout === undefined ? RECHECK_LIMITS.timeoutMs / 1000 : Number(args.values.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 600)
    throw new UsageError(`--timeout ${JSON.stringify(args.values.timeout)}: seconds, more than 0 and at most 600`);
  const limits: FetchLimits = { ...RECHECK_LIMITS, timeoutMs: Math.round(seconds * 1000) };
  const root = await existingFolder(args.positionals[0], io, 'recheck');

  const { read, early } = await readFolder(root);
  const problems = [...early, ...read.problems];
  if (problems.length) {
    for (const p of problems) io.stdout(`${formatDatasetProblem({ ...p, path: path.relative(io.cwd, path.join(root, p.path)) || p.path })}\n`);
    io.stderr(
      `${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}: the dataset is not valid ("survey check" says more); nothing was rechecked\n`,
    );
    return 1;
  }

  const bySource = new Map<string, ClaimRecord[]>();
  for (const { record } of read.records) {
    if (record.schema !== CLAIM_SCHEMA || isTombstone(record as ClaimRecord)) continue;
    const claim = record as ClaimRecord;
    const list = bySource.get(claim.source.url);
    if (list) list.push(claim);
    else bySource.set(claim.source.url, [claim]);
  }
  const urls = [...bySource.keys()].sort();
  for (const list of bySource.values()) list.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  io.stderr(`rechecking ${urls.length} ${urls.length === 1 ? 'source' : 'sources'} (at most ${limits.perHost} requests at a time per host)\n`);

  const limiter = new HostLimiter(limits.perHost);
  const results = await pool(
    urls,
    SOURCES_AT_ONCE,
    (url) => recheckOne(url, bySource.get(url)!, limiter, limits, deps),
    (r, n) => io.stderr(`[${n}/${urls.length}] ${r.url}: ${describe(r)}\n`),
  );

  if (args.flags.has('json')) for (const r of results) for (const v of r.verdicts) io.stdout(`${verdictLine(v)}\n`);
  else {
    for (const r of results) {
      io.stdout(`${r.url}: ${describe(r)}\n`);
      r.claims.forEach((c, i) => {
        const v = r.verdicts[i]!;
        if (v.verdict === 'edited') io.stdout(`  edited ${c.id} (${c.model} · ${c.value}): now "${v.text}"\n`);
        else if (v.verdict === 'gone') io.stdout(`  gone   ${c.id} (${c.model} · ${c.value})\n`);
      });
    }
  }
  const totals = totalsLine(recheckTotals(results));

  if (args.values.report !== undefined) {
    const report = markdownReport(results, day);
    if (args.values.report === '-') io.stdout(report);
    else {
      const file = path.resolve(io.cwd, args.values.report);
      try {
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, report, 'utf8');
      } catch (error) {
        io.stderr(`survey recheck: the report could not be written to ${args.values.report} (${(error as NodeJS.ErrnoException).code ?? 'error'})\n`);
        return 1;
      }
      io.stderr(`wrote the report to ${args.values.report}\n`);
    }
  }

  if (args.flags.has('write')) {
    const previous = new Map(read.sources.map((s) => [s.record.url, s.record]));
    const now = nowTimestamp();
    const fresh = results.map((r) =>
      recheckedSource(r.url, r.verdicts, {
        today: day,
        now,
        previous: previous.get(r.url),
        accessed: r.claims.reduce((d, c) => (c.source.accessed > d ? c.source.accessed : d), '0000-00-00'),
      }),
    );
    // The sources of no live claim keep their records; the rechecked ones replace theirs.
    const kept = [...previous.values()].filter((s) => !bySource.has(s.url));
    const text = sourcesText(mergeSources([kept, fresh], { prefer: 'newer' }).records);
    await mkdir(path.join(root, path.dirname(SOURCES_PATH)), { recursive: true });
    await writeFile(path.join(root, SOURCES_PATH), text, 'utf8');
    io.stderr(
      `wrote ${path.relative(io.cwd, path.join(root, SOURCES_PATH)) || SOURCES_PATH}: ${fresh.length} rechecked; run "survey build ." to move the README's dates\n`,
    );
  }
  io.stderr(`${totals}\n`);
  return 0;
}
