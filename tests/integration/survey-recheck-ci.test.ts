// The weekly recheck `survey init` writes, run as the hosts run it: the GitHub workflow's steps (all but the install
// line, which the packed-package test runs) and the GitLab job's script lines, in a dataset made by `survey init`
// whose sources are served on 127.0.0.1, with the real CLI rechecking them. The issue goes through a fake `gh` on
// PATH (GitHub) and a fake GitLab API on 127.0.0.1 (GitLab): the first run opens one issue with the report, the
// second replaces that issue's text and opens no other.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaimRecord } from '../../lib/schema';
import {
  GITHUB_RECHECK_PATH,
  GITLAB_RECHECK_JOB,
  githubRecheckWorkflow,
  RECHECK_ISSUE_BODY,
  RECHECK_LABEL,
  RECHECK_REPORT,
  RECHECK_TITLE,
} from '../../scripts/survey/ci-recheck';
import { DEFAULT_INSTALL, GITLAB_CI_PATH } from '../../scripts/survey/ci-files';
import { githubRunSteps, gitlabRunLines, runCiLines, runGithubSteps, type GithubRunStep } from '../support/ci-run';
import { fakeGh } from '../support/fake-gh';
import { startFakeGitlab, type FakeGitlab } from '../support/fake-gitlab';
import { on, serve, writeRecords, type Served } from '../support/recheck-server';
import { surveyOnPath } from '../support/survey-package';
import { tinyPdf } from '../support/tiny-pdf';

const TIMEOUT = 120_000;
const INSTALL = /^npm install --global --no-audit --no-fund \S+$/;
const MARKUP = 'We train with <b>GRPO</b> written as markup, which stays text in the report.';
const SCRIPTED = 'The policy is optimised with PPO and a learned reward model.';
const PLAIN = 'Some words about the model that are long enough to anchor on.';

let dir = '';
let bin = '';
let served: Served;

/** What a host's runner has: our `survey` on PATH (after `extra`), and the system's tools. */
const runner = (...extra: string[]) => ({ ...process.env, NO_COLOR: '1', PATH: [...extra, bin, process.env.PATH].join(':') });

/** A dataset made by `survey init` holding claims on three served sources: one unchanged, one gone, one a 404. */
function dataset(name: string): string {
  const work = path.join(dir, name);
  execFileSync(path.join(bin, 'survey'), ['init', name], { cwd: dir, env: runner(), stdio: 'pipe' });
  const b = served.base;
  const claims: ClaimRecord[] = [
    on(`${b}/t/markup`, 'clm_ci_markup', MARKUP, MARKUP, { model: 'GLM-5' }),
    on(`${b}/t/markup`, 'clm_ci_script', SCRIPTED, SCRIPTED, { model: 'GLM-5', value: 'PPO' }),
    on(`${b}/t/404`, 'clm_ci_404', PLAIN, PLAIN, { model: 'Zeta-2' }),
  ];
  writeRecords(work, claims);
  return work;
}

/** What every run of the recheck must have found in this dataset, as its report says. */
function expectReport(report: string): void {
  expect(report).toMatch(/^# Recheck of \d{4}-\d{2}-\d{2}\n/);
  expect(report).toContain('## GLM-5');
  expect(report).toContain('**gone**');
  expect(report).toContain('Not read: HTTP 404');
  expect(report).not.toContain('<b>');
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'survey-recheck-ci-'));
  bin = await surveyOnPath(path.join(dir, 'cli'));
  served = await serve([], {}, tinyPdf([['An unused PDF.']]));
}, TIMEOUT);
afterAll(() => served?.server.closeAllConnections());
afterAll(() => new Promise<void>((resolve) => (served ? served.server.close(() => resolve()) : resolve())));
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the GitHub recheck workflow’s steps', () => {
  const context = { 'github.token': 'ghs_job_token', 'github.repository': 'team/survey' };
  const run = (id: number) => ({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'team/survey', GITHUB_RUN_ID: String(id) });

  it(
    'recheck with the real CLI, open one issue labelled survey-recheck with the report, then edit that issue on the next run',
    async () => {
      const work = dataset('gh-recheck');
      const steps = githubRunSteps(readFileSync(path.join(work, GITHUB_RECHECK_PATH), 'utf8'));
      expect(steps[0]!.run).toMatch(INSTALL);
      const gh = fakeGh(path.join(dir, 'fake-gh'));
      const env = runner(gh.bin);

      const first = await runGithubSteps(steps.slice(1), work, context, run(101), env);
      expect(first, first.output).toMatchObject({ code: 0, failed: null });
      const report = readFileSync(path.join(work, RECHECK_REPORT), 'utf8');
      expectReport(report);
      expect(first.output).toMatch(/^\[\d\/2\] /m);
      const calls = gh.calls();
      expect(calls.map((c) => c.args.slice(0, 2).join(' '))).toEqual(['label create', 'issue list', 'issue create']);
      for (const c of calls) expect(c).toMatchObject({ token: 'ghs_job_token', repo: 'team/survey' });
      expect(calls[1]!.args).toEqual(['issue', 'list', '--label', RECHECK_LABEL, '--state', 'open', '--limit', '1', '--json', 'number', '--jq', '.[].number']);
      expect(calls[2]!.args).toEqual(['issue', 'create', '--title', RECHECK_TITLE, '--label', RECHECK_LABEL, '--body-file', RECHECK_ISSUE_BODY]);
      expect(gh.issues()).toHaveLength(1);
      const opened = gh.issues()[0]!;
      expect(opened).toMatchObject({ number: 1, title: RECHECK_TITLE, labels: [RECHECK_LABEL], state: 'open' });
      expect(opened.body.startsWith(report)).toBe(true);
      expect(opened.body).toContain('(https://github.com/team/survey/actions/runs/101)');

      // The next week: the open issue is found and its text replaced; no second issue.
      const second = await runGithubSteps(steps.slice(1), work, context, run(102), env);
      expect(second, second.output).toMatchObject({ code: 0, failed: null });
      expect(second.output).toContain('Updated issue #1 with the report.');
      const again = gh.calls().slice(calls.length);
      expect(again.map((c) => c.args.slice(0, 3).join(' '))).toEqual([`label create ${RECHECK_LABEL}`, 'issue list --label', 'issue edit 1']);
      expect(again[2]!.args).toEqual(['issue', 'edit', '1', '--body-file', RECHECK_ISSUE_BODY]);
      expect(gh.issues()).toHaveLength(1);
      expectReport(gh.issues()[0]!.body);
      expect(gh.issues()[0]!.body).toContain('/actions/runs/102)');
      // Nothing of the run is meant to be committed: the dataset's records are as they were.
      expect(readFileSync(path.join(work, 'records', 'claims', 'glm-5.jsonl'), 'utf8')).toContain('clm_ci_script');
    },
    TIMEOUT,
  );

  it(
    'cut a report longer than an issue holds at a line, saying where the whole report is',
    async () => {
      const work = path.join(dir, 'gh-long');
      mkdirSync(work);
      const line = `- ${'word '.repeat(38)}end\n`;
      const report = `# Recheck of 2026-12-07\n\n${line.repeat(Math.ceil(90_000 / line.length))}`;
      writeFileSync(path.join(work, RECHECK_REPORT), report);
      const make = githubRunSteps(githubRecheckWorkflow(DEFAULT_INSTALL)).find((s: GithubRunStep) => s.name === "Make the issue's text")!;
      const done = await runCiLines([make.run], work, run(103), runner());
      expect(done.code, done.output).toBe(0);
      const body = readFileSync(path.join(work, RECHECK_ISSUE_BODY), 'utf8');
      expect(body.length).toBeLessThan(65_536);
      const [kept, note] = body.split('\n\n**The report is longer than an issue holds and was cut here.**');
      expect(report.startsWith(`${kept}\n`)).toBe(true);
      expect(kept!.length).toBeGreaterThan(59_000);
      expect(note).toContain('https://github.com/team/survey/actions/runs/103');
    },
    TIMEOUT,
  );
});

describe('the GitLab recheck job’s script lines', () => {
  const TOKEN = 'glpat-issues';
  let api: FakeGitlab;
  beforeAll(async () => {
    api = await startFakeGitlab('42', TOKEN);
  });
  afterAll(() => api?.close());
  const job = (id: number, token: string) => ({
    CI_PIPELINE_SOURCE: 'schedule',
    CI_API_V4_URL: api.apiUrl,
    CI_PROJECT_ID: '42',
    CI_JOB_URL: `https://gitlab.example.test/team/survey/-/jobs/${id}`,
    SURVEY_ISSUE_TOKEN: token,
  });

  it(
    'say what to set without the token; recheck, POST one issue with the report, then PUT that issue on the next run',
    async () => {
      const work = dataset('gl-recheck');
      const all = gitlabRunLines(readFileSync(path.join(work, GITLAB_CI_PATH), 'utf8'), GITLAB_RECHECK_JOB);
      expect(all.filter((l) => INSTALL.test(l))).toHaveLength(1);
      const lines = all.filter((l) => !INSTALL.test(l));

      const without = await runCiLines(lines, work, job(7, ''), runner());
      expect(without.code).toBe(1);
      expect(without.output).toContain('Set the CI/CD variable SURVEY_ISSUE_TOKEN');
      expect(api.requests).toEqual([]);

      const first = await runCiLines(lines, work, job(8, TOKEN), runner());
      expect(first, first.output).toMatchObject({ code: 0, failed: null });
      const report = readFileSync(path.join(work, RECHECK_REPORT), 'utf8');
      expectReport(report);
      expect(api.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'GET /api/v4/projects/42/issues 200',
        'POST /api/v4/projects/42/issues 201',
      ]);
      expect(api.requests.every((r) => r.token === TOKEN)).toBe(true);
      expect(api.requests[0]!.query).toEqual({ labels: RECHECK_LABEL, state: 'opened', per_page: '1' });
      expect(api.requests[1]!.form).toMatchObject({ title: RECHECK_TITLE, labels: RECHECK_LABEL });
      expect(api.issues).toHaveLength(1);
      expect(api.issues[0]!.description.startsWith(report)).toBe(true);
      expect(api.issues[0]!.description).toContain('(https://gitlab.example.test/team/survey/-/jobs/8)');
      expect(first.output).toContain(`Opened ${api.apiUrl.replace('/api/v4', '')}/team/survey/-/issues/1 with the report.`);

      const second = await runCiLines(lines, work, job(9, TOKEN), runner());
      expect(second, second.output).toMatchObject({ code: 0, failed: null });
      expect(api.requests.slice(2).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
        'GET /api/v4/projects/42/issues 200',
        'PUT /api/v4/projects/42/issues/1 200',
      ]);
      expect(Object.keys(api.requests[3]!.form)).toEqual(['description']);
      expect(api.issues).toHaveLength(1);
      expectReport(api.issues[0]!.description);
      expect(api.issues[0]!.description).toContain('/-/jobs/9)');
      expect(second.output).toContain('/team/survey/-/issues/1 with the report.');
    },
    TIMEOUT,
  );

  it(
    'fail, opening nothing, when GitLab refuses the token',
    async () => {
      const work = dataset('gl-refused');
      const lines = gitlabRunLines(readFileSync(path.join(work, GITLAB_CI_PATH), 'utf8'), GITLAB_RECHECK_JOB).filter((l) => !INSTALL.test(l));
      const before = api.requests.length;
      const issues = api.issues.length;
      const refused = await runCiLines(lines, work, job(10, 'glpat-wrong'), runner());
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain('401');
      expect(api.requests.slice(before).map((r) => `${r.method} ${r.status}`)).toEqual(['GET 401']);
      expect(api.issues).toHaveLength(issues);
    },
    TIMEOUT,
  );
});
