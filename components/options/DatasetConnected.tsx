/** The Dataset card once connected: where it publishes, the status, the open reviews, and publish, pull, edit and disconnect. */
import type { DatasetLink, DatasetStatus } from '../../lib/dataset/link';
import { t } from '../../lib/i18n';
import { statusParts } from '../common/dataset';
import { FailureView } from './DatasetFailure';
import { DatasetReviews } from './DatasetReviews';
import type { Target } from './use-dataset';

/** The connected card's body; `preview` starts a publish's dry run at a target. */
export function DatasetConnected({
  link,
  status,
  busy,
  dryRun,
  setTarget,
  preview,
  pull,
  disconnect,
  edit,
}: {
  link: DatasetLink;
  status: DatasetStatus | null;
  busy: boolean;
  /** Whether a dry run is shown (a publish waits for it). */
  dryRun: boolean;
  setTarget: (target: Target) => void;
  preview: (to: Target) => Promise<void>;
  pull: () => Promise<void>;
  disconnect: () => Promise<void>;
  /** Opens the form over the connection. */
  edit: () => void;
}) {
  return (
    <div class="dataset-connected">
      <p data-testid="dataset-where">
        {t('datasetConnectedTo')} <code>{link.url}</code> · <code>{link.branch}</code> · {link.name}
      </p>
      {status && (
        <ul class="dataset-status" data-testid="dataset-status" data-unpublished={status.unpublished} data-conflicts={status.conflicts}>
          {statusParts(status).map((part) => (
            <li key={part}>{part}</li>
          ))}
        </ul>
      )}
      {status?.lastError && <FailureView failure={status.lastError} testId="dataset-auto-error" />}
      {status && (
        <DatasetReviews
          reviews={status.reviews}
          busy={busy || dryRun}
          onUpdate={() => {
            setTarget('review');
            void preview('review');
          }}
        />
      )}
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={busy || dryRun}
          data-testid="dataset-publish"
          onClick={() => {
            // The dry run starts at the connection's target (a review, when the curator publishes for review).
            setTarget(link.target);
            void preview(link.target);
          }}
        >
          {t('datasetPublishEllipsis')}
        </button>
        <button type="button" disabled={busy} data-testid="dataset-pull" onClick={() => void pull()}>
          {t('datasetPullNow')}
        </button>
        <button type="button" disabled={busy} data-testid="dataset-edit" onClick={edit}>
          {t('datasetEdit')}
        </button>
        <button type="button" class="link" disabled={busy} data-testid="dataset-disconnect" onClick={() => void disconnect()}>
          {t('datasetDisconnect')}
        </button>
      </div>
    </div>
  );
}
