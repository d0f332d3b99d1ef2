/**
 * The "Dataset" card: connect the team's git repository (address, branch,
 * token, display name; Test connection says plainly what is wrong), then pull
 * and publish. A publish is shown first as a dry run (per model: claims added,
 * changed, deleted; the commit message), and a pull's conflicts are settled
 * side by side as an import's are. Long work shows its step. The state and the
 * work are `use-dataset.ts`'s; each part of the card is a module of its own.
 */
import { t } from '../../lib/i18n';
import { activityText, type DatasetApi } from '../common/dataset';
import { DatasetConnected } from './DatasetConnected';
import { DatasetConnectionForm } from './DatasetConnectionForm';
import { DatasetDryRun } from './DatasetDryRun';
import { FailureView } from './DatasetFailure';
import { DatasetPublished } from './DatasetPublished';
import { DatasetPulled } from './DatasetPulled';
import { useDataset } from './use-dataset';

/** The options page's Dataset card. */
export function DatasetPanel({ api, version = 0, onPulled }: { api: DatasetApi; version?: number; onPulled?: () => void }) {
  const { connection, work, publishing, pulling } = useDataset(api, version, onPulled);
  const { view, form, editing } = connection;
  const { busy, status, problem, failure, check, clear } = work;
  const { dryRun, published } = publishing;
  const { pulled } = pulling;
  const link = view?.link ?? null;
  const connected = !!link && !editing;
  const running = status?.running;

  return (
    <section class="card" aria-labelledby="dataset-h" data-testid="dataset-panel" data-connected={connected ? 'yes' : 'no'} aria-busy={!!busy}>
      <h2 id="dataset-h">{t('datasetTitle')}</h2>
      {!view && <p class="muted">{t('datasetReading')}</p>}
      {view && !link && !editing && (
        <div class="empty" data-testid="dataset-empty">
          <p>
            <strong>{t('datasetEmptyTitle')}</strong> {t('datasetEmptyLead')}
          </p>
          <div class="actions">
            <button type="button" class="primary" data-testid="dataset-connect-open" onClick={() => connection.setEditing(true)}>
              {t('datasetConnectOpen')}
            </button>
          </div>
          <p class="muted small">{t('datasetEmptyTail')}</p>
        </div>
      )}
      {view && editing && (
        <DatasetConnectionForm
          form={form}
          hasToken={view.hasToken}
          busy={!!busy}
          link={link}
          set={connection.set}
          setForm={connection.setForm}
          save={connection.save}
          test={connection.test}
          clear={clear}
          setEditing={connection.setEditing}
        />
      )}
      {connected && link && (
        <DatasetConnected
          link={link}
          status={status}
          busy={!!busy}
          dryRun={!!dryRun}
          setTarget={publishing.setTarget}
          preview={publishing.preview}
          pull={pulling.pull}
          disconnect={connection.disconnect}
          edit={() => {
            clear();
            connection.setEditing(true);
            publishing.setTarget(link.target);
          }}
        />
      )}
      {busy && (
        <div class="dataset-progress" role="status" data-testid="dataset-progress">
          <progress class="progress" />
          <span>{running ? activityText(running) : busy}</span>
        </div>
      )}
      {problem && (
        <p class="error" role="alert" data-testid="dataset-problem">
          {problem}
        </p>
      )}
      {failure && <FailureView failure={failure} testId="dataset-failure" />}
      {check && (
        <p class="ok-text" role="status" data-testid="dataset-check">
          {check.empty ? t('datasetCheckEmpty', form.branch) : t('datasetCheckOk', form.branch)}
        </p>
      )}
      {dryRun && link && (
        <DatasetDryRun
          run={dryRun}
          branch={link.branch}
          target={publishing.target}
          message={publishing.message}
          onTarget={(to) => {
            publishing.setTarget(to);
            void publishing.preview(to);
          }}
          onMessage={publishing.setMessage}
          onPublish={() => void publishing.publish()}
          onCancel={() => publishing.setDryRun(null)}
        />
      )}
      {published && <DatasetPublished published={published} />}
      {pulled && (
        <DatasetPulled
          pulled={pulled}
          choices={pulling.choices}
          busy={!!busy}
          choose={(ref, take) => pulling.setChoices((m) => new Map(m).set(ref, take))}
          settle={pulling.settle}
          later={() => pulling.setPulled(null)}
        />
      )}
    </section>
  );
}
