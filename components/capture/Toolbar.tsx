/** The small toolbar shown next to a text selection: tag it, or (while re-attaching an orphan) attach the orphan to it. */
import type { ClaimRecord } from '../../lib/schema';
import { t } from '../../lib/i18n';
import type { CaptureActions, Point } from './state';

/** Toolbar with the selection's main action and a close button. */
export function Toolbar({ at, actions, reattaching }: { at: Point; actions: CaptureActions; reattaching: ClaimRecord | null }) {
  return (
    <div class="rl-toolbar" role="toolbar" aria-label={t('toolbarLabel')} style={{ left: `${at.x}px`, top: `${at.y}px` }}>
      <span class="rl-logo" aria-hidden="true">
        RL
      </span>
      {reattaching ? (
        <button type="button" class="rl-toolbar-tag" data-testid="toolbar-attach" onClick={() => void actions.attachHere()} title={t('toolbarAttachTitle')}>
          {t('toolbarAttach', reattaching.value)}
        </button>
      ) : (
        <button type="button" class="rl-toolbar-tag" data-testid="toolbar-tag" onClick={() => actions.openForm()} title={t('toolbarTagTitle')}>
          {t('toolbarTag')}
          <kbd>Alt⇧C</kbd>
        </button>
      )}
      <button type="button" class="rl-icon" aria-label={t('closeToolbar')} onClick={() => actions.closeToolbar()}>
        ×
      </button>
    </div>
  );
}
