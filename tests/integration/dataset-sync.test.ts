// @vitest-environment node
// The dataset sync engine against a real git server (git http-backend on 127.0.0.1 with a survey-check hook):
// two curators with separate file systems, the merges, deletions, faults and hostile datasets; the server's side
// checked with the git CLI.
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileText, layoutFiles, newReadme, recordHash, sourcesText } from '../../lib/dataset';
import { cloneIsComplete, SyncError, type HttpClient } from '../../lib/dataset/git';
import { SOURCE_SCHEMA, type ClaimRecord, type SourceRecord, type SurveyRecord } from '../../lib/schema';
import { Curator } from '../support/curators';
import { startGitServer, type GitServer } from '../support/git-server';
import { claim, model } from '../unit/fixtures/records';

const TIMEOUT = 300_000;
let server: GitServer;
let seq = 0;

beforeAll(async () => {
  server = await startGitServer();
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** A fresh dataset repository (made by `survey init`'s README and an empty models file, committed by the host). */
function repo(seed: SurveyRecord[] = []): string {
  const name = `team-${++seq}`;
  const files: Record<string, string> = { 'README.md': newReadme('Team survey', seed) };
  for (const [path, text] of layoutFiles(seed)) files[path] = text;
  server.createRepo(name, { seed: files });
  return name;
}

function curator(name: string, user: 'alice' | 'bob' | 'reader', extra: Partial<ConstructorParameters<typeof Curator>[0]> = {}): Curator {
  return new Curator({ url: server.url(name), user, token: `${user}-token`, name: user === 'alice' ? 'Alice' : user === 'bob' ? 'Bob' : 'Reader', ...extra });
}

const at = (minute: number) => `2026-12-01T10:${String(minute).padStart(2, '0')}:00Z`;
const c = (id: string, model: string, minute: number, value = `v${minute}`, extra: Partial<ClaimRecord> = {}) =>
  claim({
    id,
    model,
    value,
    created_at: at(0),
    updated_at: at(minute),
    source: { ...claim().source, url: `https://example.org/${model.toLowerCase()}` },
    ...extra,
  });

/** A file of the branch on the server, read with the git CLI. */
function show(name: string, path: string, ref = 'main'): string {
  return server.git(name, 'show', `${ref}:${path}`);
}

/** The subjects of the branch's commits, newest first, and the parents of each. */
function log(name: string, ref = 'main'): Array<{ subject: string; author: string; parents: number }> {
  return server
    .git(name, 'log', '--format=%s%x09%an%x09%P', ref)
    .trim()
    .split('\n')
    .map((l) => {
      const [subject, author, parents] = l.split('\t');
      return { subject: subject!, author: author!, parents: (parents ?? '').split(' ').filter(Boolean).length };
    });
}

/** Wraps an HTTP client to run `before` once, just before the first request that matches. */
function onceBefore(match: (url: string, method: string) => boolean, action: () => Promise<void>): (http: HttpClient) => HttpClient {
  let done = false;
  return (http) => ({
    async request(req) {
      if (!done && match(req.url, req.method ?? 'GET')) {
        done = true;
        await action();
      }
      return http.request(req);
    },
  });
}

const isReceivePackPost = (url: string, method: string) => method === 'POST' && url.endsWith('/git-receive-pack');

describe('testing a connection', () => {
  it(
    'says plainly what is wrong: bad token, unreachable, no such repository, no such branch, no write access',
    async () => {
      const name = repo();
      expect((await curator(name, 'alice').sync.testConnection()).ok).toBe(true);
      const bad = await new Curator({ url: server.url(name), user: 'alice', token: 'wrong' }).sync.testConnection();
      expect(bad.error).toMatchObject({ code: 'auth', message: expect.stringContaining('refused the token (401)') });
      const nowhere = await new Curator({ url: 'http://127.0.0.1:9/none.git', user: 'alice', token: 'x' }).sync.testConnection();
      expect(nowhere.error).toMatchObject({ code: 'unreachable', message: expect.stringContaining('Cannot reach 127.0.0.1:9') });
      const missing = await new Curator({ url: server.url('no-such-repo'), user: 'alice', token: 'alice-token' }).sync.testConnection();
      expect(missing.error?.code).toBe('not-found');
      const branch = await curator(name, 'alice', { branch: 'dataset' }).sync.testConnection();
      expect(branch.error).toMatchObject({ code: 'no-branch', message: 'The repository has no branch "dataset" (it has main).' });
      const readerCurator = curator(name, 'reader');
      const reader = await readerCurator.sync.testConnection();
      expect(reader).toMatchObject({ ok: false, canWrite: false, error: { code: 'read-only' } });
      // A read-only token still pulls; its publish says why it cannot.
      expect((await readerCurator.pull()).outcome.head).toMatch(/^[0-9a-f]{40}$/);
      readerCurator.store.save(c('clm_read_00001', 'GLM-5', 1));
      await expect(readerCurator.publish()).rejects.toMatchObject({ code: 'read-only' });
    },
    TIMEOUT,
  );
});

describe('an empty repository', () => {
  it(
    'is fine to connect to, and the first publish makes the branch with the whole layout',
    async () => {
      const name = `empty-${++seq}`;
      server.createRepo(name);
      const a = curator(name, 'alice', { connection: { title: 'Our RL survey' } });
      expect(await a.sync.testConnection()).toMatchObject({ ok: true, empty: true, branches: [] });
      expect((await a.pull()).outcome).toMatchObject({ head: null, plan: { added: 0 } });
      a.store.save(c('clm_empty_0001', 'GLM-5', 1), model({ model: 'GLM-5', vendor: 'Zhipu AI' }));
      const out = await a.publish();
      expect(out).toMatchObject({ status: 'published', pushedTo: 'main' });
      expect(server.git(name, 'ls-tree', '-r', '--name-only', 'main').trim().split('\n')).toEqual([
        'README.md',
        'records/claims/glm-5.jsonl',
        'records/models.jsonl',
      ]);
      expect(show(name, 'README.md')).toMatch(/^# Our RL survey\n/);
      expect(log(name)).toHaveLength(1);
    },
    TIMEOUT,
  );
});

describe('two curators on one dataset', () => {
  it(
    'A publishes; B pulls; both edit different claims of one model file and both publish; the newer edit of one claim wins everywhere',
    async () => {
      const name = repo();
      const a = curator(name, 'alice');
      const b = curator(name, 'bob');
      a.store.save(
        c('clm_glm_000001', 'GLM-5', 1),
        c('clm_glm_000002', 'GLM-5', 1, 'slime'),
        c('clm_kimi_00001', 'Kimi K2', 1),
        model({ model: 'GLM-5', vendor: 'Zhipu AI' }),
      );
      const first = await a.publish();
      expect(first.status).toBe('published');
      expect(first.plan.message).toMatch(/^Recipe Lens: 3 claims added, 1 model record updated on 2 models\n/);
      expect(a.store.pending()).toEqual([]);
      // The server has one commit by Alice with the files in the layout.
      expect(log(name)[0]).toMatchObject({ subject: 'Recipe Lens: 3 claims added, 1 model record updated on 2 models', author: 'Alice' });
      expect(show(name, 'records/claims/glm-5.jsonl')).toBe(
        fileText([...a.store.records.values()].filter((r) => r.model === 'GLM-5' && r.schema.includes('claim'))),
      );
      expect(show(name, 'README.md')).toContain('This dataset holds 3 claims about 2 models.');
      expect(server.git(name, 'ls-tree', '-r', '--name-only', 'main').trim().split('\n')).toEqual([
        'README.md',
        'records/claims/glm-5.jsonl',
        'records/claims/kimi-k2.jsonl',
        'records/models.jsonl',
      ]);

      const pulled = await b.pull();
      expect(pulled.outcome.plan).toMatchObject({ added: 4, conflicts: [] });
      expect(
        b.store
          .claims()
          .map((x) => x.id)
          .sort(),
      ).toEqual(['clm_glm_000001', 'clm_glm_000002', 'clm_kimi_00001']);
      expect(b.store.pending()).toEqual([]);

      // Different claims, neighbouring lines of the same file.
      a.store.save(c('clm_glm_000001', 'GLM-5', 2, 'edited by A'));
      b.store.save(c('clm_glm_000002', 'GLM-5', 3, 'edited by B'));
      await a.publish();
      const second = await b.publish();
      expect(second.status).toBe('published');
      const glm = show(name, 'records/claims/glm-5.jsonl');
      expect(glm).toContain('edited by A');
      expect(glm).toContain('edited by B');
      await a.pull();
      expect(a.store.claim('clm_glm_000002')!.value).toBe('edited by B');

      // The same claim edited at different times: B's later edit wins, on the server and for A.
      a.store.save(c('clm_kimi_00001', 'Kimi K2', 5, 'A at 10:05'));
      b.store.save(c('clm_kimi_00001', 'Kimi K2', 7, 'B at 10:07'));
      await a.publish();
      const later = await b.publish();
      expect(later.plan.conflicts).toEqual([]);
      expect(show(name, 'records/claims/kimi-k2.jsonl')).toContain('B at 10:07');
      await a.pull();
      expect(a.store.claim('clm_kimi_00001')!.value).toBe('B at 10:07');
      expect(a.store.pending()).toEqual([]);

      // …and the other way round: B's edit is older than what A published, so B is asked, with A's newer version shown.
      a.store.save(c('clm_kimi_00001', 'Kimi K2', 9, 'A at 10:09'));
      b.store.save(c('clm_kimi_00001', 'Kimi K2', 8, 'B at 10:08'));
      await a.publish();
      const overtaken = await b.publish();
      expect(overtaken.status).toBe('nothing');
      expect(overtaken.plan.conflicts.map((x) => [x.key, x.reason])).toEqual([['clm_kimi_00001', 'overtaken']]);
      const asked = await b.pull();
      expect(asked.outcome.plan.conflicts.map((x) => x.reason)).toEqual(['overtaken']);
      expect(b.store.claim('clm_kimi_00001')!.value).toBe('B at 10:08');
      await b.pull(new Map([['claim:clm_kimi_00001', 'theirs']]));
      expect(b.store.claim('clm_kimi_00001')!.value).toBe('A at 10:09');
      expect(b.store.pending()).toEqual([]);
      expect(log(name).every((entry) => entry.parents <= 1)).toBe(true);
      // The token went with every request: the server never had to ask for it.
      const traffic = server.requests.filter((r) => r.path.startsWith(`/${name}.git/`));
      expect(traffic.length).toBeGreaterThan(10);
      expect(traffic.filter((r) => r.status === 401)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'the same claim edited at the same time is a conflict shown to the second curator, settled, then published',
    async () => {
      const name = repo([c('clm_tie_000001', 'GLM-5', 1)]);
      const a = curator(name, 'alice');
      const b = curator(name, 'bob');
      await a.pull();
      await b.pull();
      a.store.save(c('clm_tie_000001', 'GLM-5', 4, 'GRPO'));
      b.store.save(c('clm_tie_000001', 'GLM-5', 4, 'PPO'));
      await a.publish();
      const refused = await b.publish();
      expect(refused.status).toBe('nothing');
      expect(refused.plan.conflicts).toMatchObject([{ key: 'clm_tie_000001', reason: 'tie', diffs: [{ field: 'value', ours: 'PPO', theirs: 'GRPO' }] }]);
      const { outcome } = await b.pull();
      expect(outcome.plan.conflicts).toMatchObject([{ ref: 'claim:clm_tie_000001', reason: 'tie' }]);
      // Settled with B's version: stamped after A's, so it is newer and published.
      await b.pull(new Map([['claim:clm_tie_000001', 'mine']]));
      expect(b.store.claim('clm_tie_000001')!.updated_at > at(4)).toBe(true);
      expect((await b.publish()).status).toBe('published');
      await a.pull();
      expect(a.store.claim('clm_tie_000001')!.value).toBe('PPO');
      expect(JSON.parse(show(name, 'records/claims/glm-5.jsonl')).value).toBe('PPO');
    },
    TIMEOUT,
  );

  it(
    'a deletion travels as a tombstone: gone for B too, gone from the table, never brought back',
    async () => {
      const name = repo([c('clm_del_000001', 'GLM-5', 1), c('clm_del_000002', 'GLM-5', 1, 'kept')]);
      const a = curator(name, 'alice');
      const b = curator(name, 'bob');
      await a.pull();
      await b.pull();
      a.store.delete('clm_del_000001', at(3));
      const out = await a.publish();
      expect(out.plan.totals).toMatchObject({ deleted: 1 });
      const file = show(name, 'records/claims/glm-5.jsonl');
      expect(file).toContain(`"deleted_at":"${at(3)}"`);
      expect(show(name, 'README.md')).toContain('This dataset holds 1 claim about 1 model.');
      const pulled = await b.pull();
      expect(pulled.outcome.plan.deleted).toBe(1);
      expect(b.store.claims().map((x) => x.id)).toEqual(['clm_del_000002']);
      // B still has the claim's old version somewhere (an old export): a pull never brings it back.
      expect((await b.pull()).outcome.plan).toMatchObject({ added: 0, updated: 0 });
      expect(b.store.claim('clm_del_000001')!.deleted_at).toBe(at(3));
    },
    TIMEOUT,
  );
});

describe('source records', () => {
  const rec = (model: string, minute: number, checked: string): SourceRecord => ({
    schema: SOURCE_SCHEMA,
    url: `https://example.org/${model.toLowerCase()}`,
    checked,
    status: 'unchanged',
    claims: { unchanged: 1, edited: 0, gone: 0 },
    updated_at: at(minute),
  });

  it(
    "are published into records/sources.jsonl (alone too, and merged when the branch moved), pulled by the other curator, and move the README's 'as of' days",
    async () => {
      const name = repo([c('clm_src_000001', 'GLM-5', 1, 'slime', { kind: 'framework', stage: null }), c('clm_src_000002', 'Kimi K2', 1)]);
      const a = curator(name, 'alice');
      const b = curator(name, 'bob');
      await a.pull();
      await b.pull();
      // Alice rechecked GLM-5's source: a publish of that record alone.
      a.store.saveSources(rec('GLM-5', 5, '2026-12-05'));
      const first = await a.publish();
      expect(first).toMatchObject({ status: 'published', plan: { writes: [], sources: [rec('GLM-5', 5, '2026-12-05')] } });
      expect(log(name)[0]).toMatchObject({ subject: 'Recipe Lens: 1 source record updated', author: 'Alice' });
      expect(show(name, 'records/sources.jsonl')).toBe(sourcesText([rec('GLM-5', 5, '2026-12-05')]));
      expect(show(name, 'README.md')).toContain('not disclosed (checked 2026-12-05)');
      // Publishing again writes nothing; an older record of the same source never replaces the branch's.
      expect((await a.publish()).status).toBe('nothing');

      // Bob rechecked Kimi K2's source and publishes after Alice moved the branch again: merged by URL.
      b.store.saveSources(rec('Kimi K2', 6, '2026-12-06'), rec('GLM-5', 2, '2026-12-02'));
      a.store.saveSources(rec('GLM-5', 7, '2026-12-07'));
      b.restart(onceBefore(isReceivePackPost, async () => void (await a.publish())));
      const merged = await b.publish();
      expect(merged).toMatchObject({ status: 'published', merges: 1 });
      expect(merged.plan.sources).toEqual([rec('Kimi K2', 6, '2026-12-06')]);
      expect(show(name, 'records/sources.jsonl')).toBe(sourcesText([rec('GLM-5', 7, '2026-12-07'), rec('Kimi K2', 6, '2026-12-06')]));
      const readme = show(name, 'README.md');
      expect(readme).toContain('not disclosed (checked 2026-12-07)');
      expect(readme).toContain('not disclosed (checked 2026-12-06)');

      // Each pulls the other's: the later record of each source wins.
      const pulled = await b.pull();
      expect(pulled.outcome.sources).toEqual([rec('GLM-5', 7, '2026-12-07'), rec('Kimi K2', 6, '2026-12-06')]);
      expect([...b.store.sources.values()].sort((x, y) => (x.url < y.url ? -1 : 1))).toEqual(pulled.outcome.sources);
      await a.pull();
      expect(a.store.sources.get(rec('Kimi K2', 6, '').url)).toEqual(rec('Kimi K2', 6, '2026-12-06'));

      // A review carries claims and models only: its source records wait for a publish to the branch.
      a.store.saveSources(rec('GLM-5', 9, '2026-12-09'));
      a.store.save(c('clm_src_000003', 'GLM-5', 9, 'GRPO'));
      const review = await a.publish({ target: 'review' });
      expect(review).toMatchObject({ status: 'published', pushedTo: 'curators/alice', plan: { sources: [] } });
      expect(server.git(name, 'diff', '--name-only', 'main', 'curators/alice').trim().split('\n')).toEqual(['records/claims/glm-5.jsonl']);
    },
    TIMEOUT,
  );
});

describe('when the branch moves during a publish', () => {
  it(
    'merges by record id with a merge commit and pushes again, never forcing (server-side refusal)',
    async () => {
      const name = repo([c('clm_ff_0000001', 'GLM-5', 1, 'one'), c('clm_ff_0000002', 'GLM-5', 1, 'two')]);
      const a = curator(name, 'alice');
      await a.pull();
      const b = curator(name, 'bob');
      await b.pull();
      a.store.save(c('clm_ff_0000001', 'GLM-5', 2, 'A edits one'));
      b.store.save(c('clm_ff_0000002', 'GLM-5', 3, 'B edits two'), c('clm_ff_0000003', 'Kimi K2', 3, 'B adds'));
      // A publishes after B fetched and made its commit, just before B's push reaches the server.
      b.restart(onceBefore(isReceivePackPost, async () => void (await a.publish())));
      const aHead = () => server.git(name, 'rev-parse', 'main').trim();
      const out = await b.publish();
      expect(out).toMatchObject({ status: 'published', merges: 1 });
      const entries = log(name);
      expect(entries[0]).toMatchObject({ subject: 'Merge main into this publish by record id', parents: 2 });
      expect(entries.map((e) => e.author)).toEqual(expect.arrayContaining(['Alice', 'Bob']));
      const glm = show(name, 'records/claims/glm-5.jsonl');
      expect(glm).toContain('A edits one');
      expect(glm).toContain('B edits two');
      // The merged README is what survey render gives (the hook checked it too).
      expect(show(name, 'README.md')).toContain('This dataset holds 3 claims about 2 models.');
      // A's commit is in the history: nothing was overwritten.
      const aCommit = server.git(name, 'log', '--format=%H', '--author=Alice', '-1', 'main').trim();
      expect(() => server.git(name, 'merge-base', '--is-ancestor', aCommit, aHead())).not.toThrow();
      // B's first push reached the server and was refused there (A had moved main); the second, merged, went through.
      expect(server.requests.filter((r) => r.user === 'bob' && r.method === 'POST' && r.path === `/${name}.git/git-receive-pack`)).toHaveLength(2);
    },
    TIMEOUT,
  );

  it(
    'stops with the conflicts when the other curator published another version with the same time',
    async () => {
      const name = repo([c('clm_race_00001', 'GLM-5', 1)]);
      const a = curator(name, 'alice');
      const b = curator(name, 'bob');
      await a.pull();
      await b.pull();
      a.store.save(c('clm_race_00001', 'GLM-5', 5, 'GRPO'));
      b.store.save(c('clm_race_00001', 'GLM-5', 5, 'PPO'));
      b.restart(
        onceBefore(
          (url) => url.includes('service=git-receive-pack'),
          async () => void (await a.publish()),
        ),
      );
      const error = await b.publish().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SyncError);
      expect(error).toMatchObject({ code: 'conflicts', details: ['claim clm_race_00001: value differ with the same updated_at'] });
      expect(JSON.parse(show(name, 'records/claims/glm-5.jsonl')).value).toBe('GRPO');
      expect(b.store.pending().map((r) => (r as ClaimRecord).id)).toEqual(['clm_race_00001']);
      // B saw main move when it asked to push, so its first pack never left: the merge found the tie first.
      expect(server.requests.filter((r) => r.user === 'bob' && r.method === 'POST' && r.path === `/${name}.git/git-receive-pack`)).toEqual([]);
    },
    TIMEOUT,
  );
});

describe('bytes follow what changed', () => {
  it(
    'a publish sends, and a pull receives, deltas of the big README and of the changed files, both ways and again',
    async () => {
      // 1,500 claims over 50 models: a README of several hundred KB, a footnote per passage.
      const seed: ClaimRecord[] = [];
      for (let i = 0; i < 1500; i++) {
        const m = `Model ${String(i % 50).padStart(2, '0')}`;
        const exact = `In stage ${i}, ${m} is trained with GRPO on ${i % 7}k verifiable prompts, and the reward is checked by rules.`;
        seed.push(c(`clm_big_${String(i).padStart(6, '0')}`, m, 1, 'GRPO', { quote: { exact, prefix: 'Then ', suffix: ' Next.' } }));
      }
      const name = repo(seed);
      const readmeCompressed = () => deflateSync(show(name, 'README.md')).byteLength;
      expect(show(name, 'README.md').length).toBeGreaterThan(300_000);
      const a = curator(name, 'alice');
      const b = curator(name, 'bob');
      await a.pull();
      await b.pull();
      const edit = (who: Curator, ids: number[], minute: number, value: string) => {
        for (const i of ids) who.store.save({ ...who.store.claim(`clm_big_${String(i).padStart(6, '0')}`)!, value, updated_at: at(minute) });
      };
      const moved = async (who: Curator, work: () => Promise<unknown>) => {
        const before = { sent: who.meter.sent, received: who.meter.received };
        await work();
        return { sent: who.meter.sent - before.sent, received: who.meter.received - before.received };
      };

      // A changes what the table shows for 3 claims of 3 models: the host's hook checks the README it rebuilds from the delta.
      edit(a, [7, 420, 1333], 2, 'GRPO (re-checked)');
      const published = await moved(a, () => a.publish());
      expect(published.sent).toBeLessThan(readmeCompressed() / 4);
      expect(show(name, 'README.md')).toContain('GRPO (re-checked)');
      // B receives them as a thin pack, made whole in B's clone.
      const pulled = await moved(b, () => b.pull());
      expect(pulled.received).toBeLessThan(readmeCompressed() / 4);
      expect(b.store.claim('clm_big_000420')!.value).toBe('GRPO (re-checked)');
      // B publishes on top: its README's delta base is the version its pull brought.
      edit(b, [8, 999], 3, 'PPO');
      const again = await moved(b, () => b.publish());
      expect(again.sent).toBeLessThan(readmeCompressed() / 4);
      expect(JSON.parse(show(name, 'records/claims/model-08.jsonl').split('\n')[0]!).value).toBe('PPO');
      // A pulls B's changes onto its own publish (its base README written by itself, not fetched).
      const back = await moved(a, () => a.pull());
      expect(back.received).toBeLessThan(readmeCompressed() / 4);
      expect(a.store.claim('clm_big_000999')!.value).toBe('PPO');
      expect(server.git(name, 'fsck', '--no-dangling').trim()).toBe('');
      expect(log(name).map((e) => e.author)).toEqual(['Bob', 'Alice', 'Test Server']);
    },
    TIMEOUT,
  );
});

describe('publishing for review', () => {
  it(
    'pushes to curators/<name>, leaves the branch alone, links the review, and keeps the changes unpublished until merged',
    async () => {
      const name = repo([c('clm_rev_000001', 'GLM-5', 1)]);
      const a = curator(name, 'alice', { connection: { forge: 'gitea' } });
      await a.pull();
      a.store.save(c('clm_rev_000002', 'GLM-5', 2, 'for review'));
      const out = await a.publish({ target: 'review', message: 'GLM-5: one more claim, please check the quote' });
      expect(out).toMatchObject({ status: 'published', pushedTo: 'curators/alice' });
      expect(out.reviewUrl).toBe(`${server.origin}/${name}/compare/main...curators/alice`);
      expect(show(name, 'records/claims/glm-5.jsonl', 'curators/alice')).toContain('for review');
      expect(show(name, 'records/claims/glm-5.jsonl')).not.toContain('for review');
      expect(server.git(name, 'log', '-1', '--format=%s', 'curators/alice').trim()).toBe('GLM-5: one more claim, please check the quote');
      expect(a.store.pending().map((r) => (r as ClaimRecord).id)).toEqual(['clm_rev_000002']);
      // A second review publish builds on the review branch (merged by id), never forced.
      a.store.save(c('clm_rev_000003', 'GLM-5', 3, 'second'));
      const again = await a.publish({ target: 'review' });
      expect(again.merges).toBe(1);
      const reviewed = show(name, 'records/claims/glm-5.jsonl', 'curators/alice');
      expect(reviewed).toContain('for review');
      expect(reviewed).toContain('second');
    },
    TIMEOUT,
  );
});

describe('faults: nothing is lost', () => {
  it(
    'a bad token: a clear message, the store untouched',
    async () => {
      const name = repo();
      const a = new Curator({ url: server.url(name), user: 'alice', token: 'expired' });
      a.store.save(c('clm_tok_000001', 'GLM-5', 1));
      await expect(a.publish()).rejects.toMatchObject({ code: 'auth', message: expect.stringContaining('Check the token') });
      expect(a.store.pending()).toHaveLength(1);
      await expect(a.pull()).rejects.toMatchObject({ code: 'auth' });
    },
    TIMEOUT,
  );

  it(
    'the server down during a push: the changes stay unpublished, and a retry publishes them once',
    async () => {
      const name = repo();
      const a = curator(name, 'alice');
      a.store.save(c('clm_down_00001', 'GLM-5', 1), c('clm_down_00002', 'GLM-5', 2));
      a.restart(onceBefore(isReceivePackPost, () => server.stop()));
      await expect(a.publish()).rejects.toMatchObject({ code: 'unreachable' });
      await server.start();
      expect(a.store.pending()).toHaveLength(2);
      expect(log(name)).toHaveLength(1);
      a.restart();
      expect((await a.publish()).status).toBe('published');
      expect(a.store.pending()).toEqual([]);
      expect(log(name)).toHaveLength(2);
      expect(show(name, 'records/claims/glm-5.jsonl').trim().split('\n')).toHaveLength(2);
    },
    TIMEOUT,
  );

  it(
    'a clone killed half way is wiped and made again; nothing half-made is used',
    async () => {
      const name = repo([c('clm_kill_00001', 'GLM-5', 1), c('clm_kill_00002', 'Kimi K2', 1)]);
      const fsName = `killed-clone-${seq}`;
      // The page dies while the pack is arriving: the response stops after its first chunk.
      const dying = (http: HttpClient): HttpClient => ({
        async request(req) {
          const res = await http.request(req);
          if (req.method !== 'POST' || !req.url.endsWith('/git-upload-pack') || !res.body) return res;
          const body = res.body;
          return {
            ...res,
            body: (async function* () {
              for await (const chunk of body) {
                yield chunk;
                throw new Error('the page was closed');
              }
            })(),
          };
        },
      });
      const a = curator(name, 'alice', { fsName, wrapHttp: dying });
      await expect(a.pull()).rejects.toBeInstanceOf(SyncError);
      expect(await cloneIsComplete(a.fs, '/dataset', server.url(name), 'main')).toBe(false);
      expect(a.store.records.size).toBe(0);
      // Opened again on the same disk: the half-made clone is wiped, cloned again, and used.
      a.restart();
      const { outcome } = await a.pull();
      expect(outcome.plan.added).toBe(2);
      expect(await cloneIsComplete(a.fs, '/dataset', server.url(name), 'main')).toBe(true);
      expect(
        a.store
          .claims()
          .map((x) => x.id)
          .sort(),
      ).toEqual(['clm_kill_00001', 'clm_kill_00002']);
    },
    TIMEOUT,
  );

  it(
    'a push killed half way changes nothing on the server; the next publish carries every change once',
    async () => {
      const name = repo([c('clm_push_00001', 'GLM-5', 1)]);
      const a = curator(name, 'alice');
      await a.pull();
      a.store.save(c('clm_push_00001', 'GLM-5', 2, 'edited'), c('clm_push_00002', 'GLM-5', 2, 'added'));
      const headBefore = server.git(name, 'rev-parse', 'main').trim();
      // The request body stops after its first chunk: the server gets half a pack.
      a.restart((http) => ({
        request(req) {
          if (!isReceivePackPost(req.url, req.method ?? 'GET') || !req.body) return http.request(req);
          const body = req.body;
          return http.request({
            ...req,
            body: (async function* () {
              for await (const chunk of body) {
                yield chunk.subarray(0, Math.max(1, Math.floor(chunk.byteLength / 2)));
                throw new Error('the browser was closed');
              }
            })(),
          });
        },
      }));
      await expect(a.publish()).rejects.toBeInstanceOf(SyncError);
      expect(server.git(name, 'rev-parse', 'main').trim()).toBe(headBefore);
      expect(a.store.pending()).toHaveLength(2);
      a.restart();
      expect((await a.publish()).status).toBe('published');
      const lines = show(name, 'records/claims/glm-5.jsonl').trim().split('\n');
      expect(lines.map((l) => JSON.parse(l).id)).toEqual(['clm_push_00001', 'clm_push_00002']);
      expect(log(name)).toHaveLength(2);
      expect(server.git(name, 'fsck', '--no-dangling').trim()).toBe('');
    },
    TIMEOUT,
  );

  it(
    'the server refusing the push from its hook: the hook’s message is shown, nothing is published',
    async () => {
      const name = repo([c('clm_hook_00001', 'GLM-5', 1)]);
      // Someone committed a file outside the export form straight to the host: every push is now refused by survey check.
      const odd = JSON.stringify(c('clm_hook_00002', 'Kimi K2', 1)).replace('{"schema"', '{ "schema"');
      server.commitDirectly(name, 'main', { 'records/claims/kimi-k2.jsonl': `${odd}\n` }, 'Hand-edited file');
      const a = curator(name, 'alice');
      await a.pull();
      a.store.save(c('clm_hook_00003', 'GLM-5', 2));
      const error = (await a.publish().catch((e: unknown) => e)) as SyncError;
      expect(error).toMatchObject({ code: 'refused', message: expect.stringContaining('The server refused the publish') });
      expect(error.details).toEqual(
        expect.arrayContaining([
          expect.stringContaining('records/claims/kimi-k2.jsonl:1: not in the export order and form'),
          expect.stringContaining('push to refs/heads/main refused: the dataset does not pass survey check'),
        ]),
      );
      expect(log(name)[0]!.subject).toBe('Hand-edited file');
      expect(a.store.pending()).toHaveLength(1);
    },
    TIMEOUT,
  );
});

describe('a hostile dataset', () => {
  it(
    'a malformed line: refused by file and line, nothing stored',
    async () => {
      const name = repo([c('clm_host_00001', 'GLM-5', 1)]);
      server.commitDirectly(
        name,
        'main',
        { 'records/claims/glm-5.jsonl': `${JSON.stringify(c('clm_host_00001', 'GLM-5', 1))}\n{"schema":"rl-survey.claim/1",\n` },
        'Broken line',
      );
      const b = curator(name, 'bob');
      const error = (await b.pull().catch((e: unknown) => e)) as SyncError;
      expect(error).toMatchObject({ code: 'invalid-dataset' });
      expect(error.details).toEqual([expect.stringMatching(/^records\/claims\/glm-5\.jsonl:2: not valid JSON/)]);
      expect(b.store.records.size).toBe(0);
      b.store.save(c('clm_host_00009', 'GLM-5', 3));
      await expect(b.publish()).rejects.toMatchObject({ code: 'invalid-dataset' });
      expect(log(name)[0]!.subject).toBe('Broken line');
    },
    TIMEOUT,
  );

  it(
    'markup in every field: kept as text, exactly',
    async () => {
      const markup = '<img src=x onerror=alert(1)>"\'&<script>alert(document.cookie)</script>';
      const hostile = claim({
        id: 'clm_markup00001',
        model: 'GLM-5',
        value: markup.slice(0, 190),
        evidence_reason: markup,
        note: markup,
        curator: markup,
        quote: { exact: markup, prefix: '<b>', suffix: '</b>' },
        source: { url: 'https://example.org/x?a=<b>', title: markup, kind: 'official_blog', publisher: markup, published: null, accessed: '2026-11-29' },
        link: 'https://example.org/x#:~:text=%3Cscript%3E',
      });
      const name = repo();
      server.commitDirectly(name, 'main', { 'records/claims/glm-5.jsonl': fileText([hostile]) }, 'Markup');
      const b = curator(name, 'bob');
      const { outcome } = await b.pull();
      expect(outcome.plan.added).toBe(1);
      expect(b.store.claim('clm_markup00001')).toEqual(hostile);
    },
    TIMEOUT,
  );

  it(
    'a 50 MB file: refused by its size, nothing stored',
    async () => {
      const name = repo([c('clm_big_000001', 'GLM-5', 1)]);
      const line = `${JSON.stringify(c('clm_big_000002', 'Big', 1))}\n`;
      server.commitDirectly(
        name,
        'main',
        { 'records/claims/big.jsonl': Buffer.from(line.repeat(Math.ceil((50 * 1024 * 1024) / line.length))) },
        'A 50 MB file',
      );
      expect(Number(server.git(name, 'cat-file', '-s', 'main:records/claims/big.jsonl').trim())).toBeGreaterThan(50 * 1024 * 1024);
      const b = curator(name, 'bob');
      const error = (await b.pull().catch((e: unknown) => e)) as SyncError;
      expect(error).toMatchObject({ code: 'invalid-dataset' });
      expect(error.details).toEqual([expect.stringMatching(/^records\/claims\/big\.jsonl:0: the file is 50\.\d MB; a records file may be at most 32\.0 MB$/)]);
      expect(b.store.records.size).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'a path outside records/: never read as records; a file under records/ outside the layout: refused',
    async () => {
      const name = repo([c('clm_path_00001', 'GLM-5', 1)]);
      const evil = fileText([c('clm_evil_00001', 'GLM-5', 9, 'from outside')]);
      server.commitDirectly(name, 'main', { 'evil.jsonl': evil, 'notes/records/claims/glm-5.jsonl': evil }, 'Records outside records/');
      const b = curator(name, 'bob');
      const { outcome } = await b.pull();
      expect(outcome.ignored).toEqual(['evil.jsonl']);
      expect(b.store.claims().map((x) => x.id)).toEqual(['clm_path_00001']);
      server.commitDirectly(name, 'main', { 'records/claims/deeper/glm-5.jsonl': evil }, 'A folder inside claims');
      const refused = (await b.pull().catch((e: unknown) => e)) as SyncError;
      expect(refused).toMatchObject({ code: 'invalid-dataset' });
      expect(refused.details).toEqual([expect.stringMatching(/^records\/claims\/deeper\/glm-5\.jsonl:0: not part of the dataset layout/)]);
      expect(b.store.claims().map((x) => x.id)).toEqual(['clm_path_00001']);
      expect(recordHash(b.store.claim('clm_path_00001')!)).toBe(b.store.bases.get('claim:clm_path_00001'));
    },
    TIMEOUT,
  );
});
