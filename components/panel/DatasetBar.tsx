/**
 * The panel's dataset bar: the status line (last pull, last publish, local
 * changes not yet published, conflicts waiting) and Pull and Publish. Publish
 * shows its dry run first (what it adds, changes and deletes, and where);
 * conflicts are settled on the options page, where they are shown side by side.
 * Nothing is shown when no dataset is connected.
 */
import { useEffect, useState } from 'preact/hooks';
import type { DatasetFailure, DatasetStatus, PublishDryRun } from '../../lib/dataset/link';
import { changedModels } from '../../lib/dataset/summary';
import { plural, t } from '../../lib/i18n';
import type { Calls } from '../../lib/messages';
import { activityText, failureText, pullSummary } from '../common/dataset';
import { DatasetStatusLine } from '../common/DatasetStatusLine';

const POLL_MS = 600;

/** The dataset bar of the panel; `version` changes when the store does. */
export function DatasetBar({
  api,
  version,
  onOpenOptions,
}: {
  api: Calls<'dataset.status' | 'dataset.pull' | 'dataset.preview' | 'dataset.publish'>;
  version: number;
  onOpenOptions?: () => void;
}) {
  const [status, setStatus] = useState<DatasetStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const [dryRun, setDryRun] = useState<PublishDryRun | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [failure, setFailure] = useState<DatasetFailure | null>(null);

  const refresh = () => api.call('dataset.status', {}).then(setStatus, () => setStatus(null));
  useEffect(() => {
    void refresh();
  }, [api, version]);
  useEffect(() => {
    if (!busy) return;
    const timer = window.setInterval(() => void refresh(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [busy, api]);

  if (!status?.connected) return null;

  const run = async <T,>(work: () => Promise<T>): Promise<T | null> => {
    setBusy(true);
    setNote(null);
    setFailure(null);
    try {
      return await work();
    } catch (e) {
      setFailure({ code: 'failed', message: e instanceof Error ? e.message : String(e), details: [] });
      return null;
    } finally {
      setBusy(false);
      void refresh();
    }
  };

  const pull = async () => {
    const outcome = await run(() => api.call('dataset.pull', {}));
    if (!outcome) return;
    if (outcome.failure) return setFailure(outcome.failure);
    setNote(`${pullSummary(outcome)}${outcome.conflictCount ? ` ${plural(outcome.conflictCount, 'datasetConflictsOne', 'datasetConflictsMany')}.` : ''}`);
  };
  const preview = async () => {
    const outcome = await run(() => api.call('dataset.preview', {}));
    if (!outcome) return;
    if (outcome.failure) return setFailure(outcome.failure);
    setDryRun(outcome);
  };
  const publish = async () => {
    setDryRun(null);
    const outcome = await run(() => api.call('dataset.publish', {}));
    if (!outcome) return;
    if (outcome.failure) return setFailure(outcome.failure);
    setNote(
      outcome.status === 'nothing'
        ? t('datasetNothingToPublish')
        : t('datasetPublishedTo', outcome.pushedTo, (outcome.commit ?? '').slice(0, 7), outcome.totals.added + outcome.totals.changed + outcome.totals.deleted),
    );
  };

  const models = dryRun ? changedModels(dryRun.models) : [];
  return (
    <section class="dataset-bar" aria-label={t('datasetTitle')} data-testid="panel-dataset" aria-busy={busy}>
      <div class="dataset-bar-row">
        <DatasetStatusLine status={status} />
        <div class="dataset-buttons">
          <button type="button" class="btn" disabled={busy} data-testid="panel-dataset-pull" onClick={() => void pull()}>
            {t('datasetPull')}
          </button>
          <button type="button" class="btn primary" disabled={busy || !!dryRun} data-testid="panel-dataset-publish" onClick={() => void preview()}>
            {t('datasetPublishEllipsis')}
          </button>
        </div>
      </div>
      {busy && (
        <p class="muted small" role="status" data-testid="panel-dataset-progress">
          {status.running ? activityText(status.running) : t('datasetWorking')}
        </p>
      )}
      {status.conflicts > 0 && onOpenOptions && !busy && (
        <p class="small">
          <button type="button" class="link" data-testid="panel-dataset-settle" onClick={onOpenOptions}>
            {t('datasetSettleInOptions')}
          </button>
        </p>
      )}
      {dryRun && (
        <div
          class="dataset-dry-run"
          data-testid="panel-dataset-dry-run"
          onKeyDown={(e) => {
            if (e.key === 'Escape') setDryRun(null);
          }}
        >
          {models.length === 0 && !dryRun.sources ? (
            <p>{t('datasetNothingToPublish')}</p>
          ) : (
            <>
              <p class="counts">{t('datasetDryRunTotals', dryRun.totals.added, dryRun.totals.changed, dryRun.totals.deleted, dryRun.totals.records)}</p>
              <ul class="small">
                {models.map((m) => (
                  <li key={m.model} data-testid="panel-dataset-model">
                    <b>{m.model}</b> {t('datasetModelLine', m.claims.added, m.claims.changed, m.claims.deleted)}
                  </li>
                ))}
              </ul>
              {dryRun.sources ? <p class="muted small">{t('datasetDryRunSources', dryRun.sources)}</p> : null}
              <p class="muted small">{t('datasetWillPublishTo', dryRun.pushTo)}</p>
            </>
          )}
          {dryRun.conflicts.length > 0 && <p class="small">{plural(dryRun.conflicts.length, 'datasetLeftOutOne', 'datasetLeftOutMany')}</p>}
          <div class="dataset-buttons">
            {(models.length > 0 || !!dryRun.sources) && (
              <button type="button" class="btn primary" data-testid="panel-dataset-confirm" ref={(b) => b?.focus()} onClick={() => void publish()}>
                {t('datasetPublishNow')}
              </button>
            )}
            <button type="button" class="btn" data-testid="panel-dataset-cancel" onClick={() => setDryRun(null)}>
              {models.length || dryRun.sources ? t('cancel') : t('close')}
            </button>
          </div>
        </div>
      )}
      {note && (
        <p class="small ok-text" role="status" data-testid="panel-dataset-note">
          {note}
        </p>
      )}
      {failure && (
        <div class="small error" role="alert" data-testid="panel-dataset-failure" data-code={failure.code}>
          <strong>{failureText(failure)}</strong> {failure.message}
          {failure.details.length > 0 && (
            <ul>
              {failure.details.slice(0, 8).map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
