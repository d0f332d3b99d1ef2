#!/usr/bin/env node
// Bundles the `survey` CLI (scripts/survey, with the lib/ code it imports) into one plain-JavaScript file,
// packages/survey/dist/survey.js, for Node 20 and later with no dependencies: what `npm pack` puts in the package.
// `node scripts/build/survey-package.mjs [DIST]` writes DIST/survey.js instead (the tests pack a copy elsewhere).
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..', '..');
const out = path.join(process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, 'packages', 'survey', 'dist'), 'survey.js');
rmSync(path.dirname(out), { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, 'scripts', 'survey', 'main.ts')],
  outfile: out,
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
