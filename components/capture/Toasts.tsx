/** Notices at the bottom right of the page: saves, errors and undo. */
import { t } from '../../lib/i18n';
import type { CaptureActions, Toast } from './state';

/** The stack of current notices. */
export function Toasts({ toasts, actions }: { toasts: Toast[]; actions: CaptureActions }) {
  if (!toasts.length) return null;
  return (
    <div class="rl-toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} class={`rl-toast rl-toast-${toast.tone}`} data-testid="toast">
          <span>{toast.text}</span>
          {toast.undo && (
            <button type="button" class="rl-link" data-testid="toast-undo" onClick={() => void actions.undo(toast.id)}>
              {t('undo')}
            </button>
          )}
          <button type="button" class="rl-icon" aria-label={t('dismiss')} onClick={() => actions.dismissToast(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
