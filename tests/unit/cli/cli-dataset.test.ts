// The dataset commands of the `survey` CLI (init, check) and folders as inputs, run as a child process.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutFiles, newReadme, TABLE_END, TABLE_START } from '../../../lib/dataset';
import type { SurveyRecord } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';
import { runSurvey } from '../../support/survey-cli';

const TIMEOUT = 60_000;
let dir = '';

function survey(...args: string[]) {
  return runSurvey(dir, ...args);
}

const records: SurveyRecord[] = [
  claim({ id: 'clm_glm5_00001', model: 'GLM-5', kind: 'framework', stage: null, value: 'slime' }),
  claim({ id: 'clm_glm5_00002', model: 'GLM-5', value: 'GRPO', position: { start: 5, end: 9 } }),
  claim({ id: 'clm_kimi_00001', model: 'Kimi K2.7 Code', value: 'PPO' }),
  claim({ id: 'clm_kimi_00002', model: 'Kimi K2.7 Code', value: 'Gone', updated_at: '2026-12-01T00:00:00Z', deleted_at: '2026-12-01T00:00:00Z' }),
  model({ model: 'GLM-5', vendor: 'Zhipu AI' }),
];

/** Writes a valid dataset of `records` into `name` and returns its folder. */
function dataset(name: string, recs: readonly SurveyRecord[] = records): string {
  const root = path.join(dir, name);
  mkdirSync(path.join(root, 'records', 'claims'), { recursive: true });
  for (const [p, text] of layoutFiles(recs)) writeFileSync(path.join(root, p), text);
  writeFileSync(path.join(root, 'README.md'), newReadme('Team survey', recs));
  return root;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'survey-dataset-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('survey init', () => {
  it(
    'makes an empty dataset that survey check accepts, and refuses to overwrite one',
    async () => {
      const made = await survey('init', 'fresh', '--title', 'Our survey');
      expect(made.code).toBe(0);
      expect(readFileSync(path.join(dir, 'fresh', 'README.md'), 'utf8')).toMatch(/^# Our survey\n[\s\S]*<!-- survey:table -->\n\| Model \|/);
      expect(readFileSync(path.join(dir, 'fresh', 'records', 'models.jsonl'), 'utf8')).toBe('');
      expect(await survey('check', 'fresh')).toMatchObject({ code: 0, stdout: 'ok: 0 claims and 0 model records in 1 file; the README table is up to date\n' });
      const again = await survey('init', 'fresh');
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('fresh already holds README.md');
      expect(await survey('init')).toMatchObject({ code: 2 });
    },
    TIMEOUT,
  );
});

describe('survey check', () => {
  it(
    'accepts a dataset in the layout whose README table is what survey render gives',
    async () => {
      dataset('good');
      writeFileSync(path.join(dir, 'good', 'LICENSE'), 'CC-BY-4.0\n');
      const r = await survey('check', 'good');
      expect(r).toMatchObject({ code: 0, stdout: 'ok: 3 claims (and 1 tombstone) and 1 model record in 3 files; the README table is up to date\n' });
      // The README's table is exactly `survey render` of the records folder.
      const rendered = await survey('render', path.join('good', 'records'));
      const readme = readFileSync(path.join(dir, 'good', 'README.md'), 'utf8');
      expect(readme.slice(readme.indexOf(TABLE_START) + TABLE_START.length + 1, readme.indexOf(TABLE_END))).toBe(rendered.stdout);
      expect(rendered.stdout).not.toContain('Gone');
    },
    TIMEOUT,
  );

  it(
    'names every problem as FILE:LINE and exits 1: a bad line, a misplaced record, a stale table, a file outside the layout',
    async () => {
      const root = dataset('bad');
      const glm = path.join(root, 'records', 'claims', 'glm-5.jsonl');
      writeFileSync(glm, `${readFileSync(glm, 'utf8')}{"schema":"rl-survey.claim/1","id":"broken"\n`);
      writeFileSync(path.join(root, 'records', 'claims', 'zeta-2.jsonl'), `${JSON.stringify(claim({ id: 'clm_misplaced01', model: 'GLM-5' }))}\n`);
      writeFileSync(path.join(root, 'records', 'notes.jsonl'), '');
      const r = await survey('check', 'bad');
      expect(r.code).toBe(1);
      expect(r.stdout.trim().split('\n')).toEqual([
        expect.stringMatching(/^bad\/records\/claims\/glm-5\.jsonl:3: not valid JSON/),
        'bad/records/claims/zeta-2.jsonl:1: a claim about "GLM-5" belongs in records/claims/glm-5.jsonl',
        'bad/records/notes.jsonl:0: not part of the dataset layout: records belong in records/claims/<model>.jsonl, records/models.jsonl and records/sources.jsonl',
      ]);
      expect(r.stderr).toContain('3 problems');
    },
    TIMEOUT,
  );

  it(
    'finds a README table that is not what survey render gives, and a wrong count, by line',
    async () => {
      const root = dataset('stale');
      const readmePath = path.join(root, 'README.md');
      const readme = readFileSync(readmePath, 'utf8');
      const lines = readme.split('\n');
      const row = lines.findIndex((l) => l.startsWith('| GLM-5'));
      lines[row] = lines[row]!.replace('slime', 'verl');
      writeFileSync(readmePath, lines.join('\n').replace('holds 3 claims', 'holds 5 claims'));
      const r = await survey('check', 'stale');
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`stale/README.md:${row + 1}: the survey table is not what "survey render records" gives`);
      expect(r.stdout).toContain('stale/README.md:');
      expect(r.stdout).toContain('the counts line should read "This dataset holds 3 claims about 2 models."');
    },
    TIMEOUT,
  );

  it(
    'refuses a records file over 32 MB by its size, without reading it',
    async () => {
      const root = dataset('huge');
      const big = path.join(root, 'records', 'claims', 'big.jsonl');
      writeFileSync(big, '');
      truncateSync(big, 50 * 1024 * 1024);
      const r = await survey('check', 'huge');
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('huge/records/claims/big.jsonl:0: the file is 50.0 MB; a records file may be at most 32.0 MB');
    },
    TIMEOUT,
  );

  it(
    'needs a folder that exists',
    async () => {
      const r = await survey('check', 'nowhere');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('nowhere: no such folder');
    },
    TIMEOUT,
  );
});

describe('survey build', () => {
  /** Every file of a dataset folder, path → text. */
  const files = (root: string) =>
    Object.fromEntries(
      ['README.md', 'records/models.jsonl', ...readdirSync(path.join(root, 'records', 'claims')).map((f) => `records/claims/${f}`)]
        .sort()
        .map((p) => [p, readFileSync(path.join(root, p), 'utf8')]),
    );

  it(
    'rewrites a dataset laid out by hand (table pasted, no counts, files out of order, a record in another model’s file) as the publish writes it, keeping the curators’ text; a second build changes nothing',
    async () => {
      const clean = dataset('built-clean');
      const root = dataset('built');
      const readmePath = path.join(root, 'README.md');
      // The curators' own text, a stale table and a counts line a person wrote.
      const readme = readFileSync(readmePath, 'utf8').replace('holds 3 claims', 'holds 7 claims').replace('slime', 'verl');
      writeFileSync(readmePath, `${readme}\n## How we curate\n\nOur own words, kept.\n`);
      writeFileSync(path.join(clean, 'README.md'), `${readFileSync(path.join(clean, 'README.md'), 'utf8')}\n## How we curate\n\nOur own words, kept.\n`);
      const glm = path.join(root, 'records', 'claims', 'glm-5.jsonl');
      const kimi = path.join(root, 'records', 'claims', 'kimi-k2.7-code.jsonl');
      const glmLines = readFileSync(glm, 'utf8').trim().split('\n');
      // GLM-5's second claim misplaced in Kimi's file.
      writeFileSync(kimi, `${readFileSync(kimi, 'utf8')}${glmLines[1]}\n`);
      writeFileSync(glm, `${glmLines[0]}\n`);
      expect((await survey('check', 'built')).code).toBe(1);

      const first = await survey('build', 'built');
      expect(first.code).toBe(0);
      expect(first.stdout).toContain('wrote built/README.md');
      expect(first.stdout).toMatch(/built: \d+ files? changed/);
      // Byte for byte what a dataset written by the publish's own functions holds, the curators' section kept.
      expect(files(root)).toEqual(files(clean));
      expect(readFileSync(readmePath, 'utf8')).toContain('Our own words, kept.');
      const check = await survey('check', 'built');
      expect(check.code).toBe(0);

      const second = await survey('build', 'built');
      expect(second.code).toBe(0);
      expect(second.stdout).toBe('built: already up to date\n');
      expect(files(root)).toEqual(files(clean));
    },
    TIMEOUT,
  );

  it(
    'writes nothing when a line is invalid, and names it by FILE:LINE',
    async () => {
      const root = dataset('built-bad');
      const glm = path.join(root, 'records', 'claims', 'glm-5.jsonl');
      const before = `${readFileSync(glm, 'utf8')}{"schema":"rl-survey.claim/1", "id": \n`;
      writeFileSync(glm, before);
      const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
      const r = await survey('build', 'built-bad');
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('built-bad/records/claims/glm-5.jsonl:3:');
      expect(r.stderr).toContain('nothing was written');
      expect(readFileSync(glm, 'utf8')).toBe(before);
      expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toBe(readme);
    },
    TIMEOUT,
  );

  it(
    'is named by check where the README is stale',
    async () => {
      const root = dataset('built-named');
      writeFileSync(path.join(root, 'README.md'), readFileSync(path.join(root, 'README.md'), 'utf8').replace('holds 3 claims', 'holds 4 claims'));
      const r = await survey('check', 'built-named');
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('("survey build ." writes it)');
    },
    TIMEOUT,
  );
});

describe('folders as inputs', () => {
  it(
    'validate, stats and merge read a folder’s .jsonl files recursively',
    async () => {
      const root = dataset('folder');
      const [valid, stats, merged] = await Promise.all([
        survey('validate', 'folder'),
        survey('stats', path.join('folder', 'records'), '--json'),
        survey('merge', 'folder', '-o', '-'),
      ]);
      expect(valid).toMatchObject({ code: 0, stdout: 'ok: 5 records in 3 files\n' });
      expect(JSON.parse(stats.stdout)).toMatchObject({ files: 3, claims: 3, deleted: 1, models: 1 });
      expect(merged.code).toBe(0);
      expect(merged.stdout.trim().split('\n')).toHaveLength(5);
      expect(readFileSync(path.join(root, 'records', 'models.jsonl'), 'utf8')).toContain('Zhipu AI');
      mkdirSync(path.join(dir, 'empty'), { recursive: true });
      expect(await survey('validate', 'empty')).toMatchObject({ code: 2, stderr: expect.stringContaining('empty: a folder without .jsonl files') });
    },
    TIMEOUT,
  );
});
