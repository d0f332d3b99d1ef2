/**
 * The reviews the curator opened, on the options page's dataset card: each
 * one's branch, when it was opened, how many records it carries, and where it
 * stands as the last pull saw it (open, behind the branch, or merged). A
 * review behind the branch offers "Update review…": a publish for review
 * again, which rebuilds it on the branch's head, merged by record id.
 */
import type { ReviewView } from '../../lib/dataset/link';
import type { ReviewState } from '../../lib/dataset/reviews';
import { type MessageKey, plural, t } from '../../lib/i18n';
import { shortTime } from '../common/dataset';

const STATE_WORDS: Record<ReviewState, MessageKey> = {
  open: 'datasetReviewOpen',
  behind: 'datasetReviewBehind',
  merged: 'datasetReviewMerged',
};

/** The list of reviews; nothing at all while the curator has opened none. */
export function DatasetReviews({
  reviews,
  busy,
  onUpdate,
}: {
  reviews: readonly ReviewView[];
  busy: boolean;
  /** Starts a publish for review (its dry run first). */
  onUpdate: () => void;
}) {
  if (!reviews.length) return null;
  return (
    <section class="dataset-reviews" aria-labelledby="dataset-reviews-h" data-testid="dataset-reviews">
      <h3 id="dataset-reviews-h">{t('datasetReviewsTitle')}</h3>
      <p class="muted">{t('datasetReviewsExplained')}</p>
      <ul>
        {reviews.map((r) => (
          <li key={`${r.branch} ${r.openedAt}`} data-testid="dataset-review" data-branch={r.branch} data-state={r.state}>
            <span class={`review-state ${r.state}`} data-testid="dataset-review-state">
              {t(STATE_WORDS[r.state])}
            </span>{' '}
            <code>{r.branch}</code>{' '}
            <span class="muted">
              {t('datasetReviewOpened', shortTime(r.openedAt))}
              {r.records > 0 && ` · ${plural(r.records, 'datasetReviewRecordsOne', 'datasetReviewRecordsMany')}`}
              {r.state === 'merged' && r.mergedAt && ` · ${t('datasetReviewMergedAt', shortTime(r.mergedAt))}`}
            </span>
            {r.url && r.state !== 'merged' && (
              <>
                {' · '}
                <a href={r.url} target="_blank" rel="noreferrer noopener" data-testid="dataset-review-open">
                  {t('datasetReviewOpenLink')}
                </a>
              </>
            )}
            {r.state === 'behind' && (
              <div class="review-behind">
                <p>{t('datasetReviewBehindHint')}</p>
                <button type="button" disabled={busy} data-testid="dataset-review-update" onClick={onUpdate}>
                  {t('datasetReviewUpdate')}
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
