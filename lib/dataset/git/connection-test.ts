/** Test connection: unreachable, bad token, no such repository, no such branch, no write access — each said plainly. */
import git from 'isomorphic-git';
import { describeFailure, SyncError } from './errors';
import type { SyncContext } from './sync-context';
import type { ConnectionReport } from './sync-types';

/** The branch names of a ref advertisement. */
export function branchesOf(refs: ReadonlyArray<{ ref: string }>): string[] {
  return refs.filter((r) => r.ref.startsWith('refs/heads/')).map((r) => r.ref.slice('refs/heads/'.length));
}

/** Says whether the dataset can be reached, read and written with this token, and what is wrong when not. */
export async function testConnection(ctx: SyncContext): Promise<ConnectionReport> {
  const report: ConnectionReport = { ok: false, error: null, branches: [], empty: false, canWrite: false };
  let refs: Array<{ ref: string }>;
  try {
    const info = await git.getRemoteInfo2({ http: ctx.client, url: ctx.connection.url, protocolVersion: 1 });
    refs = (info.refs ?? []) as Array<{ ref: string }>;
  } catch (error) {
    report.error = describeFailure(error, ctx.where);
    return report;
  }
  report.branches = branchesOf(refs);
  report.empty = report.branches.length === 0;
  if (!report.empty && !report.branches.includes(ctx.connection.branch)) {
    const shown = report.branches.slice(0, 5).join(', ');
    report.error = new SyncError(
      'no-branch',
      `The repository has no branch "${ctx.connection.branch}" (it has ${shown}${report.branches.length > 5 ? ', …' : ''}).`,
    );
    return report;
  }
  try {
    await git.getRemoteInfo2({ http: ctx.client, url: ctx.connection.url, forPush: true, protocolVersion: 1 });
    report.canWrite = true;
  } catch (error) {
    report.error = describeFailure(error, { ...ctx.where, pushing: true });
    return report;
  }
  report.ok = true;
  return report;
}
