/** The card listing the claims on a painted passage, with edit and delete. */
import { useEffect, useRef } from 'preact/hooks';
import type { ClaimRecord } from '../../lib/schema';
import { kindLabel, plural, stageLabel, t } from '../../lib/i18n';
import type { CaptureActions, Point } from './state';

/** Claims on one passage. */
export function ClaimCard({
  claims,
  at,
  pinned,
  actions,
  changed,
}: {
  claims: ClaimRecord[];
  at: Point;
  pinned: boolean;
  actions: CaptureActions;
  changed: Record<string, { old: string; now: string }>;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (pinned) ref.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [pinned]);
  if (!claims.length) return null;
  const quote = claims[0]!.quote.exact;
  return (
    <div
      ref={ref}
      class="rl-card"
      role="dialog"
      aria-label={plural(claims.length, 'onPassageOne', 'onPassageMany')}
      data-testid="claim-card"
      style={{ left: `${at.x}px`, top: `${at.y}px` }}
      onMouseEnter={() => actions.hoverCard(true)}
      onMouseLeave={() => actions.hoverCard(false)}
    >
      <header class="rl-card-head">
        <span class="rl-title">{plural(claims.length, 'claimsOne', 'claimsMany')}</span>
        <button type="button" class="rl-icon" aria-label={t('close')} onClick={() => actions.closeCard()}>
          ×
        </button>
      </header>
      <blockquote class="rl-quote rl-quote-small">{quote}</blockquote>
      <ul class="rl-claims">
        {claims.map((c) => (
          <li key={c.id} class="rl-claim" data-testid="card-claim">
            <div class="rl-claim-main">
              <span class={`rl-kind rl-kind-${c.kind}`}>{kindLabel(c.kind)}</span>
              <strong class="rl-value">{c.value}</strong>
              <span class={`rl-evidence rl-evidence-${c.evidence}`} title={c.evidence_reason ?? t('evidenceLevelN', c.evidence)}>
                {c.evidence}
              </span>
            </div>
            <div class="rl-claim-meta">
              <span class="rl-model">{c.model}</span>
              {c.recipe && <span> · {c.recipe}</span>}
              {c.stage && <span> · {stageLabel(c.stage)}</span>}
            </div>
            {c.note && <p class="rl-note">{c.note}</p>}
            {changed[c.id] && (
              <div class="rl-changed" data-testid="text-changed">
                <strong>{t('textChanged')}</strong>
                <del>{changed[c.id]!.old}</del>
                <ins>{changed[c.id]!.now}</ins>
                <button type="button" class="rl-link" data-testid="confirm-text" onClick={() => void actions.confirmText(c.id)}>
                  {t('confirmText')}
                </button>
              </div>
            )}
            <div class="rl-claim-actions">
              <button type="button" class="rl-link" data-testid="card-edit" onClick={() => actions.edit(c.id)}>
                {t('edit')}
              </button>
              <button type="button" class="rl-link rl-danger" data-testid="card-delete" onClick={() => void actions.remove([c.id])}>
                {t('delete')}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
