/**
 * The one-time notice after the site rule changed (issue 24): claims filed under an address on a shared host
 * (`x.readthedocs.io`, `shop.com.mx`), which a neighbour's page may have named as its canonical address before the
 * Public Suffix List decided. They are kept; the curator checks them and says so once.
 */
import { useEffect, useState } from 'preact/hooks';
import { plural, t } from '../../lib/i18n';
import type { Calls } from '../../lib/messages';
import type { ClaimRecord } from '../../lib/schema';

/** What the notice needs from the background: the claims to check, and saying they were checked. */
export type AddressReviewApi = Calls<'addresses.review' | 'addresses.acknowledge'>;

/** The notice, shown only while it lists something. */
export function AddressReview({ api }: { api: AddressReviewApi }) {
  const [claims, setClaims] = useState<ClaimRecord[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.call('addresses.review', {}).then(
      (r) => setClaims(r.claims),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, [api]);
  if (error) {
    return (
      <section class="card" aria-labelledby="review-h">
        <h2 id="review-h">{t('addressReviewTitle')}</h2>
        <p class="error" role="alert">
          {t('addressReviewError', error)}
        </p>
      </section>
    );
  }
  if (!claims?.length) return null;
  const acknowledge = () =>
    void api.call('addresses.acknowledge', { ids: claims.map((c) => c.id) }).then(
      () => setClaims([]),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  return (
    <section class="card notice" aria-labelledby="review-h" data-testid="address-review">
      <h2 id="review-h">{t('addressReviewTitle')}</h2>
      <p>{plural(claims.length, 'addressReviewLeadOne', 'addressReviewLeadMany')}</p>
      <ul class="review-list">
        {claims.map((c) => (
          <li key={c.id} data-testid="address-review-item">
            <strong>{c.model}</strong> · {c.value} ·{' '}
            <a href={c.link ?? c.source.url} target="_blank" rel="noreferrer noopener">
              {c.source.url}
            </a>
          </li>
        ))}
      </ul>
      <button type="button" class="button" data-testid="address-review-keep" onClick={acknowledge}>
        {t('addressReviewKeep')}
      </button>
    </section>
  );
}
