/** The in-page capture UI, mounted in a shadow root: toolbar, claim form, claim card and notices. */
import type { Store } from '../common/store';
import { useStore } from '../common/store';
import { useLocale } from '../common/i18n';
import { t } from '../../lib/i18n';
import { ClaimCard } from './ClaimCard';
import { ClaimForm } from './ClaimForm';
import { Toasts } from './Toasts';
import { Toolbar } from './Toolbar';
import { OrphanList } from './OrphanList';
import { FinderList } from './FinderList';
import type { CaptureActions, CaptureState } from './state';

/** Root component of the capture UI. */
export function CaptureApp({ store, actions }: { store: Store<CaptureState>; actions: CaptureActions }) {
  const state = useStore(store);
  useLocale();
  const cardClaims = state.card ? state.claims.filter((c) => state.card!.ids.includes(c.id)) : [];
  const orphans = state.claims.filter((c) => state.orphans.includes(c.id));
  const reattaching = state.reattach ? (state.claims.find((c) => c.id === state.reattach) ?? null) : null;
  return (
    <div class="rl-root">
      {state.toolbar && !state.form && <Toolbar at={state.toolbar} actions={actions} reattaching={reattaching} />}
      {state.form && (
        <ClaimForm key={`${state.form.mode}:${state.form.editing?.id ?? state.form.passage.quote.exact}`} session={state.form} actions={actions} />
      )}
      {state.card && !state.form && cardClaims.length > 0 && (
        <ClaimCard claims={cardClaims} at={state.card.at} pinned={state.card.pinned} actions={actions} changed={state.changed} />
      )}
      {state.disconnected && (
        <div class="rl-toasts" role="alert">
          <div class="rl-toast rl-toast-error" data-testid="disconnected">
            {t('disconnected')}
          </div>
        </div>
      )}
      {state.finder && !state.form && actions.finder && <FinderList finder={state.finder} actions={actions.finder} />}
      {!state.form && <OrphanList orphans={orphans} open={state.orphanList} reattaching={reattaching} actions={actions} />}
      <Toasts toasts={state.toasts} actions={actions} />
    </div>
  );
}
