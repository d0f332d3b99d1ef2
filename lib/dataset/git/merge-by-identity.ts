/**
 * Merging a publish's commit with the branch's new head by record identity:
 * git's merge walks the trees, and every records file both changed goes
 * through the by-id merge driver, never line by line.
 */
import git from 'isomorphic-git';
import type { RecordConflict } from '../../import/merge';
import { mergeRecordsText } from '../merge';
import { formatDatasetProblem } from '../read';
import { updateReadme } from '../readme';
import { isSourcesText, mergeSourcesText, SOURCES_PATH } from '../sources';
import { errorCode, SyncError } from './errors';
import { readDatasetAt } from './read-dataset';
import { flush, writeDatasetTree } from './store';
import type { SyncContext } from './sync-context';

/** The local ref a publish's commit is made on. */
export const PUBLISH_REF = 'refs/heads/recipe-lens-publish';
/** The local ref the branch's new head is merged from. */
const THEIRS_REF = 'refs/heads/recipe-lens-theirs';

function describeConflict(c: RecordConflict): string {
  return `${c.label}: ${c.diffs.map((d) => d.field).join(', ')} differ with the same updated_at`;
}

/**
 * Merges `ours` (a commit of this publish) with `theirs` (the branch's new
 * head) by record identity; the README is then regenerated from the merged
 * records (a review keeps the branch's README). Ties stop the publish as
 * conflicts.
 */
export async function mergeByIdentity(ctx: SyncContext, ours: string, theirs: string, branch: string, review = false): Promise<string> {
  const { fs, dir } = ctx.env;
  await git.writeRef({ fs, dir, ref: PUBLISH_REF, value: ours, force: true });
  await git.writeRef({ fs, dir, ref: THEIRS_REF, value: theirs, force: true });
  const conflicts: RecordConflict[] = [];
  const unreadable: string[] = [];
  const author = ctx.author();
  let merged: { oid?: string; tree?: string; alreadyMerged?: boolean; fastForward?: boolean };
  try {
    merged = await git.merge({
      fs,
      dir,
      ours: PUBLISH_REF,
      theirs: THEIRS_REF,
      fastForward: true,
      noUpdateBranch: true,
      abortOnConflict: true,
      author,
      committer: author,
      cache: ctx.cache,
      mergeDriver: ({ contents, path }) => {
        const [base, mine, their] = contents as [string, string, string];
        // Regenerated from the merged records below.
        if (path === 'README.md') return { cleanMerge: true, mergedText: mine };
        if (!path.endsWith('.jsonl')) return { cleanMerge: false, mergedText: mine };
        try {
          // The driver is told the file's name only: `records/sources.jsonl` is the one whose lines are source records.
          const sources = path === SOURCES_PATH.slice('records/'.length) && isSourcesText(mine, their, base);
          const result = sources ? mergeSourcesText(base, mine, their) : mergeRecordsText(base, mine, their);
          conflicts.push(...result.conflicts);
          return { cleanMerge: result.conflicts.length === 0, mergedText: result.text };
        } catch {
          unreadable.push(path);
          return { cleanMerge: false, mergedText: mine };
        }
      },
    });
  } catch (error) {
    if (errorCode(error) === 'MergeConflictError') {
      if (conflicts.length)
        throw new SyncError(
          'conflicts',
          `Another curator published other versions of ${conflicts.length} ${conflicts.length === 1 ? 'record' : 'records'} with the same time as yours: pull, settle them, and publish again. Nothing was published.`,
          conflicts.map(describeConflict),
        );
      throw new SyncError(
        'refused',
        `The branch's new commits cannot be merged by record (${unreadable.join(', ') || 'files outside the dataset changed on both sides'}). Nothing was published.`,
      );
    }
    throw error;
  }
  if (merged.alreadyMerged) return ours;
  if (merged.fastForward) return theirs;
  const { read, readme } = await readDatasetAt(ctx, merged.tree!);
  if (read.problems.length)
    throw new SyncError('invalid-dataset', 'The merged dataset has problems; nothing was published.', read.problems.map(formatDatasetProblem));
  // A review's README stays the branch's (ours: built on the branch's head); the branch rebuilds it after the merge.
  const fixed = review
    ? readme
    : updateReadme(
        readme,
        read.records.map((r) => r.record),
        read.sources.map((s) => s.record),
      );
  const tree = fixed === readme ? merged.tree! : await writeDatasetTree(fs, dir, merged.tree!, new Map([['README.md', fixed]]), ctx.cache, ctx.remember);
  const commit = await git.commit({
    fs,
    dir,
    message: `Merge ${branch} into this publish by record id\n`,
    author,
    committer: author,
    tree,
    parent: [ours, theirs],
    ref: PUBLISH_REF,
    cache: ctx.cache,
  });
  await flush(fs);
  return commit;
}
