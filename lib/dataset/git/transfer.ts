/**
 * The clone's side of a transfer, so that bytes follow what changed, not the
 * dataset's size:
 *
 * - `objectsToPush`: the objects a push sends — the new commits (those the
 *   host's refs do not reach), and the trees and blobs of theirs the host
 *   does not have. A tree or blob whose path was in a commit the host has is
 *   sent as a delta of that version when the delta is smaller (the README
 *   with a few rows changed, the claims folder with a few files changed).
 * - `localHaves`: the commits this clone has, newest first, to tell the host
 *   on a fetch, so it sends only the rest, as deltas of what we have.
 * - `storePack`: a pack that arrived, checked, written into
 *   `objects/pack/` and indexed. Its deltas may have their base in another
 *   pack of the clone; isomorphic-git resolves those when indexing and
 *   reading (`getExternalRefDelta`). A pack some of whose deltas find no base
 *   here is removed and reported as damage (the engine clones again).
 */
import git from 'isomorphic-git';
import { encodeDelta, indexBase } from './delta';
import { appendToPack, checkPack, deltaBases, indexOffsets, type ObjectType, type PackObject } from './pack';
import { flush, gitdirOf, type GitFs } from './store';

/** Where the clone is, and isomorphic-git's cache for it. */
export interface CloneRef {
  fs: GitFs;
  dir: string;
  cache: object;
  /** Blobs whose bytes are at hand (the README just read or written), by id: not read from the clone again. */
  known?: ReadonlyMap<string, Uint8Array>;
}

/** An object's type and bytes: from `known` when there, else read from the clone. */
async function objectContent(clone: CloneRef, oid: string): Promise<{ type: ObjectType; data: Uint8Array }> {
  const at = clone.known?.get(oid);
  if (at) return { type: 'blob', data: at };
  const { type, object } = await git.readObject({ fs: clone.fs, dir: clone.dir, oid, format: 'content', cache: clone.cache });
  return { type: type as ObjectType, data: object as Uint8Array };
}

/** The objects a push sends, and how many went as deltas. */
export interface PushObjects {
  objects: PackObject[];
  deltas: number;
}

/** A pack arrived whose deltas name bases this clone does not have. */
export class IncompletePackError extends Error {
  override name = 'IncompletePackError';
  readonly code = 'IncompletePack';
}

interface CommitInfo {
  tree: string;
  parents: string[];
  time: number;
}

/** Objects smaller than this go whole: a delta would not pay for its base's id. */
const MIN_DELTA_SIZE = 512;

function code(error: unknown): string | undefined {
  return (error as { code?: string })?.code;
}

/** True when the clone has the object. */
export async function hasObject({ fs, dir, cache }: CloneRef, oid: string): Promise<boolean> {
  try {
    await git.readObject({ fs, dir, oid, format: 'deflated', cache });
    return true;
  } catch (error) {
    if (code(error) === 'NotFoundError') return false;
    throw error;
  }
}

async function commitInfo(clone: CloneRef, oid: string): Promise<CommitInfo> {
  const { commit } = await git.readCommit({ fs: clone.fs, dir: clone.dir, oid, cache: clone.cache });
  return { tree: commit.tree, parents: commit.parent, time: commit.committer.timestamp };
}

/**
 * Walks commits newest first from `ours` (flag 1) and `theirs` (flag 2), each
 * commit's flags passed to its parents, until only commits `theirs` reach are
 * left: the commits reached from `ours` alone are new. A clock gone wrong can
 * only make a commit look new that is not (sent again, harmless), never the
 * reverse: a commit is marked `theirs` only when a ref of theirs reaches it.
 */
async function newCommits(clone: CloneRef, ours: string, theirs: readonly string[]): Promise<{ fresh: string[]; boundary: string[] }> {
  const OURS = 1;
  const THEIRS = 2;
  const flags = new Map<string, number>();
  const infos = new Map<string, CommitInfo>();
  const queue: string[] = [];
  const add = async (oid: string, flag: number): Promise<void> => {
    const before = flags.get(oid) ?? 0;
    if ((before | flag) === before) return;
    if (!infos.has(oid)) infos.set(oid, await commitInfo(clone, oid));
    flags.set(oid, before | flag);
    if (!queue.includes(oid)) {
      const time = infos.get(oid)!.time;
      let at = queue.findIndex((q) => infos.get(q)!.time < time);
      if (at === -1) at = queue.length;
      queue.splice(at, 0, oid);
    }
  };
  for (const t of theirs) if (await hasObject(clone, t)) await add(t, THEIRS);
  await add(ours, OURS);
  const popped: string[] = [];
  while (queue.some((q) => !((flags.get(q) ?? 0) & THEIRS))) {
    const oid = queue.shift()!;
    const flag = flags.get(oid)!;
    if (!popped.includes(oid)) popped.push(oid);
    for (const parent of infos.get(oid)!.parents) {
      // A parent the clone lacks can only be behind the host's refs (ours were all made here).
      if (flag & THEIRS && !(await hasObject(clone, parent))) continue;
      await add(parent, flag);
    }
  }
  const fresh = popped.filter((oid) => flags.get(oid) === OURS);
  const boundary: string[] = [];
  for (const oid of fresh)
    for (const parent of infos.get(oid)!.parents) if ((flags.get(parent) ?? 0) & THEIRS && !boundary.includes(parent)) boundary.push(parent);
  return { fresh, boundary };
}

/**
 * The objects of a push of `ours` to a host whose refs point at `theirs` (ids
 * it advertised; those this clone lacks are skipped). `thin: false` (a host
 * saying `no-thin`) sends every object whole.
 */
export async function objectsToPush(clone: CloneRef, ours: string, theirs: readonly string[], { thin = true } = {}): Promise<PushObjects> {
  const { fs, dir, cache } = clone;
  const { fresh, boundary } = await newCommits(clone, ours, theirs);
  const known = new Set<string>();
  const seen = new Set<string>();
  /** Objects to send: id, type, and the id of a version the host has at the same path. */
  const wanted: Array<{ oid: string; type: ObjectType; base: string | null }> = [];
  const trees = new Map<string, Array<{ path: string; oid: string; type: string }>>();
  const readTree = async (oid: string) => {
    let entries = trees.get(oid);
    if (!entries) {
      entries = (await git.readTree({ fs, dir, oid, cache })).tree;
      trees.set(oid, entries);
    }
    return entries;
  };
  const walk = async (tree: string, bases: readonly string[]): Promise<void> => {
    if (known.has(tree) || seen.has(tree)) return;
    seen.add(tree);
    const entries = await readTree(tree);
    const baseEntries = new Map<string, Array<{ oid: string; type: string }>>();
    for (const base of bases)
      for (const e of await readTree(base)) {
        known.add(e.oid);
        const list = baseEntries.get(e.path) ?? [];
        list.push({ oid: e.oid, type: e.type });
        baseEntries.set(e.path, list);
      }
    for (const entry of entries) {
      if (known.has(entry.oid) || seen.has(entry.oid)) continue;
      const same = (baseEntries.get(entry.path) ?? []).filter((b) => b.type === entry.type).map((b) => b.oid);
      if (entry.type === 'tree') await walk(entry.oid, same);
      else if (entry.type === 'blob') {
        seen.add(entry.oid);
        wanted.push({ oid: entry.oid, type: 'blob', base: same[0] ?? null });
      }
      // A submodule's commit ('commit' entries) is not in this repository: nothing to send.
    }
    wanted.push({ oid: tree, type: 'tree', base: bases[0] ?? null });
  };
  const roots: string[] = [];
  for (const b of boundary) {
    const { tree } = await commitInfo(clone, b);
    if (!roots.includes(tree)) roots.push(tree);
    known.add(tree);
  }
  for (const c of fresh) await walk((await commitInfo(clone, c)).tree, roots);

  const objects: PackObject[] = [];
  let deltas = 0;
  const content = async (oid: string) => (await objectContent(clone, oid)).data;
  for (const c of fresh) objects.push({ type: 'commit', data: await content(c) });
  for (const w of wanted) {
    const data = await content(w.oid);
    if (thin && w.base && data.length >= MIN_DELTA_SIZE) {
      const base = await content(w.base);
      const delta = encodeDelta(base, data, indexBase(base));
      if (delta.length < data.length * 0.75) {
        objects.push({ type: 'ref-delta', base: w.base, data: delta });
        deltas += 1;
        continue;
      }
    }
    objects.push({ type: w.type, data });
  }
  return { objects, deltas };
}

/** The commits of this clone to tell a host on a fetch: every ref's head and their ancestors, newest first, at most `limit`. */
export async function localHaves(clone: CloneRef, limit = 64): Promise<string[]> {
  const { fs, dir } = clone;
  const tips = new Set<string>();
  const refs = [
    ...(await git.listBranches({ fs, dir })).map((b) => `refs/heads/${b}`),
    ...(await git.listBranches({ fs, dir, remote: 'origin' })).map((b) => `refs/remotes/origin/${b}`),
  ];
  for (const ref of refs) {
    try {
      tips.add(await git.resolveRef({ fs, dir, ref }));
    } catch {
      // A ref without a commit (HEAD of an empty clone) tells nothing.
    }
  }
  const times = new Map<string, number>();
  const queue: string[] = [];
  const haves: string[] = [];
  const add = async (oid: string) => {
    if (times.has(oid) || !(await hasObject(clone, oid))) return;
    times.set(oid, (await commitInfo(clone, oid)).time);
    queue.push(oid);
    queue.sort((a, b) => times.get(b)! - times.get(a)!);
  };
  for (const t of tips) await add(t);
  while (queue.length && haves.length < limit) {
    const oid = queue.shift()!;
    haves.push(oid);
    for (const p of (await commitInfo(clone, oid)).parents) await add(p);
  }
  return haves;
}

/** Writes a pack into the clone and indexes it; a pack whose deltas find no base is removed. Returns the path of its index. */
async function writeIndexed(clone: CloneRef, pack: Uint8Array, name: string, objects: number): Promise<string> {
  const { fs, dir, cache } = clone;
  const file = `${gitdirOf(dir)}/objects/pack/pack-${name}.pack`;
  await fs.promises.writeFile(file, pack);
  await flush(fs);
  const { oids } = await git.indexPack({ fs, dir, filepath: `.git/objects/pack/pack-${name}.pack`, cache });
  const idx = file.replace(/\.pack$/, '.idx');
  if (oids.length !== objects) {
    await removePack(clone, file);
    throw new IncompletePackError(`${objects - oids.length} of the ${objects} objects the host sent are deltas of objects this clone does not have`);
  }
  await flush(fs);
  return idx;
}

async function removePack(clone: CloneRef, file: string): Promise<void> {
  for (const f of [file.replace(/\.pack$/, '.idx'), file])
    try {
      await clone.fs.promises.unlink(f);
    } catch (error) {
      if (code(error) !== 'ENOENT') throw error;
    }
  await flush(clone.fs);
}

/**
 * Checks a pack that arrived, writes it into the clone's `objects/pack/` and
 * indexes it; returns how many objects it held. A thin pack (deltas of
 * objects in other packs) is then made whole, as `git index-pack --fix-thin`
 * does: the bases it names are added to it, so that reading an object never
 * follows deltas from pack to pack, however many pulls the clone has seen.
 */
export async function storePack(clone: CloneRef, pack: Uint8Array): Promise<number> {
  const { fs, dir } = clone;
  const { objects, name } = await checkPack(pack);
  if (objects === 0) return 0;
  const idx = await writeIndexed(clone, pack, name, objects);
  const offsets = indexOffsets(await fs.promises.readFile(idx));
  const external = [...deltaBases(pack, offsets.values())].filter((oid) => !offsets.has(oid));
  if (!external.length) return objects;
  const bases: PackObject[] = [];
  for (const oid of external) bases.push(await objectContent(clone, oid));
  const whole = await appendToPack(pack, bases);
  const fixed = await checkPack(whole);
  await writeIndexed(clone, whole, fixed.name, fixed.objects);
  await removePack(clone, `${gitdirOf(dir)}/objects/pack/pack-${name}.pack`);
  return objects;
}
