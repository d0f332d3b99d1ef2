/**
 * A count of the write transactions a connection has started, so that an answer read from the store can be kept and
 * given again while nothing was written since (the evidence panel's first rows, asked for on every opening). The
 * count is taken where every write starts: a `readwrite` transaction and the shortcuts that open one (`put`, `add`,
 * `delete`, `clear`). A transaction created after a write transaction on the same stores sees what that write
 * committed, so an answer tagged with the count at the start of its read holds exactly until the count moves.
 */
import type { StoreNames } from 'idb';
import type { RecipeDatabase } from './open';
import type { RecipeDb } from './schema';

const WRITE_SHORTCUTS = new Set<PropertyKey>(['put', 'add', 'delete', 'clear']);

/** A store's name as the database's typings know them. */
type StoreName = StoreNames<RecipeDb>;

/** The write transactions started per store, of the connections `countWrites` made, by the connection it returned. */
const counts = new WeakMap<object, Map<string, number>>();

/** The connection `db` with its write transactions counted per store (use the returned object in its place everywhere). */
export function countWrites(db: RecipeDatabase): RecipeDatabase {
  const count = new Map<string, number>();
  const wrote = (stores: unknown) => {
    for (const store of typeof stores === 'string' ? [stores] : [...(stores as Iterable<string>)]) count.set(store, (count.get(store) ?? 0) + 1);
  };
  const counted = new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      if (prop === 'transaction') {
        return (stores: never, mode?: IDBTransactionMode, options?: IDBTransactionOptions) => {
          if (mode && mode !== 'readonly') wrote(stores);
          return target.transaction(stores, mode as never, options);
        };
      }
      if (WRITE_SHORTCUTS.has(prop)) {
        return (store: unknown, ...args: unknown[]) => {
          wrote(store);
          return (value as (...a: unknown[]) => unknown).apply(target, [store, ...args]);
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  counts.set(counted, count);
  return counted;
}

/**
 * How many write transactions over any of `stores` the connection has started (null for a connection `countWrites`
 * did not make).
 */
export function writesStarted(db: RecipeDatabase, stores: readonly StoreName[]): number | null {
  const count = counts.get(db);
  if (!count) return null;
  let writes = 0;
  for (const store of stores) writes += count.get(store) ?? 0;
  return writes;
}

/**
 * One answer read from some stores, kept while no write over them starts on its connection: `get` reads it again
 * after such a write (or for another connection or another argument), and a read that fails is not kept.
 */
export class KeptUntilWrite<A, T> {
  private kept: { db: RecipeDatabase; writes: number; arg: A; answer: Promise<T> } | null = null;

  /** `stores`: every store `read` reads. */
  constructor(
    private readonly stores: readonly StoreName[],
    private readonly read: (db: RecipeDatabase, arg: A) => Promise<T>,
  ) {}

  /** The answer for `arg`: the kept one while nothing was written to its stores since it was read, else a new read. */
  get(db: RecipeDatabase, arg: A): Promise<T> {
    const writes = writesStarted(db, this.stores);
    const kept = this.kept;
    if (writes !== null && kept && kept.db === db && kept.writes === writes && Object.is(kept.arg, arg)) return kept.answer;
    const answer = this.read(db, arg);
    if (writes === null) return answer;
    const entry = { db, writes, arg, answer };
    this.kept = entry;
    answer.catch(() => {
      if (this.kept === entry) this.kept = null;
    });
    return answer;
  }
}
