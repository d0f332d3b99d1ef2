/** "Find claims on this page" in the panel's "This page" view: the active tab's candidates, each to accept (in the page's form) or dismiss. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FinderReport } from '../../lib/capture/finder';
import type { ResponseOf } from '../../lib/messages';
import { kindLabel, plural, stageLabel, t } from '../../lib/i18n';

/** What the section can ask of the tab. */
export type FinderCall = (action: 'run' | 'accept' | 'dismiss' | 'undisclosed', key?: string) => Promise<ResponseOf<'tab.finder'>>;

/** The finder's part of the page view. `revision` changes whenever the page's claims were read again. */
export function FinderSection({ url, call, revision }: { url: string; call: FinderCall; revision: unknown }) {
  const [report, setReport] = useState<FinderReport | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const shownFor = useRef<string | null>(null);

  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const { report: found } = await call('run');
      shownFor.current = url;
      setReport(found);
    } catch (e) {
      setError(t('finderError', e instanceof Error ? e.message : String(e)));
    } finally {
      setBusy(false);
    }
  };

  // Another page: its own candidates, found only when asked.
  useEffect(() => {
    if (shownFor.current !== url) {
      setReport(null);
      setNote(null);
    }
  }, [url]);
  // The page's claims changed (a candidate accepted and saved there): find again, so the list matches the page.
  useEffect(() => {
    if (report && shownFor.current === url) void run();
  }, [revision]);

  const act = async (action: 'accept' | 'dismiss' | 'undisclosed', key?: string) => {
    setError(null);
    try {
      const { opened } = await call(action, key);
      if (action === 'dismiss' && opened) setReport((r) => (r ? { ...r, candidates: r.candidates.filter((c) => c.key !== key) } : r));
      else if (opened) setNote(t('finderOpenedInPage'));
      if (!opened) setError(t('errPageCouldNot'));
    } catch (e) {
      setError(t('finderError', e instanceof Error ? e.message : String(e)));
    }
  };

  return (
    <section class="finder" aria-label={t('finderTitle')} data-testid="panel-finder">
      <button type="button" class="btn" data-testid="panel-find" disabled={busy} onClick={() => void run()}>
        {busy ? t('finderRunning') : t('finderFind')}
      </button>
      {error && <p class="error">{error}</p>}
      {note && <p class="muted small">{note}</p>}
      {report && (
        <>
          <h3 data-testid="panel-finder-count">
            {report.candidates.length ? plural(report.candidates.length, 'finderCountOne', 'finderCountMany') : t('finderNone')}
          </h3>
          {report.suggestUndisclosed && (
            <div class="finder-undisclosed">
              <p class="muted small">{t('finderUndisclosedLead')}</p>
              <button type="button" class="btn" data-testid="panel-finder-undisclosed" onClick={() => void act('undisclosed')}>
                {t('finderUndisclosed')}
              </button>
            </div>
          )}
          <ol class="finder-items">
            {report.candidates.map((c) => (
              <li key={c.key} class="finder-item" data-testid="panel-candidate" data-key={c.key}>
                <p>
                  <span class={`kind kind-${c.kind}`}>{kindLabel(c.kind)}</span> <strong>{c.value}</strong>
                  <span class="muted small">
                    {' · '}
                    {c.stage ? stageLabel(c.stage) : t('finderNoStage')} · {c.model ?? t('finderNoModel')}
                  </span>
                </p>
                <blockquote class="small">{c.sentence}</blockquote>
                <div class="claim-actions">
                  <button type="button" class="btn" data-testid="panel-candidate-dismiss" onClick={() => void act('dismiss', c.key)}>
                    {t('dismiss')}
                  </button>
                  <button type="button" class="btn primary" data-testid="panel-candidate-accept" onClick={() => void act('accept', c.key)}>
                    {t('finderAccept')}
                  </button>
                </div>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
