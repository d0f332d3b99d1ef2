/** Small shared pieces of the panel: evidence badge, kind chip, warnings. */
import type { ClaimKind, Evidence } from '../../lib/schema';
import { KIND_LABELS } from '../../lib/taxonomy';
import type { Warning } from '../../lib/survey';

/** An evidence level badge with its explanation on hover. */
export function EvidenceBadge({ level, title }: { level: Evidence; title?: string | null }) {
  return (
    <span class={`ev ev-${level}`} title={title ?? `Evidence level ${level}`} aria-label={`Evidence ${level}${title ? `: ${title}` : ''}`}>
      {level}
    </span>
  );
}

/** A claim kind chip in its kind's colour. */
export function KindChip({ kind }: { kind: ClaimKind }) {
  return <span class={`kind kind-${kind}`}>{KIND_LABELS[kind]}</span>;
}

/** A list of rule warnings. */
export function Warnings({ warnings }: { warnings: readonly Warning[] }) {
  if (!warnings.length) return null;
  return (
    <ul class="warnings" data-testid="warnings">
      {warnings.map((w, i) => (
        <li key={`${w.code}:${w.claimId ?? ''}:${i}`} class={`warning warning-${w.code}`}>
          {w.message}
        </li>
      ))}
    </ul>
  );
}
