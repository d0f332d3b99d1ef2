/**
 * The dataset commands: `survey init DIR` makes an empty dataset repository
 * in the spec's layout; `survey check DIR` runs what a dataset's CI (or a
 * server-side hook) runs — every records file valid and in the layout, and the
 * README's table and counts what `survey render` gives. Problems are printed
 * as `FILE:LINE: message`, FILE relative to the current directory.
 */
import { isTombstone } from '../../lib/survey/tombstones';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  buildDataset,
  checkReadme,
  formatDatasetProblem,
  MAX_RECORDS_FILE_BYTES,
  MODELS_PATH,
  CLAIMS_DIR,
  README_PATH,
  newReadme,
  pathRole,
  readDataset,
  type DatasetFile,
  type DatasetProblem,
} from '../../lib/dataset';
import { CLAIM_SCHEMA, type ClaimRecord } from '../../lib/schema';
import { UsageError, parseArgs } from './args';
import { ciFiles, ciOptionProblem, DEFAULT_INSTALL } from './ci-files';
import type { Io } from './commands';

/** Every file of a folder, as repository paths (`/`-separated), `.git` left out. */
async function treeFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    for (const e of await readdir(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== '.git') await walk(child);
      } else if (e.isFile()) out.push(child);
    }
  };
  await walk('');
  return out.sort();
}

async function folder(dir: string | undefined, cwd: string, command: string): Promise<string> {
  if (dir === undefined) throw new UsageError(`${command} needs a folder: survey ${command} DIR`);
  return path.resolve(cwd, dir);
}

/**
 * `survey init DIR [--title T] [--branch B] [--install SPEC] [--ci]`: an empty dataset (README with its markers, an
 * empty models file, the claims folder) and its CI (GitHub Actions workflows for the check and the weekly recheck, and
 * a `.gitlab-ci.yml` with both jobs); with `--ci`, only the CI files, for a dataset that has its records already.
 */
export async function init(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { values: { title: [], branch: [], install: [] }, flags: ['ci'] });
  if (args.positionals.length > 1) throw new UsageError('init takes one folder');
  const dir = args.positionals[0];
  const root = await folder(dir, io.cwd, 'init');
  const ci = { install: args.values.install ?? DEFAULT_INSTALL, branch: args.values.branch ?? 'main' };
  const bad = ciOptionProblem(ci);
  if (bad) throw new UsageError(bad);
  let existing: string[] = [];
  try {
    if (!(await stat(root)).isDirectory()) throw new UsageError(`${dir}: not a folder`);
    existing = await treeFiles(root);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // a folder that does not exist yet is made
  }
  const onlyCi = args.flags.has('ci');
  const files = ciFiles(ci);
  const clash = [...(onlyCi ? [] : existing.filter((f) => f === README_PATH || f.startsWith('records/'))), ...existing.filter((f) => files.has(f))];
  if (clash.length) {
    io.stderr(`survey init: ${dir} already holds ${clash.slice(0, 3).join(', ')}${clash.length > 3 ? ', …' : ''}; nothing was written.\n`);
    return 1;
  }
  if (!onlyCi) {
    await mkdir(path.join(root, CLAIMS_DIR), { recursive: true });
    await writeFile(path.join(root, MODELS_PATH), '', 'utf8');
    await writeFile(path.join(root, README_PATH), newReadme(args.values.title ?? 'RL post-training survey'), 'utf8');
  }
  for (const [p, text] of files) {
    await mkdir(path.dirname(path.join(root, p)), { recursive: true });
    await writeFile(path.join(root, p), text, 'utf8');
  }
  const ciPaths = [...files.keys()];
  const ciList = `${ciPaths.slice(0, -1).join(', ')} and ${ciPaths.at(-1)}`;
  io.stdout(
    onlyCi
      ? `Wrote the dataset's CI in ${dir}: ${ciList} (installing ${ci.install}, checking on every push, rebuilding the README on ${ci.branch}, rechecking the sources weekly). Commit and push them.\n`
      : `Made an empty dataset in ${dir}: ${README_PATH}, ${MODELS_PATH}, ${CLAIMS_DIR}/, and its CI in ${ciList} (installing ${ci.install}). Commit it and push it to the repository curators share.\n`,
  );
  return 0;
}

/** A dataset folder's files and what its records files say (a file over the size limit refused by its size alone). */
export async function readFolder(root: string): Promise<{ paths: string[]; read: ReturnType<typeof readDataset>; early: DatasetProblem[] }> {
  const paths = await treeFiles(root);
  const files: DatasetFile[] = [];
  const early: DatasetProblem[] = [];
  for (const p of paths) {
    const role = pathRole(p);
    if (role === 'other' || role === 'readme') continue;
    const size = (await stat(path.join(root, p))).size;
    if (size > MAX_RECORDS_FILE_BYTES && role !== 'misplaced') early.push(tooLarge(p, size));
    else files.push({ path: p, content: new Uint8Array(await readFile(path.join(root, p))) });
  }
  return { paths, read: readDataset(files), early };
}

/** The folder a dataset command works on, which must exist. */
export async function existingFolder(dir: string | undefined, io: Io, command: string): Promise<string> {
  const root = await folder(dir, io.cwd, command);
  try {
    if (!(await stat(root)).isDirectory()) throw new UsageError(`${dir}: not a folder`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${dir}: no such folder`);
  }
  return root;
}

/**
 * `survey build DIR [--title T]`: rewrites the generated parts (records files in the export order, the README's
 * table and counts) as the extension's publish writes them; exit 1, nothing written, when a line is invalid.
 */
export async function build(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { values: { title: [] }, flags: [] });
  if (args.positionals.length > 1) throw new UsageError('build takes one folder');
  const dir = args.positionals[0];
  const root = await existingFolder(dir, io, 'build');
  const { paths, read, early } = await readFolder(root);
  const problems = [...early, ...read.problems];
  if (problems.length) {
    for (const p of problems) io.stdout(`${formatDatasetProblem({ ...p, path: path.relative(io.cwd, path.join(root, p.path)) || p.path })}\n`);
    io.stderr(
      `${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}: fix ${problems.length === 1 ? 'it' : 'them'} first; nothing was written\n`,
    );
    return 1;
  }
  const readme = paths.includes(README_PATH) ? await readFile(path.join(root, README_PATH), 'utf8') : null;
  const changes = buildDataset(read, readme, args.values.title ?? 'RL post-training survey');
  for (const [p, text] of [...changes].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const full = path.join(root, p);
    if (text === null) await rm(full);
    else {
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, text, 'utf8');
    }
    io.stdout(`${text === null ? 'removed' : 'wrote'} ${path.relative(io.cwd, full) || p}\n`);
  }
  io.stdout(changes.size ? `built: ${changes.size} ${changes.size === 1 ? 'file' : 'files'} changed\n` : 'built: already up to date\n');
  return 0;
}

/**
 * `survey check DIR [--review]`: exit 0 when the dataset is valid, else 1 with one `FILE:LINE: message` per problem.
 * With `--review` (a review branch, whose README the dataset's branch rebuilds once it is merged) the README's table
 * and counts may lag the records; everything else is checked as strictly.
 */
export async function check(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { values: {}, flags: ['review'] });
  const review = args.flags.has('review');
  if (args.positionals.length > 1) throw new UsageError('check takes one folder');
  const dir = args.positionals[0];
  const root = await existingFolder(dir, io, 'check');
  const { paths, read, early } = await readFolder(root);
  const problems: DatasetProblem[] = [...early, ...read.problems, ...read.layout];
  if (!paths.includes(MODELS_PATH)) problems.push({ path: MODELS_PATH, line: 0, message: 'missing (an empty file when there are no model records)' });
  const records = read.records.map((r) => r.record);
  if (!paths.includes(README_PATH)) problems.push({ path: README_PATH, line: 0, message: 'missing: it holds the survey table ("survey init" makes one)' });
  else if (!read.problems.length) {
    const readme = await readFile(path.join(root, README_PATH), 'utf8');
    const sources = read.sources.map((s) => s.record);
    for (const p of checkReadme(readme, records, { review, sources })) problems.push({ path: README_PATH, ...p });
  }
  const shown = (p: DatasetProblem) => formatDatasetProblem({ ...p, path: path.relative(io.cwd, path.join(root, p.path)) || p.path });
  problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
  for (const p of problems) io.stdout(`${shown(p)}\n`);
  for (const f of read.ignored) io.stderr(`note: ${path.relative(io.cwd, path.join(root, f))} is outside records/ and was not read\n`);
  if (problems.length) {
    io.stderr(`${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}: the dataset in ${dir} is not valid\n`);
    return 1;
  }
  const claims = records.filter((r) => r.schema === CLAIM_SCHEMA) as ClaimRecord[];
  const deleted = claims.filter(isTombstone).length;
  const live = claims.length - deleted;
  const models = records.length - claims.length;
  const n = (k: number, one: string) => `${k} ${k === 1 ? one : `${one}s`}`;
  io.stdout(
    `ok: ${n(live, 'claim')}${deleted ? ` (and ${n(deleted, 'tombstone')})` : ''} and ${n(models, 'model record')} in ${n(read.texts.size, 'file')}; ${
      review ? "a review: the README table is rebuilt on the dataset's branch once it is merged" : 'the README table is up to date'
    }\n`,
  );
  return 0;
}

function tooLarge(p: string, size: number): DatasetProblem {
  const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
  return { path: p, line: 0, message: `the file is ${mb(size)}; a records file may be at most ${mb(MAX_RECORDS_FILE_BYTES)}` };
}
