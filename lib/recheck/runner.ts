/**
 * Running a recheck over a list of sources: a few at a time (each host's own limit is the fetcher's), each source's
 * findings stored as soon as they are made, and a stop that lets the sources under way go unstored (they stay
 * pending, so nothing is lost and nothing half-read is kept). Pure: reading a source and storing its findings come
 * in as functions.
 */
import type { SourceFindings } from './stored';

/** Sources read at a time, in all. */
export const SOURCES_AT_ONCE = 4;

/** What a run needs from its host. */
export interface RunnerDeps {
  /** Reads one source and rechecks its claims; never stores anything. */
  read(url: string, signal: AbortSignal): Promise<SourceFindings>;
  /** Stores one source's findings (the run's `pending` loses it then). */
  save(findings: SourceFindings): Promise<void>;
  /** After each stored source. */
  onSaved?(findings: SourceFindings, saved: number): void;
}

/** How a run ended. */
export interface RunnerOutcome {
  saved: number;
  /** The stop signal came before every source was stored. */
  stopped: boolean;
  /** Sources whose reading or storing failed (their message), left pending. */
  failed: { url: string; message: string }[];
}

/** Rechecks `urls` in order, `atOnce` at a time, until done or `signal` stops it. */
export async function runSources(urls: readonly string[], deps: RunnerDeps, signal: AbortSignal, atOnce = SOURCES_AT_ONCE): Promise<RunnerOutcome> {
  const out: RunnerOutcome = { saved: 0, stopped: false, failed: [] };
  let next = 0;
  const worker = async () => {
    while (next < urls.length && !signal.aborted) {
      const url = urls[next++]!;
      try {
        const findings = await deps.read(url, signal);
        // Read while stopping: perhaps cut short, so not kept; it stays pending for the next run.
        if (signal.aborted) return;
        await deps.save(findings);
        out.saved++;
        deps.onSaved?.(findings, out.saved);
      } catch (error) {
        if (signal.aborted) return;
        out.failed.push({ url, message: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(atOnce, urls.length)) }, worker));
  out.stopped = signal.aborted && out.saved + out.failed.length < urls.length;
  return out;
}
