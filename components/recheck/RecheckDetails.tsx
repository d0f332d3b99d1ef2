/** The recheck card folded in a model's view: its code (and the schemas it brings) loaded when first opened, so the panel's first rows need none of it. */
import { useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { RecheckApi } from './api';

type Card = typeof import('./RecheckCard').RecheckCard;

/** "Recheck sources" for one model, opened on demand. */
export function RecheckDetails({ api, model }: { api: RecheckApi; model: string }) {
  const [card, setCard] = useState<{ Card: Card } | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const onToggle = (event: Event) => {
    if (!(event.currentTarget as HTMLDetailsElement).open || card) return;
    import('./RecheckCard').then(
      (m) => setCard({ Card: m.RecheckCard }),
      (e: unknown) => setFailed(e instanceof Error ? e.message : String(e)),
    );
  };
  return (
    <details class="block rc-panel" data-testid="panel-recheck" onToggle={onToggle}>
      <summary>{t('recheckThisModel')}</summary>
      {card ? (
        <card.Card api={api} model={model} />
      ) : failed ? (
        <p class="error" role="alert">
          {failed}
        </p>
      ) : (
        <p class="muted">{t('readingStore')}</p>
      )}
    </details>
  );
}
