/**
 * What every part of the sync engine shares for one connection: the
 * connection and what the engine was given, the authenticated HTTP client,
 * git's object cache, the records files already parsed, the big blobs kept at
 * hand, and the operation under way on the clone.
 */
import type { FileRead } from '../read';
import { slug } from '../layout';
import { authedHttp, basicAuth, type HttpClient } from './http';
import type { DatasetConnection, EngineEnv, SyncStep } from './sync-types';
import type { CloneRef } from './transfer';

/** Blobs from this size on are kept at hand after being read or written (the README; not the records files). */
const RECENT_MIN_BYTES = 256 * 1024;
/** How many big blobs are kept at hand. */
const RECENT_KEPT = 4;

/** One connection's shared state, handed to each part of the engine. */
export class SyncContext {
  /** isomorphic-git's object cache. */
  readonly cache = {};
  /** Records files parsed, by blob id and path: only those of the tree read last. */
  readonly reads = new Map<string, FileRead>();
  /** Big blobs read or written last (the README's versions), by id: a push's delta base and target, a fetch's base to make a pack whole. */
  readonly recent = new Map<string, Uint8Array>();
  /** The HTTP client with the token on every request. */
  readonly client: HttpClient;
  /** The operation under way: pulls and publishes on one clone run one at a time. */
  running: Promise<unknown> = Promise.resolve();

  constructor(
    readonly connection: DatasetConnection,
    readonly env: EngineEnv,
  ) {
    this.client = authedHttp(env.http, {
      authorization: basicAuth(connection.username ?? 'recipe-lens', connection.token),
      meter: env.meter,
      signal: env.signal,
    });
  }

  /** Runs one step and reports its time. */
  async step<T>(name: SyncStep, work: () => Promise<T> | T): Promise<T> {
    const started = Date.now();
    try {
      return await work();
    } finally {
      this.env.onStep?.(name, Date.now() - started);
    }
  }

  /** The repository and branch, as failures name them. */
  get where() {
    return { url: this.connection.url, branch: this.connection.branch };
  }

  /** The commit author (and committer): the curator, now. */
  author() {
    const now = (this.env.now ?? (() => new Date()))();
    return {
      name: this.connection.name,
      email: this.connection.email ?? `${slug(this.connection.name)}@users.recipe-lens.invalid`,
      timestamp: Math.floor(now.getTime() / 1000),
      timezoneOffset: 0,
    };
  }

  /** The clone as the transfer code reaches it. */
  get clone(): CloneRef {
    return { fs: this.env.fs, dir: this.env.dir, cache: this.cache, known: this.recent };
  }

  /** Keeps a big blob's bytes at hand (the last four). */
  readonly remember = (oid: string, bytes: Uint8Array): void => {
    if (bytes.length < RECENT_MIN_BYTES) return;
    this.recent.delete(oid);
    this.recent.set(oid, bytes);
    for (const old of this.recent.keys()) {
      if (this.recent.size <= RECENT_KEPT) break;
      this.recent.delete(old);
    }
  };

  /** A request to the host: the client, the URL, the abort signal. */
  get request() {
    return { http: this.client, url: this.connection.url, signal: this.env.signal };
  }
}
