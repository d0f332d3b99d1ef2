/** The page's orphans — claims whose passage is not on the page as it is now — with a re-attach action each. */
import type { ClaimRecord } from '../../lib/schema';
import { kindLabel, plural, t } from '../../lib/i18n';
import type { CaptureActions } from './state';

/** A pill counting orphans that opens their list; shows the re-attach instruction while one is being re-attached. */
export function OrphanList({
  orphans,
  open,
  reattaching,
  actions,
}: {
  orphans: ClaimRecord[];
  open: boolean;
  reattaching: ClaimRecord | null;
  actions: CaptureActions;
}) {
  if (reattaching) {
    return (
      <div class="rl-orphans rl-reattach" role="status" data-testid="reattach-banner">
        <span>{t('reattachBanner', reattaching.value, reattaching.model)}</span>
        <button type="button" class="rl-link" onClick={() => actions.cancelReattach()}>
          {t('cancel')}
        </button>
      </div>
    );
  }
  if (!orphans.length) return null;
  return (
    <div class="rl-orphans">
      {open && (
        <ul class="rl-orphan-list" data-testid="orphan-list" aria-label={t('orphansLabel')}>
          {orphans.map((c) => (
            <li key={c.id} class="rl-claim">
              <div class="rl-claim-main">
                <span class={`rl-kind rl-kind-${c.kind}`}>{kindLabel(c.kind)}</span>
                <strong class="rl-value">{c.value}</strong>
                <span class="rl-claim-meta">{c.model}</span>
              </div>
              <blockquote class="rl-quote rl-quote-small">{c.quote.exact}</blockquote>
              <div class="rl-claim-actions">
                <button type="button" class="rl-link" data-testid="orphan-reattach" onClick={() => actions.startReattach(c.id)}>
                  {t('reattach')}
                </button>
                <button type="button" class="rl-link rl-danger" onClick={() => void actions.remove([c.id])}>
                  {t('delete')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        class="rl-orphan-pill"
        data-testid="orphan-pill"
        aria-expanded={open}
        onClick={() => actions.toggleOrphans()}
        title={t('orphanPillTitle')}
      >
        {plural(orphans.length, 'orphansOne', 'orphansMany')}
      </button>
    </div>
  );
}
