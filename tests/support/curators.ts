/**
 * Curators for tests and benchmarks of the dataset sync, in Node: each has a
 * file system of their own (lightning-fs over fake-indexeddb, as in an
 * extension page), the sync engine, and a store in memory that applies plans
 * the way the background's database does (`writeSync`: all or nothing, bases
 * with the records; source records by URL, the later `updated_at` winning, as
 * `putSourceRecords` keeps them).
 */
import 'fake-indexeddb/auto';
import FS from '@isomorphic-git/lightning-fs';
import webHttp from 'isomorphic-git/http/web';
import { localChanges, recordHash, recordRef, settlePull, type PullChoice } from '../../lib/dataset';
import {
  DatasetSync,
  newMeter,
  type DatasetConnection,
  type GitFs,
  type HttpClient,
  type PublishOptions,
  type PullOutcome,
  type SyncStep,
  type TransferMeter,
} from '../../lib/dataset/git';
import { CLAIM_SCHEMA, type ClaimRecord, type SourceRecord, type SurveyRecord } from '../../lib/schema';
import { isTombstone } from '../../lib/survey/tombstones';
import { nowTimestamp } from '../../lib/time';

// lightning-fs asks `navigator.locks`; Node 20 has no `navigator`.
(globalThis as { navigator?: object }).navigator ??= {};

/** A store in memory: records by ref (tombstones kept), bases, and source records by URL. */
export class MemoryStore {
  records = new Map<string, SurveyRecord>();
  bases = new Map<string, string>();
  sources = new Map<string, SourceRecord>();

  /** What the engine needs: every record, the bases and the source records. */
  snapshot() {
    return { records: [...this.records.values()], bases: new Map(this.bases), sources: [...this.sources.values()] };
  }

  /** Stores source records (a recheck's, or pulled): each URL keeps the later `updated_at`, the incoming one on a tie. */
  saveSources(...records: SourceRecord[]): number {
    let changed = 0;
    for (const r of records) {
      const held = this.sources.get(r.url);
      if (held && (held.updated_at > r.updated_at || JSON.stringify(held) === JSON.stringify(r))) continue;
      this.sources.set(r.url, r);
      changed++;
    }
    return changed;
  }

  /** Saves records as a curator does (the background stamps the time). */
  save(...records: SurveyRecord[]): void {
    for (const r of records) this.records.set(recordRef(r), r);
  }

  /** Deletes a claim: a tombstone with `deleted_at` and `updated_at` set to `now`. */
  delete(id: string, now: string): ClaimRecord {
    const before = this.records.get(`claim:${id}`) as ClaimRecord;
    this.records.set(`claim:${id}`, { ...before, updated_at: now, deleted_at: now });
    return before;
  }

  /** The live claims, as the panel and the page see them. */
  claims(): ClaimRecord[] {
    return [...this.records.values()].filter((r): r is ClaimRecord => r.schema === CLAIM_SCHEMA && !isTombstone(r as ClaimRecord));
  }

  claim(id: string): ClaimRecord | undefined {
    return this.records.get(`claim:${id}`) as ClaimRecord | undefined;
  }

  /** Local changes not yet published. */
  pending(): SurveyRecord[] {
    return localChanges([...this.records.values()], this.bases);
  }

  /** Applies a pulled plan with the curator's choices (conflicts left `later` unless chosen). */
  applyPull(outcome: PullOutcome, choices: ReadonlyMap<string, PullChoice> = new Map(), rest: PullChoice = 'later', now = nowTimestamp()) {
    const settled = settlePull(outcome.plan, choices, rest, now);
    for (const w of settled.writes) this.records.set(recordRef(w), w);
    for (const [ref, hash] of settled.bases) this.bases.set(ref, hash);
    this.saveSources(...outcome.sources);
    return settled;
  }

  /** Records the bases of a publish. */
  applyBases(bases: ReadonlyArray<readonly [string, string]>): void {
    for (const [ref, hash] of bases) this.bases.set(ref, hash);
  }

  /** The hash of the stored version of a record. */
  hash(ref: string): string | undefined {
    const r = this.records.get(ref);
    return r ? recordHash(r) : undefined;
  }
}

/** Where a curator's dataset is, and how their HTTP goes. */
export interface CuratorOptions {
  url: string;
  user: string;
  token: string;
  name?: string;
  branch?: string;
  /** The lightning-fs name: two curators never share one unless a test wants a restart on the same disk. */
  fsName?: string;
  /** Wraps the HTTP client (fault injection). */
  wrapHttp?: (http: HttpClient) => HttpClient;
  connection?: Partial<DatasetConnection>;
  /** Keep what the file system already holds (a restart), instead of wiping it. */
  keepDisk?: boolean;
  /** Told the time of each step of a pull or publish. */
  onStep?: (step: SyncStep, ms: number) => void;
}

/** One curator: a store, a file system, the engine, and a meter of the bytes through it. */
export class Curator {
  readonly store = new MemoryStore();
  readonly meter: TransferMeter = newMeter();
  readonly fs: GitFs;
  sync: DatasetSync;

  constructor(readonly options: CuratorOptions) {
    this.fs = new FS(options.fsName ?? `curator-${options.user}-${Math.random().toString(36).slice(2)}`, { wipe: !options.keepDisk }) as unknown as GitFs;
    this.sync = this.engine(options.wrapHttp);
  }

  /** A new engine on the same disk and store (as after the extension's page was closed and opened again), with `wrapHttp` or none. */
  restart(wrapHttp?: (http: HttpClient) => HttpClient): DatasetSync {
    this.sync = this.engine(wrapHttp);
    return this.sync;
  }

  private engine(wrapHttp: ((http: HttpClient) => HttpClient) | undefined): DatasetSync {
    const http = wrapHttp ? wrapHttp(webHttp) : webHttp;
    return new DatasetSync(
      {
        url: this.options.url,
        branch: this.options.branch ?? 'main',
        token: this.options.token,
        username: this.options.user,
        name: this.options.name ?? this.options.user,
        ...this.options.connection,
      },
      { fs: this.fs, http, dir: '/dataset', meter: this.meter, onStep: this.options.onStep },
    );
  }

  /** Pulls and applies (conflicts left for later unless chosen). */
  async pull(choices: ReadonlyMap<string, PullChoice> = new Map(), rest: PullChoice = 'later') {
    const outcome = await this.sync.pull(this.store.snapshot());
    const settled = this.store.applyPull(outcome, choices, rest);
    return { outcome, settled };
  }

  /** Publishes and records the bases. */
  async publish(options: PublishOptions = {}) {
    const outcome = await this.sync.publish(this.store.snapshot(), options);
    this.store.applyBases(outcome.bases);
    return outcome;
  }
}
