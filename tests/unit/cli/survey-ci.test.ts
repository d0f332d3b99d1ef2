// The CI that `survey init` writes: deterministic files a real YAML parser reads, whose own `run:` and `script:` lines
// (all but the install line, which the packed-package test runs) check a review, rebuild and push the README on the
// dataset's branch, and refuse an invalid dataset with FILE:LINE messages. Real git, a bare repository on disk.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileText, recordPath } from '../../../lib/dataset';
import { ciFiles, ciOptionProblem, DEFAULT_INSTALL, GITHUB_WORKFLOW_PATH, GITLAB_CI_PATH } from '../../../scripts/survey/ci-files';
import { GITHUB_RECHECK_PATH, GITLAB_RECHECK_JOB, RECHECK_CRON, RECHECK_REPORT } from '../../../scripts/survey/ci-recheck';
import { SURVEY_VERSION } from '../../../scripts/survey/version';
import { githubRunLines, githubRunSteps, gitlabRunLines, runCiLines } from '../../support/ci-run';
import { surveyOnPath } from '../../support/survey-package';
import { claim } from '../fixtures/records';

const TIMEOUT = 120_000;
const INSTALL = /^npm install --global --no-audit --no-fund \S+$/;
let dir = '';
let bin = '';
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Tester',
  GIT_AUTHOR_EMAIL: 'tester@example.test',
  GIT_COMMITTER_NAME: 'Tester',
  GIT_COMMITTER_EMAIL: 'tester@example.test',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};
/** What a host's runner has: our `survey` on PATH, git, and no one's git configuration. */
const runner = () => ({ ...process.env, ...GIT_ENV, PATH: `${bin}:${process.env.PATH}` });

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: runner(), encoding: 'utf8', stdio: 'pipe' });
}

function survey(cwd: string, ...args: string[]): string {
  return execFileSync(path.join(bin, 'survey'), args, { cwd, env: runner(), encoding: 'utf8', stdio: 'pipe' });
}

/** Runs `survey` and says how it ended, whatever the exit code. */
function surveyRun(cwd: string, ...args: string[]) {
  const run = spawnSync(path.join(bin, 'survey'), args, { cwd, env: runner(), encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A dataset made by `survey init`, committed and pushed to a bare repository `<name>.git`; returns both folders. */
function team(name: string, ...initArgs: string[]): { work: string; bare: string } {
  const work = path.join(dir, name);
  const bare = path.join(dir, `${name}.git`);
  survey(dir, 'init', name, ...initArgs);
  git(dir, 'init', '-q', '--bare', '-b', 'main', bare);
  git(bare, 'config', 'receive.advertisePushOptions', 'true');
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'survey init');
  git(work, 'remote', 'add', 'origin', bare);
  git(work, 'push', '-q', 'origin', 'main');
  return { work, bare };
}

/** A review as the extension's publish makes it: records only, on `curators/<who>`, pushed; the README untouched. */
function review(work: string, who: string, ...claims: ReturnType<typeof claim>[]): void {
  git(work, 'checkout', '-q', '-b', `curators/${who}`, 'main');
  for (const c of claims) {
    mkdirSync(path.dirname(path.join(work, recordPath(c))), { recursive: true });
    writeFileSync(path.join(work, recordPath(c)), fileText([c]));
  }
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', `Recipe Lens: review by ${who}`);
  git(work, 'push', '-q', 'origin', `curators/${who}`);
  git(work, 'checkout', '-q', 'main');
}

function clone(bare: string, into: string, branch = 'main'): string {
  const to = path.join(dir, into);
  git(dir, 'clone', '-q', '-b', branch, bare, to);
  return to;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'survey-ci-'));
  bin = await surveyOnPath(path.join(dir, 'cli'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the CI files survey init writes', () => {
  it('are the same bytes for the same options, parse as YAML, and install the CLI at a pinned version on every push and review', () => {
    const a = ciFiles({ install: DEFAULT_INSTALL, branch: 'main' });
    expect(ciFiles({ install: DEFAULT_INSTALL, branch: 'main' })).toEqual(a);
    expect([...a.keys()]).toEqual([GITHUB_WORKFLOW_PATH, GITHUB_RECHECK_PATH, GITLAB_CI_PATH]);
    expect(DEFAULT_INSTALL).toBe(`recipe-lens-survey@${SURVEY_VERSION}`);
    const gh = yaml.load(a.get(GITHUB_WORKFLOW_PATH)!) as any;
    expect(Object.keys(gh.on).sort()).toEqual(['pull_request', 'push']);
    expect(gh.permissions).toEqual({ contents: 'write' });
    const steps = gh.jobs.survey.steps as Array<{ uses?: string; run?: string; with?: Record<string, unknown> }>;
    expect(steps.map((s) => s.uses).filter(Boolean)).toEqual(['actions/checkout@v4', 'actions/setup-node@v4']);
    expect(steps[1]!.with).toEqual({ 'node-version': 20 });
    const ghLines = githubRunLines(a.get(GITHUB_WORKFLOW_PATH)!);
    expect(ghLines[0]).toBe(`npm install --global --no-audit --no-fund recipe-lens-survey@${SURVEY_VERSION}`);
    expect(ghLines.at(-1)).toContain('survey check .');
    const gl = yaml.load(a.get(GITLAB_CI_PATH)!) as any;
    expect(gl.survey.image).toBe('node:20');
    expect(gl.workflow.rules.map((r: { if: string }) => r.if)).toContain('$CI_PIPELINE_SOURCE == "merge_request_event"');
    const glLines = gitlabRunLines(a.get(GITLAB_CI_PATH)!, 'survey');
    expect(glLines[0]).toBe(ghLines[0]);
    expect(glLines.at(-1)).toContain('survey check .');
    // The install line is the one place to change: another spec changes that line only.
    const other = ciFiles({ install: 'https://example.org/recipe-lens-survey-0.1.0.tgz', branch: 'main' });
    const changed = (p: string) =>
      a
        .get(p)!
        .split('\n')
        .filter((l, i) => other.get(p)!.split('\n')[i] !== l);
    expect(changed(GITHUB_WORKFLOW_PATH)).toEqual([`        run: ${ghLines[0]}`]);
    expect(changed(GITHUB_RECHECK_PATH)).toEqual([`        run: ${ghLines[0]}`]);
    expect(changed(GITLAB_CI_PATH)).toEqual([`    - ${ghLines[0]}`, `    - ${ghLines[0]}`]);
  });

  it('add a weekly recheck: a scheduled GitHub workflow that may write issues only, and a GitLab job for scheduled pipelines only', () => {
    const files = ciFiles({ install: DEFAULT_INSTALL, branch: 'main' });
    const gh = yaml.load(files.get(GITHUB_RECHECK_PATH)!) as any;
    expect(Object.keys(gh.on).sort()).toEqual(['schedule', 'workflow_dispatch']);
    expect(gh.on.schedule).toEqual([{ cron: RECHECK_CRON }]);
    // Weekly: a fixed minute and hour, any day of the month, any month, one day of the week.
    const [minute, hour, dom, month, dow] = RECHECK_CRON.split(' ');
    expect([minute, hour].every((f) => /^\d+$/.test(f!))).toBe(true);
    expect([dom, month]).toEqual(['*', '*']);
    expect(dow).toMatch(/^[0-6]$/);
    expect(gh.permissions).toEqual({ contents: 'read', issues: 'write' });
    const steps = gh.jobs.recheck.steps as Array<{ name?: string; uses?: string; run?: string; env?: Record<string, string>; with?: Record<string, unknown> }>;
    expect(steps.map((s) => s.uses).filter(Boolean)).toEqual(['actions/checkout@v4', 'actions/setup-node@v4', 'actions/upload-artifact@v4']);
    expect(steps[1]!.with).toEqual({ 'node-version': 20 });
    const runs = githubRunSteps(files.get(GITHUB_RECHECK_PATH)!);
    // The same pinned install as the check workflow, then the recheck with a report.
    expect(runs[0]!.run).toBe(githubRunLines(files.get(GITHUB_WORKFLOW_PATH)!)[0]);
    expect(runs[1]!.run).toBe(`survey recheck . --report ${RECHECK_REPORT}`);
    expect(steps.find((s) => s.uses === 'actions/upload-artifact@v4')!.with).toEqual({ name: 'survey-recheck', path: RECHECK_REPORT });
    const issue = runs.at(-1)!;
    const expression = (e: string) => `\${{ ${e} }}`;
    expect(issue.env).toEqual({ GH_TOKEN: expression('github.token'), GH_REPO: expression('github.repository') });
    expect(issue.run).toContain('gh issue edit');
    expect(issue.run).toContain('gh issue create');

    const gl = yaml.load(files.get(GITLAB_CI_PATH)!) as any;
    const schedule = '$CI_PIPELINE_SOURCE == "schedule"';
    expect(gl.workflow.rules.map((r: { if: string }) => r.if)).toContain(schedule);
    expect(gl.survey.rules[0]).toEqual({ if: schedule, when: 'never' });
    const job = gl[GITLAB_RECHECK_JOB];
    expect(job.rules).toEqual([{ if: schedule }]);
    expect(job.image).toBe('node:20');
    expect(job.artifacts).toMatchObject({ when: 'always', paths: [RECHECK_REPORT] });
    const lines = gitlabRunLines(files.get(GITLAB_CI_PATH)!, GITLAB_RECHECK_JOB);
    expect(lines).toContain(githubRunLines(files.get(GITHUB_WORKFLOW_PATH)!)[0]);
    expect(lines).toContain(`survey recheck . --report ${RECHECK_REPORT}`);
    expect(lines.join('\n')).toContain('PRIVATE-TOKEN: $SURVEY_ISSUE_TOKEN');
  });

  it('refuse an install spec or a branch that would break the YAML or the shell', () => {
    expect(ciOptionProblem({ install: 'x; rm -rf /', branch: 'main' })).toMatch(/--install/);
    expect(ciOptionProblem({ install: 'recipe-lens-survey@0.1.0', branch: 'main"' })).toMatch(/--branch/);
    expect(ciOptionProblem({ install: 'git+https://example.org/team/recipe-lens.git#v0.1.0', branch: 'trunk' })).toBeNull();
  });

  it(
    'init writes them beside the dataset, refuses to overwrite them, and --ci adds them to a dataset that has records',
    () => {
      survey(dir, 'init', 'both', '--install', 'recipe-lens-survey@9.9.9', '--branch', 'trunk');
      const files = ciFiles({ install: 'recipe-lens-survey@9.9.9', branch: 'trunk' });
      for (const [p, text] of files) expect(readFileSync(path.join(dir, 'both', p), 'utf8')).toBe(text);
      expect(() => survey(dir, 'init', 'both', '--ci')).toThrow(
        /already holds \.github\/workflows\/survey-recheck\.yml, \.github\/workflows\/survey\.yml, \.gitlab-ci\.yml;/,
      );
      rmSync(path.join(dir, 'both', '.github'), { recursive: true });
      rmSync(path.join(dir, 'both', GITLAB_CI_PATH));
      expect(survey(dir, 'init', 'both', '--ci')).toContain(
        "Wrote the dataset's CI in both: .github/workflows/survey.yml, .github/workflows/survey-recheck.yml and .gitlab-ci.yml",
      );
      expect(readFileSync(path.join(dir, 'both', GITLAB_CI_PATH), 'utf8')).toBe(ciFiles({ install: DEFAULT_INSTALL, branch: 'main' }).get(GITLAB_CI_PATH));
      expect(() => survey(dir, 'init', 'bad', '--install', 'a b')).toThrow(/--install/);
    },
    TIMEOUT,
  );
});

describe('the GitHub workflow’s run lines', () => {
  it(
    'pass on a review whose README lags its records, rebuild and push the README after the merge, then pass on main',
    async () => {
      const { work, bare } = team('gh');
      const lines = githubRunLines(readFileSync(path.join(work, GITHUB_WORKFLOW_PATH), 'utf8'));
      expect(lines[0]).toMatch(INSTALL);
      const steps = lines.slice(1);
      review(work, 'alice', claim({ id: 'clm_gh_000001', model: 'GLM-5', value: 'slime', kind: 'framework', stage: null }));
      // The pull request's run: the review's README is behind its records, which the check on a review allows.
      const pr = clone(bare, 'gh-pr', 'curators/alice');
      const onReview = await runCiLines(steps, pr, { GITHUB_EVENT_NAME: 'pull_request', GITHUB_REF: 'refs/pull/1/merge' }, runner());
      expect(onReview.output).toContain('a review: the README table is rebuilt');
      expect(onReview).toMatchObject({ code: 0, failed: null });
      expect(git(bare, 'rev-parse', 'main')).toBe(git(work, 'rev-parse', 'main'));
      // Strictly, the review's README is stale: the same check without --review says what to run.
      const strict = surveyRun(pr, 'check', '.');
      expect(strict.code).toBe(1);
      expect(strict.stdout).toMatch(/^README\.md:\d+: .*survey build \./m);
      // The host merges it; the push to main's run rebuilds the README, commits and pushes it, and checks.
      git(work, 'merge', '-q', '--no-ff', '-m', 'Merge curators/alice', 'curators/alice');
      git(work, 'push', '-q', 'origin', 'main');
      const merged = git(bare, 'rev-parse', 'main').trim();
      const ci = clone(bare, 'gh-main');
      const onMain = await runCiLines(steps, ci, { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' }, runner());
      expect(onMain).toMatchObject({ code: 0, failed: null });
      expect(onMain.output).toContain('the README table is up to date');
      expect(git(bare, 'rev-parse', 'main~1').trim()).toBe(merged);
      expect(git(bare, 'log', '-1', '--format=%s', 'main').trim()).toBe("survey build: the README's table and counts from records/");
      const after = clone(bare, 'gh-after');
      expect(survey(after, 'check', '.')).toContain('ok: 1 claim');
      expect(readFileSync(path.join(after, 'README.md'), 'utf8')).toContain('slime');
      // Run again on the rebuilt head: nothing to commit, nothing pushed.
      const again = await runCiLines(steps, after, { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' }, runner());
      expect(again.code).toBe(0);
      expect(git(bare, 'rev-parse', 'main').trim()).toBe(git(after, 'rev-parse', 'HEAD').trim());
    },
    TIMEOUT,
  );

  it(
    'fail on an invalid record with its FILE:LINE, and commit nothing',
    async () => {
      const { work, bare } = team('gh-bad');
      const lines = githubRunLines(readFileSync(path.join(work, GITHUB_WORKFLOW_PATH), 'utf8')).slice(1);
      writeFileSync(path.join(work, 'records', 'claims', 'glm-5.jsonl'), '{"schema":"rl-survey.claim/1","id":"clm_x"}\n');
      git(work, 'add', '-A');
      git(work, 'commit', '-q', '-m', 'a hand edit');
      git(work, 'push', '-q', 'origin', 'main');
      const head = git(bare, 'rev-parse', 'main');
      const ci = clone(bare, 'gh-bad-ci');
      const run = await runCiLines(lines, ci, { GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' }, runner());
      expect(run.code).toBe(1);
      expect(run.output).toMatch(/records\/claims\/glm-5\.jsonl:1: /);
      expect(git(bare, 'rev-parse', 'main')).toBe(head);
    },
    TIMEOUT,
  );
});

describe('the GitLab job’s script lines', () => {
  it(
    'rebuild and push the README on the dataset’s branch with the push token, and say what to set without it',
    async () => {
      const { work, bare } = team('gl');
      const lines = gitlabRunLines(readFileSync(path.join(work, GITLAB_CI_PATH), 'utf8'), 'survey');
      expect(lines[0]).toMatch(INSTALL);
      const steps = lines.slice(1);
      review(work, 'bob', claim({ id: 'clm_gl_000001', model: 'Kimi K2.7 Code', value: 'PPO' }));
      const mr = clone(bare, 'gl-mr', 'curators/bob');
      expect((await runCiLines(steps, mr, { CI_PIPELINE_SOURCE: 'merge_request_event', CI_COMMIT_BRANCH: '' }, runner())).code).toBe(0);
      git(work, 'merge', '-q', '--no-ff', '-m', 'Merge curators/bob', 'curators/bob');
      git(work, 'push', '-q', 'origin', 'main');
      const ci = clone(bare, 'gl-main');
      const gitlab = {
        CI_PIPELINE_SOURCE: 'push',
        CI_COMMIT_BRANCH: 'main',
        CI_SERVER_PROTOCOL: 'https',
        CI_SERVER_FQDN: 'gitlab.example.test',
        CI_PROJECT_PATH: 'team/survey',
      };
      // Without the token the job cannot push: it says what to set, and the check fails on the stale README.
      const without = await runCiLines(steps, ci, { ...gitlab, SURVEY_PUSH_TOKEN: '' }, runner());
      expect(without.code).toBe(1);
      expect(without.output).toContain('Set the CI/CD variable SURVEY_PUSH_TOKEN');
      expect(without.output).toContain('survey build .');
      // With it, the push goes to the project's URL (here rewritten to the bare repository, as git's insteadOf does).
      const hostUrl = 'https://oauth2:glpat-test@gitlab.example.test/team/survey.git';
      const insteadOf = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: `url.${bare}.insteadOf`, GIT_CONFIG_VALUE_0: hostUrl };
      const withToken = await runCiLines(steps, ci, { ...gitlab, ...insteadOf, SURVEY_PUSH_TOKEN: 'glpat-test' }, runner());
      expect(withToken).toMatchObject({ code: 0, failed: null });
      expect(git(bare, 'log', '-1', '--format=%s', 'main').trim()).toBe("survey build: the README's table and counts from records/");
      expect(survey(clone(bare, 'gl-after'), 'check', '.')).toContain('ok: 1 claim');
    },
    TIMEOUT,
  );
});
