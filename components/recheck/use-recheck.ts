/**
 * The state of rechecking sources in one extension page: the stored run and findings, the run under way here (one at
 * a time across the extension's pages, by a Web Lock), its progress, Stop and Resume, and accepting an edited
 * passage with undo. Each source's findings are stored as soon as they are made; Stop leaves the rest pending.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import { withRetry } from '../../lib/messages/retry';
import { runProgress, runSources, type RecheckRun, type RecheckScope, type StoredRecheck } from '../../lib/recheck';
import type { ClaimRecord } from '../../lib/schema';
import type { RecheckApi } from './api';

/** The name of the lock a running recheck holds, so two pages never run one at once. */
export const RECHECK_LOCK = 'recipe-lens-recheck';

/** Retries of a call the service worker dropped as it stopped (an attempt unanswered this long counts as dropped). */
const RETRY = { timeoutMs: 10_000 };

/** What the recheck view shows. */
export interface RecheckView {
  run: RecheckRun | null;
  rechecks: StoredRecheck[];
  claims: ClaimRecord[];
  /** A run is reading sources in this page. */
  running: boolean;
  /** Sources that could not be stored in this page's last run (left pending). */
  failed: { url: string; message: string }[];
  error: string | null;
  /** The last accepted edit, for undo. */
  accepted: { before: ClaimRecord; after: ClaimRecord } | null;
  loaded: boolean;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Runs `body` holding the recheck lock; false when another page holds it (nothing ran). */
async function withLock(body: () => Promise<void>): Promise<boolean> {
  const locks = typeof navigator === 'object' ? navigator.locks : undefined;
  if (!locks) {
    await body();
    return true;
  }
  return locks.request(RECHECK_LOCK, { ifAvailable: true }, async (lock) => {
    if (!lock) return false;
    await body();
    return true;
  });
}

/** The recheck's state and actions for a page. */
export function useRecheck(api: RecheckApi) {
  const [view, setView] = useState<RecheckView>({
    run: null,
    rechecks: [],
    claims: [],
    running: false,
    failed: [],
    error: null,
    accepted: null,
    loaded: false,
  });
  const stopper = useRef<AbortController | null>(null);

  const reload = useCallback(async () => {
    try {
      const state = await api.call('recheck.state', {});
      setView((v) => ({ ...v, ...state, loaded: true }));
    } catch (e) {
      setView((v) => ({ ...v, error: message(e), loaded: true }));
    }
  }, [api]);

  useEffect(() => {
    void reload();
    return api.onChange(() => void reload());
  }, [api, reload]);

  useEffect(() => () => stopper.current?.abort(), []);

  /** Reads the run's pending sources, storing each one's findings as it comes. */
  const runPending = useCallback(
    async (run: RecheckRun) => {
      const controller = new AbortController();
      stopper.current = controller;
      setView((v) => ({ ...v, run, running: true, failed: [], error: null }));
      const read = api.reader();
      try {
        const ran = await withLock(async () => {
          const outcome = await runSources(
            run.pending,
            {
              read: async (url, signal) => read(url, (await withRetry(() => api.call('recheck.source', { url }), RETRY)).claims, signal),
              save: async (findings) => {
                // Storing the same findings twice stores them once: a call the stopping worker dropped is sent again.
                const saved = await withRetry(() => api.call('recheck.save', { findings }), RETRY);
                setView((v) => ({
                  ...v,
                  run: saved.run,
                  rechecks: [...v.rechecks.filter((r) => r.url !== saved.stored.url), saved.stored].sort((a, b) => (a.url < b.url ? -1 : 1)),
                }));
              },
            },
            controller.signal,
          );
          setView((v) => ({ ...v, failed: outcome.failed }));
        });
        if (!ran) setView((v) => ({ ...v, error: t('recheckElsewhere') }));
      } catch (e) {
        setView((v) => ({ ...v, error: message(e) }));
      } finally {
        stopper.current = null;
        setView((v) => ({ ...v, running: false }));
        await reload();
      }
    },
    [api, reload],
  );

  /** Starts a new run over a scope's sources. */
  const start = useCallback(
    async (scope: RecheckScope) => {
      try {
        const { run } = await api.call('recheck.start', { scope });
        if (!run.urls.length) {
          setView((v) => ({ ...v, run, error: t('recheckNothing') }));
          return;
        }
        await runPending(run);
      } catch (e) {
        setView((v) => ({ ...v, error: message(e) }));
      }
    },
    [api, runPending],
  );

  /** Continues the stored run where it stopped. */
  const resume = useCallback(async () => {
    const { run } = await api.call('recheck.state', {});
    if (run?.pending.length) await runPending(run);
  }, [api, runPending]);

  /** Stops the run: the sources under way are not stored; the rest stay pending for Resume. */
  const stop = useCallback(() => stopper.current?.abort(), []);

  /** Forgets the stopped run (its stored findings stay). */
  const discard = useCallback(async () => {
    await api.call('recheck.clear', {});
    await reload();
  }, [api, reload]);

  /** Accepts an edited passage's new text for one claim. */
  const accept = useCallback(
    async (id: string) => {
      try {
        const done = await api.call('recheck.accept', { id });
        setView((v) => ({ ...v, accepted: done, error: null, claims: v.claims.map((c) => (c.id === id ? done.after : c)) }));
        await reload();
      } catch (e) {
        setView((v) => ({ ...v, error: message(e) }));
      }
    },
    [api, reload],
  );

  /** Puts the last accepted claim's quote back as it was (saved anew, so it wins over the accepted one everywhere). */
  const undo = useCallback(async () => {
    const last = view.accepted;
    if (!last) return;
    try {
      await api.call('claims.save', { claims: [last.before] });
      setView((v) => ({ ...v, accepted: null }));
      await reload();
    } catch (e) {
      setView((v) => ({ ...v, error: message(e) }));
    }
  }, [api, reload, view.accepted]);

  /** Opens a PDF source in the viewer at a page (a new sentence's page). */
  const openPdf = useCallback(
    async (url: string, page: number) => {
      try {
        await api.call('pdf.open', { url, tabId: null, page });
      } catch (e) {
        setView((v) => ({ ...v, error: message(e) }));
      }
    },
    [api],
  );

  const progress = view.run ? runProgress(view.run) : null;
  return { view, progress, start, resume, stop, discard, accept, undo, openPdf, reload };
}
