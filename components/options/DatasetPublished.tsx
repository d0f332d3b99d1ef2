/** What a publish did: where it went, its commit, what it changed, what was left out, and its review's link. */
import type { PublishDone } from '../../lib/dataset/link';
import { plural, t } from '../../lib/i18n';

/** A publish's outcome. */
export function DatasetPublished({ published }: { published: PublishDone }) {
  return (
    <div class="ok-text" role="status" data-testid="dataset-published" data-status={published.status}>
      <p>
        {published.status === 'nothing'
          ? t('datasetNothingToPublish')
          : t(
              'datasetPublishedTo',
              published.pushedTo,
              (published.commit ?? '').slice(0, 7),
              published.totals.added + published.totals.changed + published.totals.deleted,
            )}
        {published.merges > 0 && ` ${t('datasetMerged')}`}
      </p>
      {published.conflicts > 0 && <p class="reminder">{plural(published.conflicts, 'datasetLeftOutOne', 'datasetLeftOutMany')}</p>}
      {published.reviewUrl && (
        <p>
          <a href={published.reviewUrl} target="_blank" rel="noreferrer noopener" data-testid="dataset-review-link">
            {t('datasetOpenReview')}
          </a>
        </p>
      )}
    </div>
  );
}
