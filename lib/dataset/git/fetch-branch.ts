/** Fetching from the host: one branch into the clone, and the dataset's branch (its absence said plainly). */
import git from 'isomorphic-git';
import { branchesOf } from './connection-test';
import { describeFailure, SyncError } from './errors';
import { advertisement, fetchPack } from './smart';
import { flush } from './store';
import type { SyncContext } from './sync-context';
import { hasObject, localHaves, storePack } from './transfer';

/**
 * Fetches one branch: its head, or null when the repository is empty or has
 * no such branch. The host is told the commits this clone has, and sends
 * the rest as a thin pack (deltas of objects we have), stored beside the
 * clone's other packs; nothing is asked when the head is already here.
 */
export async function fetchBranch(ctx: SyncContext, branch: string): Promise<string | null> {
  const { fs, dir } = ctx.env;
  const haves = await localHaves(ctx.clone);
  let head: string | null = null;
  let pack: Uint8Array | null = null;
  try {
    const advertised = await advertisement(ctx.request, 'git-upload-pack');
    head = advertised.refs.get(`refs/heads/${branch}`) ?? null;
    if (head && !(await hasObject(ctx.clone, head)))
      pack = await fetchPack(ctx.request, advertised, { wants: [head], haves }, undefined, (loaded) =>
        ctx.env.onProgress?.({ phase: 'Receiving objects', loaded }),
      );
  } catch (error) {
    throw describeFailure(error, ctx.where);
  }
  if (!head) return null;
  if (pack) await storePack(ctx.clone, pack);
  await git.writeRef({ fs, dir, ref: `refs/remotes/origin/${branch}`, value: head, force: true });
  await flush(fs);
  return head;
}

/** Fetches the dataset's branch; an existing repository without it is an error (an empty one is not: the first publish makes it). */
export async function fetchDataset(ctx: SyncContext): Promise<string | null> {
  const head = await fetchBranch(ctx, ctx.connection.branch);
  if (head) return head;
  let refs: Array<{ ref: string }>;
  try {
    refs = ((await git.getRemoteInfo2({ http: ctx.client, url: ctx.connection.url, protocolVersion: 1 })).refs ?? []) as Array<{ ref: string }>;
  } catch (error) {
    throw describeFailure(error, ctx.where);
  }
  const branches = branchesOf(refs);
  if (branches.length) throw new SyncError('no-branch', `The repository has no branch "${ctx.connection.branch}" (it has ${branches.slice(0, 5).join(', ')}).`);
  return null;
}
