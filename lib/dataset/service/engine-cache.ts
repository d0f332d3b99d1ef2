/** The sync engine for the connection in use, kept while the connection stays the same (it remembers the files it parsed). */
import type { DatasetConnection } from '../git';
import type { DatasetLink } from '../link';
import type { DatasetEngine, EngineFactory, EngineHooks } from './ports';

/** The engine's connection for a stored link and token. */
export function connectionOf(link: DatasetLink, token: string): DatasetConnection {
  return { url: link.url, branch: link.branch, token, name: link.name, username: link.username || undefined };
}

/** One engine, made again when the connection (URL, branch, name, user name or token) changes, or after `forget`. */
export class EngineCache {
  private kept: { key: string; engine: DatasetEngine } | null = null;

  constructor(
    private readonly make: EngineFactory,
    private readonly hooks: EngineHooks,
  ) {}

  /** The engine for this link and token: the kept one when they are the same as last time. */
  get(link: DatasetLink, token: string): DatasetEngine {
    const key = JSON.stringify([link.url, link.branch, link.name, link.username, token]);
    if (this.kept?.key !== key) this.kept = { key, engine: this.make(connectionOf(link, token), this.hooks) };
    return this.kept.engine;
  }

  /** Drops the kept engine (the connection was removed). */
  forget(): void {
    this.kept = null;
  }
}
