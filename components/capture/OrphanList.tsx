/** The page's orphans — claims whose passage is not on the page as it is now — with a re-attach action each. */
import type { ClaimRecord } from '../../lib/schema';
import { KIND_LABELS } from '../../lib/taxonomy';
import type { CaptureActions } from './state';

/** A pill counting orphans that opens their list; shows the re-attach instruction while one is being re-attached. */
export function OrphanList({ orphans, open, reattaching, actions }: { orphans: ClaimRecord[]; open: boolean; reattaching: ClaimRecord | null; actions: CaptureActions }) {
  if (reattaching) {
    return (
      <div class="rl-orphans rl-reattach" role="status" data-testid="reattach-banner">
        <span>
          Select the new passage for <b>{reattaching.value}</b> · {reattaching.model}, then choose “Attach here”.
        </span>
        <button type="button" class="rl-link" onClick={() => actions.cancelReattach()}>
          Cancel
        </button>
      </div>
    );
  }
  if (!orphans.length) return null;
  return (
    <div class="rl-orphans">
      {open && (
        <ul class="rl-orphan-list" data-testid="orphan-list" aria-label="Orphaned claims">
          {orphans.map((c) => (
            <li key={c.id} class="rl-claim">
              <div class="rl-claim-main">
                <span class={`rl-kind rl-kind-${c.kind}`}>{KIND_LABELS[c.kind]}</span>
                <strong class="rl-value">{c.value}</strong>
                <span class="rl-claim-meta">{c.model}</span>
              </div>
              <blockquote class="rl-quote rl-quote-small">{c.quote.exact}</blockquote>
              <div class="rl-claim-actions">
                <button type="button" class="rl-link" data-testid="orphan-reattach" onClick={() => actions.startReattach(c.id)}>
                  Re-attach
                </button>
                <button type="button" class="rl-link rl-danger" onClick={() => void actions.remove([c.id])}>
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <button type="button" class="rl-orphan-pill" data-testid="orphan-pill" aria-expanded={open} onClick={() => actions.toggleOrphans()} title="Claims whose passage was not found on this page">
        {orphans.length} orphan{orphans.length === 1 ? '' : 's'}
      </button>
    </div>
  );
}
