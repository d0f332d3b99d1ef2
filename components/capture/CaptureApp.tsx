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
import { partPlace, type UiPart } from './ui-parts';

/**
 * Root component of the capture UI: every part (an extension page's own UI), or one part in a frame of its own
 * (a web page's, see `frame-host.ts`), placed by the frame.
 */
export function CaptureApp({ store, actions, part }: { store: Store<CaptureState>; actions: CaptureActions; part?: UiPart }) {
  const state = useStore(store);
  useLocale();
  const shows = (p: UiPart) => (part === undefined || part === p) && partPlace(p, state) !== null;
  const cardClaims = state.card ? state.claims.filter((c) => state.card!.ids.includes(c.id)) : [];
  const orphans = state.claims.filter((c) => state.orphans.includes(c.id));
  const reattaching = state.reattach ? (state.claims.find((c) => c.id === state.reattach) ?? null) : null;
  const anchored = shows('anchored');
  return (
    <div class={part ? 'rl-root rl-framed' : 'rl-root'}>
      {anchored && state.form && (
        <ClaimForm key={`${state.form.mode}:${state.form.editing?.id ?? state.form.passage.quote.exact}`} session={state.form} actions={actions} />
      )}
      {anchored && !state.form && state.toolbar && <Toolbar at={state.toolbar} actions={actions} reattaching={reattaching} />}
      {anchored && !state.form && !state.toolbar && state.card && (
        <ClaimCard claims={cardClaims} at={state.card.at} pinned={state.card.pinned} actions={actions} changed={state.changed} />
      )}
      {shows('notices') && state.disconnected && (
        <div class="rl-toasts" role="alert">
          <div class="rl-toast rl-toast-error" data-testid="disconnected">
            {t('disconnected')}
          </div>
        </div>
      )}
      {shows('finder') && actions.finder && <FinderList finder={state.finder!} actions={actions.finder} />}
      {shows('orphans') && <OrphanList orphans={orphans} open={state.orphanList} reattaching={reattaching} actions={actions} />}
      {shows('notices') && <Toasts toasts={state.toasts} actions={actions} />}
    </div>
  );
}
