// @vitest-environment node
// Packs both ways, checked with the git CLI: the thin pack a push sends (changed files as deltas of the host's
// versions) is completed by `git index-pack --fix-thin` into exactly our commit; a thin pack git makes is stored in
// a clone whose bases live in another pack, read back, and built on by the next push.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPack, objectId, PackError, writePack } from '../../lib/dataset/git/pack';
import { IncompletePackError, localHaves, objectsToPush, storePack, type CloneRef } from '../../lib/dataset/git/transfer';

let root: string;
const author = { name: 'Test', email: 'test@example.test', timestamp: 1_800_000_000, timezoneOffset: 0 };
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'CLI',
  GIT_AUTHOR_EMAIL: 'cli@example.test',
  GIT_COMMITTER_NAME: 'CLI',
  GIT_COMMITTER_EMAIL: 'cli@example.test',
};

function cli(cwd: string, args: string[], input?: Uint8Array): Buffer {
  return execFileSync('git', args, { cwd, env: GIT_ENV, input, maxBuffer: 256 * 1024 * 1024 });
}

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'recipe-lens-pack-'));
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** A survey-like README: a row per model, a footnote per passage; `edit` changes some rows. */
function readme(rows: number, edit: (i: number) => string = () => ''): string {
  const lines = ['# Survey', '', '| Model | Stages | Algorithms |', '|---|---|---|'];
  for (let i = 0; i < rows; i++) lines.push(`| Model ${String(i).padStart(4, '0')} | reasoning_rl[^${i}] | GRPO${edit(i)} |`);
  for (let i = 0; i < rows; i++) lines.push(`[^${i}]: "In stage ${i}, the model is trained with GRPO." https://lab.example/r/${i}`);
  return `${lines.join('\n')}\n`;
}

function claims(model: number, edit = ''): string {
  let text = '';
  for (let i = 0; i < 30; i++)
    text += `${JSON.stringify({ id: `clm_${model}_${i}`, model: `Model ${model}`, value: `GRPO${i === 7 ? edit : ''}`, note: 'x'.repeat(80) })}\n`;
  return text;
}

/** A new isomorphic-git repository in a folder of `root`. */
async function newClone(name: string): Promise<CloneRef> {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  await git.init({ fs, dir, defaultBranch: 'main' });
  return { fs, dir, cache: {} };
}

/** Commits `files` (path → text) on top of `parent` with isomorphic-git: blobs, trees, commit, as the engine writes them. */
async function commitFiles(clone: CloneRef, parent: string | null, files: Record<string, string>): Promise<string> {
  const { dir } = clone;
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
    await git.add({ fs, dir, filepath: file });
  }
  return git.commit({ fs, dir, message: 'edit\n', author, committer: author, parent: parent ? [parent] : [], ref: 'refs/heads/main' });
}

function bareFrom(source: string, name: string): string {
  const bare = path.join(root, name);
  cli(root, ['clone', '-q', '--bare', source, bare]);
  return bare;
}

/** A repository made with the git CLI: a README committed as A, then changed in B. */
function cliHistory(name: string, first: string, second: string): { work: string; a: string; b: string } {
  const work = path.join(root, name);
  cli(root, ['init', '-q', '-b', 'main', work]);
  fs.writeFileSync(path.join(work, 'README.md'), first);
  cli(work, ['add', '-A']);
  cli(work, ['commit', '-q', '-m', 'A']);
  const a = cli(work, ['rev-parse', 'HEAD']).toString().trim();
  fs.writeFileSync(path.join(work, 'README.md'), second);
  cli(work, ['commit', '-q', '-am', 'B']);
  return { work, a, b: cli(work, ['rev-parse', 'HEAD']).toString().trim() };
}

const show = (repo: string, spec: string) => cli(repo, ['cat-file', '-p', spec]).toString('utf8');

describe('the thin pack a push sends', () => {
  it('holds only what changed, as deltas of the host’s versions, and git completes it into our commit', async () => {
    const clone = await newClone('push');
    const files: Record<string, string> = { 'README.md': readme(3000) };
    for (let m = 0; m < 40; m++) files[`records/claims/model-${m}.jsonl`] = claims(m);
    const a = await commitFiles(clone, null, files);
    const host = bareFrom(clone.dir, 'push-host.git');

    const b = await commitFiles(clone, a, {
      'README.md': readme(3000, (i) => (i % 700 === 5 ? ' (re-checked)' : '')),
      'records/claims/model-3.jsonl': claims(3, ' (re-checked)'),
      'records/claims/model-31.jsonl': claims(31, ' (re-checked)'),
      'records/claims/new-model.jsonl': claims(99),
    });
    const { objects, deltas } = await objectsToPush(clone, b, [a]);
    // The commit, three trees (root, records, claims), the README and three claims files.
    expect(objects).toHaveLength(8);
    expect(objects.filter((o) => o.type === 'commit')).toHaveLength(1);
    // The README, two edited claims files and the two bigger trees are deltas; the new file goes whole.
    expect(deltas).toBeGreaterThanOrEqual(4);
    const pack = await writePack(objects);
    // The README's bytes at hand (as the engine keeps them after reading or writing it) give the same pack.
    const known = new Map<string, Uint8Array>();
    for (const text of [readme(3000), readme(3000, (i) => (i % 700 === 5 ? ' (re-checked)' : ''))]) {
      const bytes = new TextEncoder().encode(text);
      known.set(await objectId('blob', bytes), bytes);
    }
    expect(Buffer.compare(await writePack((await objectsToPush({ ...clone, cache: {}, known }, b, [a])).objects), pack)).toBe(0);
    // A host that takes no thin pack gets the same objects, whole.
    const whole = await objectsToPush(clone, b, [a], { thin: false });
    expect(whole.deltas).toBe(0);
    expect(whole.objects.map((o) => o.type).sort()).toEqual(['blob', 'blob', 'blob', 'blob', 'commit', 'tree', 'tree', 'tree']);
    const readmeBytes = Buffer.byteLength(readme(3000));
    expect(pack.length).toBeLessThan(6000);
    expect(readmeBytes).toBeGreaterThan(200_000);

    cli(host, ['index-pack', '--fix-thin', '--stdin'], pack);
    cli(host, ['update-ref', 'refs/heads/main', b, a]);
    expect(show(host, 'main:README.md')).toBe(readme(3000, (i) => (i % 700 === 5 ? ' (re-checked)' : '')));
    expect(show(host, 'main:records/claims/model-31.jsonl')).toBe(claims(31, ' (re-checked)'));
    expect(show(host, 'main:records/claims/new-model.jsonl')).toBe(claims(99));
    expect(cli(host, ['fsck', '--no-dangling']).toString().trim()).toBe('');
    for (const p of fs.readdirSync(path.join(host, 'objects', 'pack')).filter((f) => f.endsWith('.idx')))
      cli(host, ['verify-pack', path.join(host, 'objects', 'pack', p)]);
  });

  it('sends nothing for a commit the host has, and everything to an empty host', async () => {
    const clone = await newClone('push-empty');
    const a = await commitFiles(clone, null, { 'README.md': readme(10), 'records/models.jsonl': '' });
    expect((await objectsToPush(clone, a, [a])).objects).toEqual([]);
    const all = await objectsToPush(clone, a, []);
    // The commit, the root and records trees, README and the empty models file: all whole.
    expect(all.objects.map((o) => o.type).sort()).toEqual(['blob', 'blob', 'commit', 'tree', 'tree']);
    expect(all.deltas).toBe(0);
    const host = path.join(root, 'push-empty-host.git');
    cli(root, ['init', '-q', '--bare', host]);
    cli(host, ['index-pack', '--stdin'], await writePack(all.objects));
    cli(host, ['update-ref', 'refs/heads/main', a]);
    expect(show(host, 'main:README.md')).toBe(readme(10));
  });

  it('names objects as git does', async () => {
    const text = new TextEncoder().encode('hello, dataset\n');
    expect(await objectId('blob', text)).toBe(execFileSync('git', ['hash-object', '--stdin'], { input: text }).toString().trim());
  });
});

describe('a thin pack that arrives', () => {
  it('is stored beside the pack holding its bases, made whole, read back, and the next push builds on it', async () => {
    // The host's history, made with the git CLI: A, then B with a few rows changed.
    const edited = readme(2000, (i) => (i === 1500 ? ' and PPO' : ''));
    const { work, a, b } = cliHistory('arrive-work', readme(2000), edited);

    // The clone got A first (a whole pack), then B as a thin pack: its README a delta of A's, which lives in the first pack.
    const clone = await newClone('arrive');
    expect(await storePack(clone, cli(work, ['pack-objects', '--revs', '--stdout', '-q'], Buffer.from(`${a}\n`)))).toBe(3);
    const thin = cli(work, ['pack-objects', '--revs', '--thin', '--stdout', '-q'], Buffer.from(`${b}\n^${a}\n`));
    expect(thin.length).toBeLessThan(1000);
    expect(await storePack(clone, thin)).toBe(3);
    // Made whole as git's index-pack --fix-thin does: A's README added to the second pack, which git itself can now read.
    const packs = fs.readdirSync(path.join(clone.dir, '.git', 'objects', 'pack'));
    expect(packs.filter((f) => f.endsWith('.idx'))).toHaveLength(2);
    expect(packs.filter((f) => f.endsWith('.pack'))).toHaveLength(2);
    const counts = packs
      .filter((f) => f.endsWith('.idx'))
      .map((f) => cli(root, ['verify-pack', '-v', path.join(clone.dir, '.git', 'objects', 'pack', f)]).toString())
      .map((out) => out.split('\n').filter((l) => /^[0-9a-f]{40} (commit|tree|blob)/.test(l)).length)
      .sort();
    expect(counts).toEqual([3, 4]);
    const fresh: CloneRef = { fs, dir: clone.dir, cache: {} };
    const { blob } = await git.readBlob({ fs, dir: clone.dir, oid: b, filepath: 'README.md', cache: fresh.cache });
    expect(Buffer.from(blob).toString('utf8')).toBe(edited);
    expect(await localHaves({ fs, dir: clone.dir, cache: {} })).toEqual([]);
    await git.writeRef({ fs, dir: clone.dir, ref: 'refs/remotes/origin/main', value: b });
    expect(await localHaves(fresh)).toEqual([b, a]);

    // The next push: a delta of B's README (itself a delta in the thin pack), completed by git on the host.
    await git.writeRef({ fs, dir: clone.dir, ref: 'refs/heads/main', value: b, force: true });
    const c = await commitFiles(fresh, b, { 'README.md': readme(2000, (i) => (i === 1500 ? ' and PPO' : i === 3 ? ' and DAPO' : '')) });
    const { objects, deltas } = await objectsToPush(fresh, c, [b]);
    expect(deltas).toBe(1);
    const host = bareFrom(work, 'arrive-host.git');
    cli(host, ['index-pack', '--fix-thin', '--stdin'], await writePack(objects));
    cli(host, ['update-ref', 'refs/heads/main', c]);
    expect(show(host, 'main:README.md')).toBe(readme(2000, (i) => (i === 1500 ? ' and PPO' : i === 3 ? ' and DAPO' : '')));
  });

  it('is refused, and removed, when its deltas name bases the clone does not have', async () => {
    const { work, a } = cliHistory(
      'orphan-work',
      readme(500),
      readme(500, (i) => (i === 9 ? '!' : '')),
    );
    const thin = cli(work, ['pack-objects', '--revs', '--thin', '--stdout', '-q'], Buffer.from(`HEAD\n^${a}\n`));
    const clone = await newClone('orphan');
    await expect(storePack(clone, thin)).rejects.toBeInstanceOf(IncompletePackError);
    expect(fs.readdirSync(path.join(clone.dir, '.git', 'objects', 'pack'))).toEqual([]);
  });

  it('is refused when damaged on the way, or not a pack', async () => {
    const pack = await writePack([{ type: 'blob', data: new TextEncoder().encode('some content') }]);
    expect(await checkPack(pack)).toMatchObject({ objects: 1 });
    const damaged = pack.slice();
    damaged[15] = damaged[15]! ^ 0xff;
    await expect(checkPack(damaged)).rejects.toThrow(/arrived damaged/);
    await expect(checkPack(new TextEncoder().encode('<html>not a pack at all, but long enough</html>'))).rejects.toThrow(PackError);
    await expect(checkPack(new Uint8Array(10))).rejects.toThrow(/too short/);
  });
});
