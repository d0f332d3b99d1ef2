/** What rechecking sources needs from the rest of the extension; the page's entrypoint provides it. */
import type { Caller } from '../../lib/messages';
import type { SourceFindings } from '../../lib/recheck';
import type { ClaimRecord } from '../../lib/schema';

/** The background calls a recheck makes. */
export type RecheckCall =
  | 'recheck.start'
  | 'recheck.state'
  | 'recheck.source'
  | 'recheck.save'
  | 'recheck.clear'
  | 'recheck.accept'
  | 'claims.save'
  | 'models.names'
  | 'pdf.open';

/** Reads one source of a run and rechecks its claims (the reader keeps the run's per-host limit). */
export type SourceRead = (url: string, claims: readonly ClaimRecord[], signal: AbortSignal) => Promise<SourceFindings>;

/** A recheck's access to the background and the network. */
export interface RecheckApi {
  /** Sends the recheck's calls to the background. */
  call: Caller<RecheckCall>;
  /** A reader for one run. */
  reader(): SourceRead;
  /** Calls back when claims or rechecks change anywhere; returns an unsubscribe function. */
  onChange(callback: () => void): () => void;
}
