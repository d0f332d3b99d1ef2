// @vitest-environment node
// Reviews that merge cleanly, on a real git host (git http-backend on 127.0.0.1, a protected branch: its hook runs
// `survey check` on main and `survey check --review` on review branches). Three curators open reviews from the same
// head through the engine the extension uses, each on other models; the host merges them in turn with a plain
// `git merge --no-ff` (once a squash merge) and no merge driver; after each merge the dataset's own CI — the run
// lines of the workflow `survey init` writes, with the CLI installed from the packed tarball into an empty prefix —
// rebuilds the README in a clean clone, pushes it through the hook, and passes `survey check`. A fourth review of a
// model the branch changed meanwhile conflicts on the host; publishing it for review again settles it by record id.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followReviews, indexDataset, layoutFiles, newReadme, recordReview, type OpenedReview } from '../../lib/dataset';
import type { ClaimRecord, SurveyRecord } from '../../lib/schema';
import { ciFiles, GITHUB_WORKFLOW_PATH } from '../../scripts/survey/ci-files';
import { githubRunLines, runCiLines } from '../support/ci-run';
import { Curator } from '../support/curators';
import { startGitServer, type GitServer, type GitUser } from '../support/git-server';
import { npmEnv, packSurvey } from '../support/survey-package';
import { claim } from '../unit/fixtures/records';

const TIMEOUT = 600_000;
const USERS: Record<string, GitUser> = Object.fromEntries(['alice', 'bob', 'carol', 'dave', 'ci'].map((u) => [u, { token: `${u}-token`, write: true }]));
let server: GitServer;
let dir = '';
let tarball = '';

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'dataset-reviews-'));
  tarball = packSurvey(path.join(dir, 'packed'));
  server = await startGitServer({ users: USERS });
}, 180_000);
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const at = (minute: number) => `2026-12-04T10:${String(minute).padStart(2, '0')}:00Z`;
const c = (id: string, model: string, minute: number, value: string, extra: Partial<ClaimRecord> = {}) =>
  claim({
    id,
    model,
    value,
    created_at: at(0),
    updated_at: at(minute),
    source: { ...claim().source, url: `https://example.org/${model.toLowerCase()}` },
    ...extra,
  });

const SEED: SurveyRecord[] = [
  c('clm_glm_000001', 'GLM-5', 0, 'slime', { kind: 'framework', stage: null }),
  c('clm_kimi_00001', 'Kimi K2.7 Code', 0, 'PPO'),
  c('clm_mm_000001', 'MiniMax M3', 0, 'CISPO'),
  c('clm_zeta_00001', 'Zeta-2', 0, 'GRPO'),
];

let ciRuns = 0;
/** One run of the dataset's workflow, as the host runs it on `event` for `ref`: a clean clone, an empty npm prefix, every run line. */
async function runWorkflow(name: string, event: 'push' | 'pull_request', branch: string) {
  const work = path.join(dir, `ci-${++ciRuns}`);
  const prefix = path.join(dir, `prefix-${ciRuns}`);
  mkdirSync(prefix);
  const url = server.url(name).replace('http://', 'http://ci:ci-token@');
  const env = npmEnv({
    npm_config_prefix: prefix,
    npm_config_offline: 'true',
    PATH: `${path.join(prefix, 'bin')}:${process.env.PATH}`,
    HOME: work,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GITHUB_EVENT_NAME: event,
    GITHUB_REF: event === 'push' ? `refs/heads/${branch}` : `refs/pull/${ciRuns}/merge`,
  });
  // Asynchronously: the server answering the clone runs in this process.
  await promisify(execFile)('git', ['clone', '-q', '-b', branch, url, work], { env });
  const lines = githubRunLines(readFileSync(path.join(work, GITHUB_WORKFLOW_PATH), 'utf8'));
  expect(lines[0]).toBe(`npm install --global --no-audit --no-fund ${tarball}`);
  return runCiLines(lines, work, {}, env);
}

function curator(name: string, user: string): Curator {
  return new Curator({ url: server.url(name), user, token: `${user}-token`, name: user[0]!.toUpperCase() + user.slice(1) });
}

/** The files a review changed against the branch it was opened from. */
function reviewFiles(name: string, branch: string, base: string): string[] {
  return server.git(name, 'diff', '--name-only', base, branch).trim().split('\n').filter(Boolean);
}

describe('reviews on a git host that merges with plain git merge', () => {
  it(
    'three reviews of other models merge one after another without a conflict; the CI rebuilds the README after each and the branch passes survey check',
    async () => {
      const name = 'team-reviews';
      const files: Record<string, string> = { 'README.md': newReadme('Team survey', SEED) };
      for (const [p, text] of layoutFiles(SEED)) files[p] = text;
      for (const [p, text] of ciFiles({ install: tarball, branch: 'main' })) files[p] = text;
      server.createRepo(name, { seed: files });
      const start = server.git(name, 'rev-parse', 'main').trim();

      // Everyone starts from the same head, and each opens a review of another model.
      const team = { alice: curator(name, 'alice'), bob: curator(name, 'bob'), carol: curator(name, 'carol'), dave: curator(name, 'dave') };
      for (const who of Object.values(team)) await who.pull();
      team.alice.store.save(c('clm_glm_000001', 'GLM-5', 5, 'slime (async)', { kind: 'framework', stage: null }), c('clm_glm_000002', 'GLM-5', 5, 'GRPO'));
      team.bob.store.save(c('clm_kimi_00002', 'Kimi K2.7 Code', 6, 'Muon'), c('clm_new_000001', 'Aurora-1', 6, 'DPO'));
      team.carol.store.save(c('clm_mm_000002', 'MiniMax M3', 7, 'GRPO'));
      // Dave, from the same head, changes the GLM-5 claim Alice changes too, later than she does.
      team.dave.store.save(c('clm_glm_000001', 'GLM-5', 9, 'slime (Dave)', { kind: 'framework', stage: null }), c('clm_glm_000003', 'GLM-5', 9, 'RLHF'));
      const reviews: Record<string, OpenedReview[]> = {};
      for (const [who, curatorOf] of Object.entries(team)) {
        const out = await curatorOf.publish({ target: 'review' });
        expect(out).toMatchObject({ status: 'published', pushedTo: `curators/${who}`, base: start });
        reviews[who] = recordReview([], { branch: out.pushedTo, url: out.reviewUrl, commit: out.commit, base: out.base, writes: out.plan.writes }, at(30));
        // A review carries records only: the README stays as the branch has it.
        expect(reviewFiles(name, `curators/${who}`, start).every((f) => f.startsWith('records/'))).toBe(true);
        // The pull request's own run: the records are checked, the README may lag.
        const pr = await runWorkflow(name, 'pull_request', `curators/${who}`);
        expect(pr.output).toContain('a review: the README table is rebuilt');
        expect(pr).toMatchObject({ code: 0, failed: null });
      }
      expect(server.git(name, 'rev-parse', 'main').trim()).toBe(start);

      const merges: Array<[string, 'merge' | 'squash']> = [
        ['alice', 'merge'],
        ['bob', 'merge'],
        ['carol', 'squash'],
      ];
      for (const [who, how] of merges) {
        const merged = server.merge(name, 'main', `curators/${who}`, how);
        expect(merged.conflicts, `${who}'s review merges without a conflict`).toEqual([]);
        const ci = await runWorkflow(name, 'push', 'main');
        expect(ci, ci.output).toMatchObject({ code: 0, failed: null });
        expect(ci.output).toContain('the README table is up to date');
        // The CI's commit is on top of the merge, and a clean clone of the branch passes the check as it stands.
        expect(server.git(name, 'log', '-1', '--format=%s', 'main').trim()).toBe("survey build: the README's table and counts from records/");
        expect(server.git(name, 'rev-parse', 'main~1').trim()).toBe(merged.commit);
        const after = await runWorkflow(name, 'pull_request', 'main');
        expect(after.code).toBe(0);
      }
      const readme = server.git(name, 'show', 'main:README.md');
      for (const v of ['slime (async)', 'Muon', 'Aurora-1', 'CISPO', 'GRPO']) expect(readme).toContain(v);
      expect(readme).toContain('This dataset holds 8 claims about 5 models.');

      // Each curator's pull sees where their review stands: merged (even squashed), or behind (Dave's).
      for (const [who, curatorOf] of Object.entries(team)) {
        const { outcome } = await curatorOf.pull();
        reviews[who] = followReviews(reviews[who]!, outcome.head, indexDataset(outcome.remote), at(40));
      }
      expect(Object.fromEntries(Object.entries(reviews).map(([who, r]) => [who, r[0]!.state]))).toEqual({
        alice: 'merged',
        bob: 'merged',
        carol: 'merged',
        dave: 'behind',
      });

      // Dave's review touches GLM-5, which the branch changed: the host's plain merge conflicts on its lines.
      const head = server.git(name, 'rev-parse', 'main').trim();
      expect(server.merge(name, 'main', 'curators/dave').conflicts).toEqual(['records/claims/glm-5.jsonl']);
      expect(server.git(name, 'rev-parse', 'main').trim()).toBe(head);
      // Update review: publishing for review again builds it on the new head, merged with his review by record id.
      const again = await team.dave.publish({ target: 'review' });
      expect(again).toMatchObject({ status: 'published', pushedTo: 'curators/dave', base: head });
      expect(server.git(name, 'merge-base', '--is-ancestor', head, 'curators/dave') === '').toBe(true);
      const merged = server.merge(name, 'main', 'curators/dave');
      expect(merged.conflicts).toEqual([]);
      const ci = await runWorkflow(name, 'push', 'main');
      expect(ci, ci.output).toMatchObject({ code: 0, failed: null });
      const glm = server
        .git(name, 'show', 'main:records/claims/glm-5.jsonl')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as ClaimRecord);
      // By id: Dave's newer version of the claim both changed wins; Alice's new claim and his are both kept.
      expect(glm.map((r) => [r.id, r.value])).toEqual([
        ['clm_glm_000001', 'slime (Dave)'],
        ['clm_glm_000002', 'GRPO'],
        ['clm_glm_000003', 'RLHF'],
      ]);
      // Nothing was forced: every review branch and the branch itself only moved forward.
      expect(server.git(name, 'merge-base', '--is-ancestor', start, 'main') === '').toBe(true);
      const { outcome } = await team.dave.pull();
      const daves = recordReview(
        reviews.dave!,
        { branch: again.pushedTo, url: again.reviewUrl, commit: again.commit, base: again.base, writes: again.plan.writes },
        at(50),
      );
      expect(followReviews(daves, outcome.head, indexDataset(outcome.remote), at(51))[0]!.state).toBe('merged');
    },
    TIMEOUT,
  );
});
