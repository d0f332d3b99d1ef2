// Build steps of the benchmark: the extension (when its build is missing or
// older than the sources) and the in-page bundle (our anchoring + the peers).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
/** The unpacked Chrome build the benchmark loads. */
// RECIPE_LENS_OUT: the same output folder `wxt build` uses (see wxt.config.ts).
export const EXTENSION_DIR = path.join(ROOT, process.env.RECIPE_LENS_OUT ?? '.output', 'chrome-mv3');

/** Newest modification time (ms) of the files under `p` (a file or a folder). */
function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = 0;
  for (const name of readdirSync(p)) t = Math.max(t, newest(path.join(p, name)));
  return t;
}

/** Builds the extension with `wxt build` unless `.output/chrome-mv3/manifest.json` is newer than every source. */
export function ensureExtensionBuilt(log = console.log) {
  const manifest = path.join(EXTENSION_DIR, 'manifest.json');
  const sources = ['entrypoints', 'lib', 'components', 'public', 'wxt.config.ts', 'package.json', 'package-lock.json'].map((p) => path.join(ROOT, p));
  const built = existsSync(manifest) ? statSync(manifest).mtimeMs : 0;
  const changed = Math.max(...sources.map(newest));
  if (built >= changed) {
    log('extension build is up to date');
    return false;
  }
  log(built ? 'sources changed since the last build: running wxt build' : 'no extension build: running wxt build');
  const run = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'wxt'), ['build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`wxt build failed:\n${run.stdout}\n${run.stderr}`);
  return true;
}

/** Whether a package can be resolved from the repository. */
function resolvable(name) {
  try {
    createRequire(path.join(ROOT, 'package.json')).resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Bundles `page-bench.ts` (our anchoring library and the three peers) into
 * one IIFE that defines `globalThis.RLBench`. When the Apache Annotator peer
 * cannot be bundled (its runtime dependency is missing), it is replaced by an
 * empty module and reported as unavailable instead of failing the benchmark.
 * @returns {Promise<{ code: string, apacheMissing: string | null }>}
 */
export async function bundlePageBench() {
  const apacheMissing = resolvable('@apache-annotator/selector')
    ? null
    : '@apache-annotator/selector (a runtime import of @apache-annotator/dom 0.2.0, not installed)';
  const stub = {
    name: 'apache-stub',
    setup(build) {
      if (!apacheMissing) return;
      build.onResolve({ filter: /^@apache-annotator\/dom$/ }, () => ({ path: 'apache-stub', namespace: 'stub' }));
      build.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export const createTextQuoteSelectorMatcher = undefined;', loader: 'js' }));
    },
  };
  const code = await bundleForPage('anchoring/page-bench.ts', [stub]);
  return { code, apacheMissing };
}

/** Bundles `panel-transfer/import-lab.ts` (the import's stages and IndexedDB layouts, see there) into one IIFE that defines `globalThis.RLImportLab`. */
export async function bundleImportLab() {
  return bundleForPage('panel-transfer/import-lab.ts');
}

/** Bundles a module of `scripts/bench/` (its path relative to that folder) for a browser page, as one IIFE. */
async function bundleForPage(file, plugins = []) {
  const out = await esbuild.build({
    entryPoints: [path.join(import.meta.dirname, '..', file)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
    minify: false,
    logLevel: 'silent',
    plugins,
  });
  return out.outputFiles[0].text;
}
