#!/usr/bin/env node
// Bundles the `survey` CLI (scripts/survey, with the lib/ code and the libraries it imports: linkedom, pdf.js) into
// plain JavaScript for Node 20 and later with no dependencies to install: packages/survey/dist/survey.js and the
// chunks it loads on demand (`survey recheck`'s parser and pdf.js are read only when a recheck runs, so the other
// commands start as fast as before). That folder is what `npm pack` puts in the package.
// `node scripts/build/survey-package.mjs [DIST]` writes into DIST instead (the tests pack a copy elsewhere).
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const dist = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, 'packages', 'survey', 'dist');
const out = path.join(dist, 'survey.js');
rmSync(dist, { recursive: true, force: true });
await build({
  entryPoints: { survey: path.join(root, 'scripts', 'survey', 'main.ts') },
  outdir: dist,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'linked',
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
chmodSync(out, 0o755);
