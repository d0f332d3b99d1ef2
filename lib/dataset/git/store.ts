/**
 * The local clone of a dataset: a git directory without a working tree,
 * in a file system passed in (lightning-fs over IndexedDB in an extension
 * page, any Node-style fs in tests). Records are read from tree objects and
 * written as blobs and trees, so a path in a hostile repository never touches
 * the file system, and 10,000 records are never written twice.
 *
 * A clone is used only once it is marked complete (`recipe-lens.json` in the
 * git directory, written last); anything else found there — a clone killed
 * half way, another dataset's — is wiped first. `fs.promises.flush()` (when
 * the file system has it) runs after each step, so what a step wrote is on
 * disk before the next one starts.
 */
import git, { type PromiseFsClient } from 'isomorphic-git';

/** The file system a clone lives in: Node-style promises, with lightning-fs's `flush` when there is one. */
export type GitFs = PromiseFsClient & { promises: { flush?: () => Promise<void> } };

/** What marks a complete clone, and of what. */
interface Marker {
  url: string;
  branch: string;
  complete: true;
}

const MARKER = 'recipe-lens.json';

/** Where a clone's git directory is. */
export function gitdirOf(dir: string): string {
  return `${dir.replace(/\/+$/, '')}/.git`;
}

/** Makes what was written so far durable (lightning-fs keeps writes in memory until flushed). */
export async function flush(fs: GitFs): Promise<void> {
  await fs.promises.flush?.();
}

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Removes a folder and everything in it (lightning-fs has no recursive remove). */
export async function removeTree(fs: GitFs, path: string): Promise<void> {
  let stat: { isDirectory(): boolean };
  try {
    stat = await fs.promises.lstat(path);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  if (!stat.isDirectory()) {
    await fs.promises.unlink(path);
    return;
  }
  const names: string[] = await fs.promises.readdir(path);
  for (const name of names) await removeTree(fs, `${path}/${name}`);
  await fs.promises.rmdir(path);
}

/** Makes a folder and its parents. */
export async function makeFolder(fs: GitFs, path: string): Promise<void> {
  const parts = path.split('/').filter(Boolean);
  let at = path.startsWith('/') ? '' : '.';
  for (const part of parts) {
    at = `${at}/${part}`;
    try {
      await fs.promises.mkdir(at);
    } catch (error) {
      const code = (error as { code?: string })?.code;
      if (code !== 'EEXIST') throw error;
    }
  }
}

/** True when `dir` holds a complete clone of `url` at `branch`. */
export async function cloneIsComplete(fs: GitFs, dir: string, url: string, branch: string): Promise<boolean> {
  try {
    const text: string = await fs.promises.readFile(`${gitdirOf(dir)}/${MARKER}`, 'utf8');
    const marker = JSON.parse(text) as Partial<Marker>;
    return marker.complete === true && marker.url === url && marker.branch === branch;
  } catch {
    return false;
  }
}

/** Marks the clone in `dir` complete (the last write of a clone). */
export async function markComplete(fs: GitFs, dir: string, url: string, branch: string): Promise<void> {
  const marker: Marker = { url, branch, complete: true };
  await fs.promises.writeFile(`${gitdirOf(dir)}/${MARKER}`, JSON.stringify(marker), 'utf8');
  await flush(fs);
}

/** Forgets that the clone is complete, so that the next use wipes it and clones again. */
export async function markIncomplete(fs: GitFs, dir: string): Promise<void> {
  try {
    await fs.promises.unlink(`${gitdirOf(dir)}/${MARKER}`);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  await flush(fs);
}

/** Wipes `dir` and makes an empty git directory there with `origin` set to `url`. */
export async function initClone(fs: GitFs, dir: string, url: string, branch: string): Promise<void> {
  await removeTree(fs, dir);
  await flush(fs);
  await makeFolder(fs, dir);
  await git.init({ fs, dir, defaultBranch: branch });
  await git.addRemote({ fs, dir, remote: 'origin', url, force: true });
  await flush(fs);
}

/** One entry of a git tree. */
export interface TreeEntry {
  mode: string;
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

/** The entries of the tree at `filepath` in a commit (empty when there is none). */
export async function treeEntries(fs: GitFs, dir: string, commit: string | null, filepath: string, cache: object): Promise<TreeEntry[]> {
  if (!commit) return [];
  try {
    const { tree } = await git.readTree({ fs, dir, oid: commit, filepath: filepath || undefined, cache });
    return tree as TreeEntry[];
  } catch (error) {
    if ((error as { code?: string })?.code === 'NotFoundError' && filepath) return [];
    throw error;
  }
}

/** Told of each blob written, with its bytes. */
export type OnBlob = (oid: string, bytes: Uint8Array) => void;

/** A tree with some blobs replaced or added (`changes`: name → text), written; returns its oid. */
async function writeTreeWith(
  fs: GitFs,
  dir: string,
  entries: readonly TreeEntry[],
  changes: ReadonlyMap<string, string | { tree: string }>,
  onBlob?: OnBlob,
): Promise<string> {
  const next = new Map(entries.map((e) => [e.path, e]));
  for (const [name, change] of changes) {
    if (typeof change === 'string') {
      const bytes = new TextEncoder().encode(change);
      const oid = await git.writeBlob({ fs, dir, blob: bytes });
      onBlob?.(oid, bytes);
      next.set(name, { mode: '100644', path: name, oid, type: 'blob' });
    } else next.set(name, { mode: '040000', path: name, oid: change.tree, type: 'tree' });
  }
  return git.writeTree({ fs, dir, tree: [...next.values()] });
}

/**
 * The root tree of `parent` with the dataset's changed files written in
 * (`files`: repository path → text; only `README.md`, `records/models.jsonl`,
 * `records/sources.jsonl` and `records/claims/<name>.jsonl` are written),
 * every other entry kept.
 * `onBlob` is told of each blob written.
 */
export async function writeDatasetTree(
  fs: GitFs,
  dir: string,
  parent: string | null,
  files: ReadonlyMap<string, string>,
  cache: object,
  onBlob?: OnBlob,
): Promise<string> {
  const root = new Map<string, string | { tree: string }>();
  const records = new Map<string, string | { tree: string }>();
  const claims = new Map<string, string>();
  for (const [path, text] of files) {
    if (path === 'README.md') root.set(path, text);
    else if (path === 'records/models.jsonl' || path === 'records/sources.jsonl') records.set(path.slice('records/'.length), text);
    else if (/^records\/claims\/[^/]+$/.test(path)) claims.set(path.slice('records/claims/'.length), text);
    else throw new Error(`not a dataset file: ${path}`);
  }
  if (claims.size) records.set('claims', { tree: await writeTreeWith(fs, dir, await treeEntries(fs, dir, parent, 'records/claims', cache), claims, onBlob) });
  if (records.size) root.set('records', { tree: await writeTreeWith(fs, dir, await treeEntries(fs, dir, parent, 'records', cache), records, onBlob) });
  return writeTreeWith(fs, dir, await treeEntries(fs, dir, parent, '', cache), root, onBlob);
}
