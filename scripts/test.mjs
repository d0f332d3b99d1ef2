#!/usr/bin/env node
// `npm test`: type-check, lint and format check (Biome), unit tests, both builds, then end-to-end tests in real
// Chromium and in real Firefox (firefox-esr). A missing browser is a failure that says how to install it.
// Ends with one plain line `N passed, N failed` counting unit and both browsers' end-to-end tests together.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_MISSING, FIREFOX_MISSING, findChromium, findFirefox } from './browsers.mjs';

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
const chromium = findChromium();
const firefox = findFirefox();
if (!chromium) problems.push(`For the end-to-end tests: ${CHROMIUM_MISSING}`);
if (!firefox) problems.push(`For the end-to-end tests: ${FIREFOX_MISSING}`);
const built = step('build (Chrome)', bin('wxt'), ['build']) && step('build (Firefox)', bin('wxt'), ['build', '-b', 'firefox']);
const e2e = (title, config, file) =>
  step(title, bin('vitest'), ['run', '-c', config, '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(results, file)}`]);
// The Firefox run compares its export with Chromium's, so it needs Chromium too.
if (built && chromium) e2e('end-to-end tests (Chromium)', 'vitest.e2e.config.ts', 'e2e.json');
if (built && chromium && firefox) e2e('end-to-end tests (Firefox)', 'vitest.e2e.firefox.config.ts', 'e2e-firefox.json');

const unit = counts(path.join(results, 'unit.json'));
const inChromium = counts(path.join(results, 'e2e.json'));
const inFirefox = counts(path.join(results, 'e2e-firefox.json'));
const passed = unit.passed + inChromium.passed + inFirefox.passed;
// A browser whose tests did not run counts as one failure, so a run without a browser never looks green.
const failed = unit.failed + inChromium.failed + inFirefox.failed + (inChromium.ran ? 0 : 1) + (inFirefox.ran ? 0 : 1);
const summary = (c) => (c.ran ? `${c.passed} passed, ${c.failed} failed` : 'did not run');
console.log(`\nunit: ${summary(unit)} · end-to-end in Chromium: ${summary(inChromium)} · end-to-end in Firefox: ${summary(inFirefox)}`);
for (const p of problems) console.log(`problem: ${p}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(problems.length || failed ? 1 : 0);
