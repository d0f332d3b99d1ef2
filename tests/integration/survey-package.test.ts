// The `survey` package as a dataset's CI installs it: `npm pack` gives a tarball, `npm install --global` of it into an
// empty prefix gives a working `survey` on plain Node (PATH holding nothing but that prefix, node and the system's
// tools), and that command validates, renders, builds and checks the shared fixture records, refusing bad input
// with FILE:LINE messages and exit 1.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutFiles } from '../../lib/dataset';
import { runCommand } from '../support/survey-cli';
import { installSurvey, packSurvey, surveyVersion } from '../support/survey-package';
import { tinyPdf } from '../support/tiny-pdf';
import { claim } from '../unit/fixtures/records';

const TIMEOUT = 180_000;
const FIXTURE_RECORDS = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'records');
let dir = '';
let tarball = '';
let survey = '';
/** A machine with nothing else: the prefix's bin, node, and the system's own tools. */
let bare: NodeJS.ProcessEnv = {};

function run(cwd: string, ...args: string[]) {
  const r = spawnSync(survey, args, { cwd, env: bare, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'survey-package-'));
  tarball = packSurvey(path.join(dir, 'packed'));
  survey = installSurvey(tarball, path.join(dir, 'prefix'));
  bare = { PATH: [path.dirname(survey), path.dirname(process.execPath), '/usr/bin', '/bin'].join(':'), HOME: dir, NO_COLOR: '1' };
}, TIMEOUT);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed survey CLI', () => {
  it('is one tarball of plain JavaScript with its manifest, installed without any dependency', () => {
    expect(path.basename(tarball)).toBe(`recipe-lens-survey-${surveyVersion()}.tgz`);
    expect(statSync(tarball).size).toBeGreaterThan(10_000);
    const listed = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).sort();
    // The entry and its chunks (the recheck's parser and pdf.js are loaded only when a recheck runs).
    expect(listed.filter((f) => !f.startsWith('package/dist/chunks/'))).toEqual(['package/README.md', 'package/dist/survey.js', 'package/package.json']);
    expect(listed.filter((f) => f.startsWith('package/dist/chunks/')).every((f) => /\.js(?:\.LEGAL\.txt)?$/.test(f))).toBe(true);
    const installed = path.join(dir, 'prefix', 'lib', 'node_modules', 'recipe-lens-survey');
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'dist', 'package.json']);
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: 'recipe-lens-survey', engines: { node: '>=20' }, bin: { survey: 'dist/survey.js' } });
    expect(manifest.dependencies).toBeUndefined();
    expect(readFileSync(path.join(installed, 'dist', 'survey.js'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(run(dir, '--version')).toEqual({ code: 0, stdout: `survey ${surveyVersion()}\n`, stderr: '' });
    expect(run(dir, '--help').stdout).toContain('init DIR');
  });

  it(
    'validates, renders, builds and checks the shared fixture records',
    () => {
      expect(existsSync(FIXTURE_RECORDS), `the shared fixtures (${FIXTURE_RECORDS}) are beside the project`).toBe(true);
      const files = readdirSync(FIXTURE_RECORDS)
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => path.join(FIXTURE_RECORDS, f));
      const valid = run(dir, 'validate', ...files);
      expect(valid).toMatchObject({ code: 0 });
      expect(valid.stdout).toMatch(/^ok: \d+ records in 3 files\n$/);
      const md = run(dir, 'render', FIXTURE_RECORDS);
      expect(md.code).toBe(0);
      expect(md.stdout).toContain('| Model | Evidence | RL framework / system | Public RL stages and algorithms | Design intention | Current judgment |');
      expect(md.stdout).toContain('GLM-5');
      // A new dataset; every fixture record dropped into one file by hand; build puts each in its model's file.
      expect(run(dir, 'init', 'team').code).toBe(0);
      const merged = run(dir, 'merge', FIXTURE_RECORDS, '-o', 'team/records/claims/all.jsonl');
      expect(merged.code).toBe(0);
      const before = run(dir, 'check', 'team');
      expect(before.code).toBe(1);
      expect(before.stdout).toMatch(/^team\/records\/claims\/all\.jsonl:1: /m);
      const built = run(dir, 'build', 'team');
      expect(built.code).toBe(0);
      expect(built.stdout).toContain('removed team/records/claims/all.jsonl');
      expect(built.stdout).toContain('wrote team/README.md');
      const checked = run(dir, 'check', 'team');
      expect(checked).toMatchObject({ code: 0, stderr: '' });
      expect(checked.stdout).toMatch(/^ok: \d+ claims .* the README table is up to date\n$/);
      expect(run(dir, 'build', 'team').stdout).toBe('built: already up to date\n');
      expect(readFileSync(path.join(dir, 'team', 'README.md'), 'utf8')).toContain('slime');
    },
    TIMEOUT,
  );

  it(
    'answers bad input with FILE:LINE messages and exit 1, and a bad command line with exit 2',
    () => {
      writeFileSync(
        path.join(dir, 'bad.jsonl'),
        `${readFileSync(readdirSync(FIXTURE_RECORDS).map((f) => path.join(FIXTURE_RECORDS, f))[0]!, 'utf8').split('\n')[0]}\n{not json\n`,
      );
      const bad = run(dir, 'validate', 'bad.jsonl');
      expect(bad.code).toBe(1);
      expect(bad.stdout).toMatch(/^bad\.jsonl:2: /m);
      expect(run(dir, 'init', 'broken').code).toBe(0);
      writeFileSync(path.join(dir, 'broken', 'records', 'claims', 'glm-5.jsonl'), '{"schema":"rl-survey.claim/1"}\n');
      const check = run(dir, 'check', 'broken');
      expect(check.code).toBe(1);
      expect(check.stdout).toMatch(/^broken\/records\/claims\/glm-5\.jsonl:1: /m);
      const build = run(dir, 'build', 'broken');
      expect(build.code).toBe(1);
      expect(build.stderr).toContain('nothing was written');
      expect(run(dir, 'render', 'nowhere.jsonl').code).toBe(2);
      expect(run(dir, 'frobnicate').code).toBe(2);
    },
    TIMEOUT,
  );

  it(
    'rechecks a page and a PDF served on 127.0.0.1 with nothing but what it installed',
    async () => {
      const sentence = 'In the second stage we train the policy with GRPO on verifiable math and code prompts.';
      const pdf = tinyPdf([['A Test Report', sentence.replace('GRPO', 'DAPO')]]);
      const server = createServer((req, res) => {
        if (req.url === '/report.pdf') {
          res.writeHead(200, { 'content-type': 'application/pdf' });
          return void res.end(pdf);
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><p>Intro.</p><p>${sentence}</p>`);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
        const quote = { exact: sentence, prefix: '', suffix: '' };
        const records = [
          claim({ id: 'clm_pkg_page', quote, position: null, source: { ...claim().source, url: `${base}/blog` } }),
          claim({ id: 'clm_pkg_pdf', quote, position: null, source: { ...claim().source, url: `${base}/report.pdf` } }),
        ];
        const team = path.join(dir, 'recheck-team');
        for (const [p, text] of layoutFiles(records)) {
          mkdirSync(path.dirname(path.join(team, p)), { recursive: true });
          writeFileSync(path.join(team, p), text);
        }
        const r = await runCommand(survey, ['recheck', '.', '--json'], team, bare);
        expect(r.code, r.stderr).toBe(0);
        const lines = r.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l));
        expect(lines).toEqual([
          { id: 'clm_pkg_page', url: `${base}/blog`, verdict: 'unchanged', text: null, reason: null },
          { id: 'clm_pkg_pdf', url: `${base}/report.pdf`, verdict: 'edited', text: sentence.replace('GRPO', 'DAPO'), reason: null },
        ]);
      } finally {
        server.close();
      }
    },
    TIMEOUT,
  );
});
