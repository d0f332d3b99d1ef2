/** The Dataset card's publish dry run: what a publish would change, where it goes, and its commit message. */
import { useEffect, useRef } from 'preact/hooks';
import type { PublishDryRun } from '../../lib/dataset/link';
import { changedModels } from '../../lib/dataset/summary';
import { plural, t } from '../../lib/i18n';

/** The dry run: per model, what the publish adds, changes and deletes, where it goes, and the commit message. */
export function DatasetDryRun({
  run,
  branch,
  target,
  message,
  onTarget,
  onMessage,
  onPublish,
  onCancel,
}: {
  run: PublishDryRun;
  branch: string;
  target: 'branch' | 'review';
  message: string;
  onTarget: (target: 'branch' | 'review') => void;
  onMessage: (message: string) => void;
  onPublish: () => void;
  onCancel: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const models = changedModels(run.models);
  // Source records alone are a publish too (to the branch: a review carries claims and models only).
  const sources = run.sources ?? 0;
  const nothing = models.length === 0 && sources === 0;
  return (
    <div
      class="dataset-dry-run"
      data-testid="dataset-dry-run"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <h3 tabIndex={-1} ref={heading}>
        {t('datasetDryRunTitle')}
      </h3>
      {nothing ? (
        <p data-testid="dataset-nothing">{t('datasetNothingToPublish')}</p>
      ) : (
        <>
          <p class="counts" data-testid="dataset-dry-run-totals">
            {t('datasetDryRunTotals', run.totals.added, run.totals.changed, run.totals.deleted, run.totals.records)}
          </p>
          {sources > 0 && (
            <p class="muted small" data-testid="dataset-dry-run-sources">
              {t('datasetDryRunSources', sources)}
            </p>
          )}
          <table class="dataset-models">
            <thead>
              <tr>
                <th scope="col">{t('colModel')}</th>
                <th scope="col">{t('datasetAdded')}</th>
                <th scope="col">{t('datasetChanged')}</th>
                <th scope="col">{t('datasetDeleted')}</th>
                <th scope="col">{t('datasetModelRecord')}</th>
              </tr>
            </thead>
            <tbody>
              {models.map((m) => (
                <tr key={m.model} data-testid="dataset-model-change" data-model={m.model}>
                  <th scope="row">{m.model}</th>
                  <td>{m.claims.added || '—'}</td>
                  <td>{m.claims.changed || '—'}</td>
                  <td>{m.claims.deleted || '—'}</td>
                  <td>{m.records.added ? t('datasetRecordAdded') : m.records.changed ? t('datasetRecordChanged') : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <fieldset class="dataset-target">
            <legend>{t('datasetPublishTo')}</legend>
            <label class="check">
              <input type="radio" name="dataset-target" checked={target === 'branch'} data-testid="dataset-target-branch" onChange={() => onTarget('branch')} />{' '}
              {t('datasetTargetBranch', branch)}
            </label>
            <label class="check">
              <input type="radio" name="dataset-target" checked={target === 'review'} data-testid="dataset-target-review" onChange={() => onTarget('review')} />{' '}
              {t('datasetTargetReview', run.reviewBranch)}
            </label>
          </fieldset>
          <label class="stack">
            <span>{t('datasetCommitMessage')}</span>
            <textarea rows={5} value={message} data-testid="dataset-commit-message" onInput={(e) => onMessage(e.currentTarget.value)} />
          </label>
        </>
      )}
      {run.conflicts.length > 0 && (
        <p class="reminder" data-testid="dataset-dry-run-conflicts">
          {plural(run.conflicts.length, 'datasetLeftOutOne', 'datasetLeftOutMany')}
        </p>
      )}
      <div class="actions">
        {!nothing && (
          <button type="button" class="primary" data-testid="dataset-publish-confirm" onClick={onPublish}>
            {t('datasetPublishNow')}
          </button>
        )}
        <button type="button" data-testid="dataset-publish-cancel" onClick={onCancel}>
          {nothing ? t('close') : t('cancel')}
        </button>
      </div>
    </div>
  );
}
