/**
 * The `survey` CLI as a dataset's CI gets it: the package (packages/survey) packed with `npm pack` from a staged
 * copy (so parallel tests never share a build folder), and installed with `npm install --global` into an empty
 * prefix, offline. Also a plain-`node` build of the CLI for tests that only need a fast `survey` on PATH.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const PACKAGE = path.join(ROOT, 'packages', 'survey');

/** The package's manifest version. */
export function surveyVersion(): string {
  return JSON.parse(
    execFileSync(process.execPath, ['-p', `JSON.stringify(require(${JSON.stringify(path.join(PACKAGE, 'package.json'))}))`], { encoding: 'utf8' }),
  ).version;
}

/** Packs the package into `into` (the bundle built first, as its `prepack` does); returns the tarball's path. */
export function packSurvey(into: string): string {
  const stage = mkdtempSync(path.join(os.tmpdir(), 'survey-stage-'));
  for (const f of ['package.json', 'README.md']) copyFileSync(path.join(PACKAGE, f), path.join(stage, f));
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build', 'survey-package.mjs'), path.join(stage, 'dist')], { stdio: 'pipe' });
  mkdirSync(into, { recursive: true });
  execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', into], { cwd: stage, stdio: 'pipe', env: npmEnv() });
  const tarball = readdirSync(into).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${into}`);
  return path.join(into, tarball);
}

/** npm's environment for the tests: no update notice, no audit, no funding lines, its cache in the system's temp folder. */
export function npmEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false', ...extra };
}

/** Installs `spec` (a tarball) with `npm install --global` into the empty folder `prefix`; returns the `survey` it installed. */
export function installSurvey(spec: string, prefix: string): string {
  mkdirSync(prefix, { recursive: true });
  execFileSync('npm', ['install', '--global', '--offline', '--prefix', prefix, spec], { stdio: 'pipe', env: npmEnv() });
  return path.join(prefix, 'bin', 'survey');
}

/** Bundles the CLI (`scripts/survey/main.ts` and the code it uses) into plain JavaScript, as the package holds it: `outfile` and its chunks beside it. */
export async function bundleSurveyCli(outfile: string): Promise<string> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: { [path.basename(outfile, path.extname(outfile))]: path.join(ROOT, 'scripts', 'survey', 'main.ts') },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outdir: path.dirname(outfile),
    outExtension: { '.js': path.extname(outfile) || '.js' },
    logLevel: 'silent',
  });
  return outfile;
}

/** The CLI bundled into `folder`, with a `survey` command beside it; returns the folder to put on PATH. */
export async function surveyOnPath(folder: string): Promise<string> {
  const outfile = await bundleSurveyCli(path.join(folder, 'survey.mjs'));
  const bin = path.join(folder, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, 'survey'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(outfile)} "$@"\n`, { mode: 0o755 });
  return bin;
}
