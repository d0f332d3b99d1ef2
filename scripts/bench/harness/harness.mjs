// What every benchmark suite shares: a browser with the built extension (or none), the machine's load noted
// at the start and the end of each run, goal lines, and the entry of a suite module run on its own.
// Suites import from here (and from extension.mjs, stats.mjs); suites.mjs lists them by name and imports
// them only when asked, so nothing here imports a suite.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ensureExtensionBuilt } from './build.mjs';
import { launch } from './extension.mjs';

/** The machine's 1-minute load average now, and its core count. */
export function machineLoad() {
  return { loadAverage: os.loadavg()[0], cpus: os.cpus().length };
}

/**
 * Starts noting the machine's load: returns `end()`, which gives `{ start, end, cpus }` (1-minute load
 * averages at the start and now). Every figure taken while other programs run is provisional; the
 * load says how busy the machine was.
 */
export function noteLoad() {
  const start = machineLoad();
  return () => ({ start: start.loadAverage, end: machineLoad().loadAverage, cpus: start.cpus });
}

/** The load of a run as printed: "load average 3.8 at the start, 2.9 at the end (2 CPUs)". */
export function describeLoad(load) {
  return `load average ${load.start.toFixed(1)} at the start, ${load.end.toFixed(1)} at the end (${load.cpus} CPUs)`;
}

/** Runs `fn({ context, extensionId })` in a fresh browser profile with the extension, and closes it. */
export async function withExtension(fn) {
  const browser = await launch({ extension: true, pages: new Map() });
  try {
    return await fn({ context: browser.context, extensionId: browser.extensionId });
  } finally {
    await browser.close();
  }
}

/** One goal line's data: `goal NAME: holds|misses (figure)`. */
export function goal(name, holds, figure) {
  return { name, holds: !!holds, figure };
}

/** A goal line as printed. */
export function goalLine(g) {
  return `goal ${g.name}: ${g.holds ? 'holds' : 'misses'} (${g.figure})`;
}

/** Prints goal lines. */
export function printGoals(goals, log = console.log) {
  for (const g of goals) log(goalLine(g));
}

/** True when the module at `moduleUrl` is the script node was started with. */
export function isMain(moduleUrl) {
  return !!process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(moduleUrl).pathname);
}

/**
 * Runs one suite: in a fresh browser with the extension (`browser: 'extension'`, the default) or with
 * none opened for it (`'none'`: the suite launches what it needs). Returns its result, its goal lines and
 * the load at its start and end.
 */
export async function runSuite({ bench, goals, browser = 'extension' }, log = console.log) {
  const load = noteLoad();
  const result = browser === 'none' ? await bench({ log }) : await withExtension((ext) => bench({ ...ext, log }));
  return { result, goals: goals(result), load: load() };
}

/**
 * The entry of a suite module run on its own (`node scripts/bench/panel-transfer/panel.mjs`): when that module is the
 * script node was started with, builds the extension if needed (unless `extension: false`: the suite
 * never loads it), runs the suite, prints its goal lines and the load.
 */
export async function runAlone(moduleUrl, bench, goals, options = {}) {
  if (!isMain(moduleUrl)) return;
  const started = Date.now();
  if (options.extension !== false) ensureExtensionBuilt();
  const run = await runSuite({ bench, goals, ...options });
  printGoals(run.goals);
  console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s; ${describeLoad(run.load)}`);
}

/**
 * Serves pages over real HTTP on 127.0.0.1 (a free port): `pages` maps a path ("/volcengine/verl") to
 * its HTML. No request interception, so a page load costs what it costs. Returns the origin and `close()`.
 */
export async function serveLocally(pages) {
  const server = http.createServer((req, res) => {
    const body = pages.get((req.url ?? '/').split('?')[0].split('#')[0]);
    if (body === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Ids of a process and all its descendants (Linux /proc). */
function processTree(pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
    } catch {
      // the process ended meanwhile
    }
  }
  const out = [];
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop();
    out.push(p);
    todo.push(...(children.get(p) ?? []));
  }
  return out;
}

/**
 * CPU time (user + system, ms) used so far by the processes this one started and their descendants —
 * the browsers with their renderers, service workers and storage — or null where /proc cannot say.
 * Unlike wall time it does not count waiting for a core, so it moves much less with the machine's load.
 * (Processes that already ended are not counted: read it before closing a browser.)
 */
export function childrenCpuMs() {
  if (!existsSync('/proc')) return null;
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  let total = 0;
  for (const p of processTree(process.pid)) {
    if (p === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * tick;
    } catch {
      // ended meanwhile
    }
  }
  return total;
}
