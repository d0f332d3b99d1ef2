/** The small toolbar shown next to a text selection. */
import type { CaptureActions, Point } from './state';

/** Toolbar with one action (tag the selection) and a close button. */
export function Toolbar({ at, actions }: { at: Point; actions: CaptureActions }) {
  return (
    <div class="rl-toolbar" role="toolbar" aria-label="Recipe Lens" style={{ left: `${at.x}px`, top: `${at.y}px` }}>
      <span class="rl-logo" aria-hidden="true">
        RL
      </span>
      <button type="button" class="rl-toolbar-tag" data-testid="toolbar-tag" onClick={() => actions.openForm()} title="Tag the selection as a claim (Alt+Shift+C)">
        Tag as claim
        <kbd>Alt⇧C</kbd>
      </button>
      <button type="button" class="rl-icon" aria-label="Close toolbar (Escape)" onClick={() => actions.closeToolbar()}>
        ×
      </button>
    </div>
  );
}
