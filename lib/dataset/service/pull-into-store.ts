/**
 * A pull, from the engine into the store: the dataset is planned again
 * against what the store's transaction reads (a claim edited meanwhile is
 * asked about, not overwritten), conflicts are settled as chosen or wait, and
 * the dataset's source records are merged in.
 */
import { followReviews, indexDataset, planPull, settlePull, type PullChoice } from '..';
import type { DatasetLink, PullDone } from '../link';
import { conflictViews } from './conflicts';
import type { ConnectionStore, DatasetEngine, SyncStore } from './ports';

/** How the curator settled conflicts: a choice per record, and one for the rest (`later`: they wait). */
export interface PullChoices {
  choices: ReadonlyMap<string, PullChoice>;
  rest: PullChoice;
}

/** Where a pull writes: the store, and the connection's last failure (a pull that worked clears it). */
export interface PullTarget {
  store: SyncStore;
  connection: ConnectionStore;
  now: () => string;
}

/** Pulls the dataset into the store in one transaction, records the pull, and tells the pages when records changed; what it did. */
export async function pullIntoStore(
  engine: DatasetEngine,
  link: DatasetLink,
  { store, connection, now }: PullTarget,
  { choices, rest }: PullChoices,
): Promise<PullDone> {
  // Another dataset than the last one synced starts afresh (its bases forgotten) before anything is read.
  await store.putState(link, {});
  const outcome = await engine.pull(await store.snapshot());
  const at = now();
  const { plan, settled, waiting } = await store.writeSync(
    outcome.remote,
    (stored, bases) => {
      const again = planPull(stored, bases, outcome.remote);
      const done = settlePull(again, choices, rest, at);
      const left = again.conflicts.filter((c) => (choices.get(c.ref) ?? rest) === 'later');
      return { writes: done.writes, bases: done.bases, result: { plan: again, settled: done, waiting: left } };
    },
    at,
  );
  // The dataset's source records: each URL keeps the later of the store's and the dataset's (they change no claim).
  const sources = await store.putSources(outcome.sources);
  const reviews = followReviews((await store.state())?.reviews ?? [], outcome.head, indexDataset(outcome.remote), at);
  await store.putState(link, { lastPullAt: at, lastPulledCommit: outcome.head, conflicts: waiting.length, reviews });
  await connection.clearLastError();
  if (settled.writes.length || sources) await store.notifyChanged().catch(() => undefined);
  return {
    added: plan.added,
    updated: plan.updated,
    deleted: plan.deleted,
    unchanged: plan.unchanged,
    kept: plan.kept,
    settled: settled.kept + settled.taken,
    conflicts: conflictViews(waiting),
    conflictCount: waiting.length,
    head: outcome.head,
    sources,
  };
}
