/**
 * *Recheck sources*: choose what to recheck (everything, one model's sources, one source), watch its progress, stop
 * it and resume it later, then read the report. Nothing changes a claim but the curator's Accept (with Undo).
 */
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { RecheckScope } from '../../lib/recheck';
import type { RecheckApi } from './api';
import { RecheckReport } from './RecheckReport';
import { useRecheck } from './use-recheck';

type ScopeKind = RecheckScope['kind'];

/** The scope the controls describe, or null while a part is missing. */
function scopeOf(kind: ScopeKind, model: string, url: string): RecheckScope | null {
  if (kind === 'all') return { kind };
  if (kind === 'model') return model ? { kind, model } : null;
  try {
    const parsed = new URL(url.trim());
    return /^https?:$/.test(parsed.protocol) ? { kind, url: parsed.href } : null;
  } catch {
    return null;
  }
}

/** The card; `model` fixes the scope to one model's sources (the evidence panel's model view). */
export function RecheckCard({ api, model: fixedModel }: { api: RecheckApi; model?: string }) {
  const { view, progress, start, resume, stop, discard, accept, undo, openPdf } = useRecheck(api);
  const [kind, setKind] = useState<ScopeKind>(fixedModel ? 'model' : 'all');
  const [model, setModel] = useState(fixedModel ?? '');
  const [url, setUrl] = useState('');
  const [models, setModels] = useState<string[]>([]);

  useEffect(() => {
    if (fixedModel) return;
    void api
      .call('models.names', {})
      .then((r) => setModels([...r.names].sort()))
      .catch(() => setModels([]));
  }, [api, fixedModel]);

  const scope = fixedModel ? ({ kind: 'model', model: fixedModel } as const) : scopeOf(kind, model, url);
  const pending = !view.running && view.run && view.run.pending.length > 0;
  const busy = view.running;

  return (
    <section class="card rc-card" aria-labelledby="recheck-h" data-testid="recheck-card" aria-busy={busy}>
      <h2 id="recheck-h">{fixedModel ? t('recheckModelTitle', fixedModel) : t('recheckTitle')}</h2>
      <p class="muted">{t('recheckLead')}</p>

      {!fixedModel && (
        <fieldset class="rc-scope" disabled={busy}>
          <legend>{t('recheckScope')}</legend>
          <label>
            <input type="radio" name="rc-scope" checked={kind === 'all'} onChange={() => setKind('all')} /> {t('recheckScopeAll')}
          </label>
          <label>
            <input type="radio" name="rc-scope" checked={kind === 'model'} onChange={() => setKind('model')} /> {t('recheckScopeModel')}
          </label>
          {kind === 'model' && (
            <select
              value={model}
              onChange={(e) => setModel((e.target as HTMLSelectElement).value)}
              aria-label={t('recheckScopeModel')}
              data-testid="recheck-model-select"
            >
              <option value="">{t('recheckPickModel')}</option>
              {models.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          )}
          <label>
            <input type="radio" name="rc-scope" checked={kind === 'source'} onChange={() => setKind('source')} /> {t('recheckScopeSource')}
          </label>
          {kind === 'source' && (
            <input
              type="url"
              class="rc-url"
              placeholder="https://…"
              value={url}
              onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
              aria-label={t('recheckScopeSource')}
              data-testid="recheck-url"
            />
          )}
        </fieldset>
      )}

      <div class="rc-actions">
        {busy ? (
          <button type="button" class="danger" onClick={stop} data-testid="recheck-stop">
            {t('recheckStop')}
          </button>
        ) : (
          <button type="button" class="primary" disabled={!scope} onClick={() => scope && void start(scope)} data-testid="recheck-start">
            {t('recheckStart')}
          </button>
        )}
        {pending && (
          <>
            <button type="button" onClick={() => void resume()} data-testid="recheck-resume">
              {t('recheckResume', view.run!.pending.length)}
            </button>
            <button type="button" class="link" onClick={() => void discard()}>
              {t('recheckDiscard')}
            </button>
          </>
        )}
      </div>

      {progress && (busy || pending) && (
        <div class="rc-progress" role="status" data-testid="recheck-progress">
          <progress class="progress" max={progress.total} value={progress.done} />
          <span>{busy ? t('recheckProgress', progress.done, progress.total) : t('recheckStopped', progress.done, progress.total)}</span>
        </div>
      )}
      {progress && !busy && !pending && view.run?.finished_at && (
        <p class="muted small" role="status" data-testid="recheck-done">
          {t('recheckDone', progress.total)}
        </p>
      )}
      {view.failed.length > 0 && (
        <p class="error small" role="alert">
          {t('recheckFailed', view.failed.length, view.failed[0]!.message)}
        </p>
      )}
      {view.error && (
        <p class="error" role="alert" data-testid="recheck-error">
          {view.error}
        </p>
      )}
      {view.accepted && (
        <p class="rc-undo" role="status" data-testid="recheck-accepted">
          {t('recheckAcceptedNote', view.accepted.after.value)}{' '}
          <button type="button" class="link" onClick={() => void undo()} data-testid="recheck-undo">
            {t('undo')}
          </button>
        </p>
      )}

      {view.loaded && (
        <RecheckReport
          rechecks={view.rechecks}
          claims={view.claims}
          actions={{ accept: (id) => void accept(id), openPdf: (pdf, page) => void openPdf(pdf, page) }}
          busy={busy}
          only={fixedModel}
        />
      )}
    </section>
  );
}
