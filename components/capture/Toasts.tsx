/** Notices at the bottom right of the page: saves, errors and undo. */
import type { CaptureActions, Toast } from './state';

/** The stack of current notices. */
export function Toasts({ toasts, actions }: { toasts: Toast[]; actions: CaptureActions }) {
  if (!toasts.length) return null;
  return (
    <div class="rl-toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} class={`rl-toast rl-toast-${t.tone}`} data-testid="toast">
          <span>{t.text}</span>
          {t.undo && (
            <button type="button" class="rl-link" data-testid="toast-undo" onClick={() => void actions.undo(t.id)}>
              Undo
            </button>
          )}
          <button type="button" class="rl-icon" aria-label="Dismiss" onClick={() => actions.dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
