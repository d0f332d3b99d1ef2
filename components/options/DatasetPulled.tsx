/** What a pull did, and its conflicts settled side by side as an import's are (each keeps the local version unless chosen). */
import type { PullDone } from '../../lib/dataset/link';
import { t } from '../../lib/i18n';
import { pullSummary } from '../common/dataset';
import { Conflict } from './ImportPanel';
import type { Take } from './use-dataset';

/** A pull's outcome; `settle` settles its conflicts as chosen, `later` leaves them. */
export function DatasetPulled({
  pulled,
  choices,
  busy,
  choose,
  settle,
  later,
}: {
  pulled: PullDone;
  choices: Map<string, Take>;
  busy: boolean;
  choose: (ref: string, take: Take) => void;
  settle: () => Promise<void>;
  later: () => void;
}) {
  return (
    <div class={pulled.conflictCount ? 'dataset-pulled warn' : 'dataset-pulled ok-text'} role="status" data-testid="dataset-pulled">
      <p>{pullSummary(pulled)}</p>
      {pulled.conflictCount > 0 && (
        <div class="conflicts" data-testid="dataset-conflicts">
          <p class="muted small">{t('datasetConflictsExplained')}</p>
          {pulled.conflicts.map((c) => (
            <Conflict key={c.ref} conflict={c} fileName={t('datasetTheDataset')} take={choices.get(c.ref) ?? 'mine'} onChoose={(take) => choose(c.ref, take)} />
          ))}
          <div class="actions">
            <button type="button" class="primary" disabled={busy} data-testid="dataset-settle" onClick={() => void settle()}>
              {t('datasetSettle')}
            </button>
            <button type="button" disabled={busy} data-testid="dataset-settle-later" onClick={later}>
              {t('datasetLater')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
