/** Reading the dataset at a commit from the clone: its records files parsed once per content, its README's text. */
import git from 'isomorphic-git';
import { pathRole } from '../layout';
import { combineDataset, formatDatasetProblem, readDatasetFile, type FileRead, type ReadDataset } from '../read';
import { SyncError } from './errors';
import { treeEntries, type TreeEntry } from './store';
import type { SyncContext } from './sync-context';

/** A file of a tree, read once per content (records files are parsed once per blob). */
async function readEntry(ctx: SyncContext, path: string, entry: TreeEntry, used: Map<string, FileRead>): Promise<FileRead> {
  const role = pathRole(path);
  if (role !== 'claims' && role !== 'models' && role !== 'sources') return readDatasetFile({ path, content: '' });
  const key = `${entry.oid} ${path}`;
  let read = ctx.reads.get(key);
  if (!read) {
    const { blob } = await git.readBlob({ fs: ctx.env.fs, dir: ctx.env.dir, oid: entry.oid, cache: ctx.cache });
    read = readDatasetFile({ path, content: blob });
  }
  used.set(key, read);
  return read;
}

/** The dataset at a commit (or tree): its records read carefully, and its README's text. Only `records/` is walked. */
export async function readDatasetAt(ctx: SyncContext, oid: string | null): Promise<{ read: ReadDataset; readme: string }> {
  const { fs, dir } = ctx.env;
  const reads: FileRead[] = [];
  const used = new Map<string, FileRead>();
  let readme = '';
  const root = await treeEntries(fs, dir, oid, '', ctx.cache);
  const walk = async (prefix: string, entries: readonly TreeEntry[], depth: number): Promise<void> => {
    for (const entry of entries) {
      const path = `${prefix}${entry.path}`;
      if (entry.type === 'blob') reads.push(await readEntry(ctx, path, entry, used));
      else if (entry.type === 'tree' && depth < 4) await walk(`${path}/`, await treeEntries(fs, dir, entry.oid, '', ctx.cache), depth + 1);
      else if (entry.type === 'tree') reads.push(readDatasetFile({ path: `${path}/`, content: '' }));
    }
  };
  for (const entry of root) {
    if (entry.type === 'blob' && entry.path === 'README.md') {
      const blob = ctx.recent.get(entry.oid) ?? (await git.readBlob({ fs, dir, oid: entry.oid, cache: ctx.cache })).blob;
      ctx.remember(entry.oid, blob);
      readme = new TextDecoder().decode(blob);
    } else if (entry.type === 'blob') reads.push(readDatasetFile({ path: entry.path, content: '' }));
    else if (entry.type === 'tree' && entry.path === 'records') await walk('records/', await treeEntries(fs, dir, entry.oid, '', ctx.cache), 1);
  }
  // Only the files of the tree read last stay parsed: the cache follows the dataset, it does not grow with its history.
  ctx.reads.clear();
  for (const [key, read] of used) ctx.reads.set(key, read);
  return { read: combineDataset(reads), readme };
}

/** The dataset at its head, refusing one with problems (nothing from it is used). */
export async function readUsable(ctx: SyncContext, head: string | null): Promise<{ read: ReadDataset; readme: string }> {
  const dataset = await readDatasetAt(ctx, head);
  const problems = dataset.read.problems;
  if (problems.length)
    throw new SyncError(
      'invalid-dataset',
      `The dataset has ${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}; nothing was taken from it. Fix ${problems.length === 1 ? 'it' : 'them'} in the repository (survey check lists them).`,
      problems.slice(0, 200).map(formatDatasetProblem),
    );
  return dataset;
}
