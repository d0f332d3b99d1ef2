/** The claim finder's candidates on this page, in document order, each to accept (into the claim form) or dismiss. */
import { useEffect, useRef } from 'preact/hooks';
import { kindLabel, plural, stageLabel, t } from '../../lib/i18n';
import type { FinderActions, FinderState } from './state';

/** The finder's list, fixed at the top right of the page. Escape closes it. */
export function FinderList({ finder, actions }: { finder: FinderState; actions: FinderActions }) {
  const root = useRef<HTMLElement>(null);
  const done = finder.status === 'done';
  useEffect(() => {
    // Keyboard users land in the list as soon as it has something to act on.
    if (done) root.current?.querySelector<HTMLButtonElement>('[data-focus-first]')?.focus();
  }, [done]);
  return (
    <section
      ref={root}
      class="rl-finder"
      role="dialog"
      aria-label={t('finderTitle')}
      data-testid="finder-list"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.preventDefault();
        e.stopPropagation();
        actions.closeFinder();
      }}
    >
      <header class="rl-card-head">
        <span class="rl-title">{t('finderTitle')}</span>
        <button
          type="button"
          class="rl-icon"
          aria-label={t('close')}
          title={t('close')}
          data-testid="finder-close"
          data-focus-first={finder.items.length ? undefined : ''}
          onClick={() => actions.closeFinder()}
        >
          ×
        </button>
      </header>
      {finder.status === 'running' && (
        <p class="rl-hint rl-finder-note" role="status">
          {t('finderRunning')}
        </p>
      )}
      {finder.status === 'error' && <p class="rl-error-box rl-finder-note">{t('finderError', finder.error ?? '')}</p>}
      {done && (
        <p class="rl-hint rl-finder-note" role="status" data-testid="finder-count">
          {finder.items.length ? plural(finder.items.length, 'finderCountOne', 'finderCountMany') : t('finderNone')}
        </p>
      )}
      {done && finder.suggestUndisclosed && (
        <div class="rl-finder-undisclosed" data-testid="finder-undisclosed">
          <p class="rl-hint">{t('finderUndisclosedLead')}</p>
          <button type="button" class="rl-button" data-testid="finder-record-undisclosed" onClick={() => actions.recordUndisclosed()}>
            {t('finderUndisclosed')}
          </button>
        </div>
      )}
      {finder.items.length > 0 && (
        <ol class="rl-claims rl-finder-items">
          {finder.items.map((c, i) => (
            <li key={c.key} class="rl-claim" data-testid="finder-item" data-key={c.key}>
              <div class="rl-claim-main">
                <span class={`rl-kind rl-kind-${c.kind}`}>{kindLabel(c.kind)}</span>
                <strong class="rl-value" data-testid="finder-value">
                  {c.value}
                </strong>
              </div>
              <span class="rl-claim-meta">
                {c.stage ? stageLabel(c.stage) : t('finderNoStage')} · <span class="rl-model">{c.model ?? t('finderNoModel')}</span>
              </span>
              <button type="button" class="rl-finder-sentence" data-testid="finder-sentence" onClick={() => actions.showCandidate(c.key)}>
                {c.sentence}
              </button>
              <div class="rl-claim-actions">
                <button type="button" class="rl-link" data-testid="finder-dismiss" onClick={() => void actions.dismissCandidate(c.key)}>
                  {t('dismiss')}
                </button>
                <button
                  type="button"
                  class="rl-button rl-primary"
                  data-testid="finder-accept"
                  data-focus-first={i === 0 ? '' : undefined}
                  onClick={() => actions.acceptCandidate(c.key)}
                >
                  {t('finderAccept')}
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
