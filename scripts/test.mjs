#!/usr/bin/env node
// `npm test`: type-check, lint and format check (Biome), unit tests, build, then end-to-end tests in real Chromium.
// Ends with one plain line `N passed, N failed` counting unit and end-to-end tests together.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'test-results');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const problems = [];

function step(title, cmd, args) {
  console.log(`\n── ${title} ──`);
  const run = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (run.status !== 0) problems.push(`${title} failed (exit ${run.status ?? run.signal})`);
  return run.status === 0;
}

function counts(file) {
  if (!existsSync(file)) return { passed: 0, failed: 0, ran: false };
  const json = JSON.parse(readFileSync(file, 'utf8'));
  const failedSuites = (json.testResults ?? []).filter((r) => r.status === 'failed' && !(r.assertionResults ?? []).length).length;
  return { passed: json.numPassedTests ?? 0, failed: (json.numFailedTests ?? 0) + failedSuites, ran: true };
}

step('type-check', bin('tsc'), ['--noEmit']);
step('lint and format check (Biome)', bin('biome'), ['check', '.']);
step('unit tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(results, 'unit.json')}`]);
const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean).find((p) => existsSync(p));
if (!chromium) {
  problems.push('No Chromium for the end-to-end tests: install it with `sudo apt-get install -y chromium` or set CHROMIUM_PATH.');
} else if (step('build (Chrome)', bin('wxt'), ['build']) && step('build (Firefox)', bin('wxt'), ['build', '-b', 'firefox'])) {
  step('end-to-end tests (Chromium)', bin('vitest'), [
    'run',
    '-c',
    'vitest.e2e.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${path.join(results, 'e2e.json')}`,
  ]);
}

const unit = counts(path.join(results, 'unit.json'));
const e2e = counts(path.join(results, 'e2e.json'));
const passed = unit.passed + e2e.passed;
const failed = unit.failed + e2e.failed + (e2e.ran ? 0 : 1);
console.log(`\nunit: ${unit.passed} passed, ${unit.failed} failed · end-to-end: ${e2e.ran ? `${e2e.passed} passed, ${e2e.failed} failed` : 'did not run'}`);
for (const p of problems) console.log(`problem: ${p}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(problems.length || failed ? 1 : 0);
