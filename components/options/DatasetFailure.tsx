/** A dataset failure as the Dataset card shows it. */
import type { DatasetFailure } from '../../lib/dataset/link';
import { t } from '../../lib/i18n';
import { failureText } from '../common/dataset';

/** A failure: what to do (translated), the engine's sentence, and its details (the server's lines, `path:line` problems). */
export function FailureView({ failure, testId }: { failure: DatasetFailure; testId: string }) {
  return (
    <div class="dataset-failure" role="alert" data-testid={testId} data-code={failure.code}>
      <p>
        <strong>{failureText(failure)}</strong>
      </p>
      <p class="small">{failure.message}</p>
      {failure.details.length > 0 && (
        <ul class="errors" data-testid="dataset-failure-details">
          {failure.details.slice(0, 50).map((line, i) => (
            <li key={i}>{line}</li>
          ))}
          {failure.details.length > 50 && <li>{t('andMore', failure.details.length - 50)}</li>}
        </ul>
      )}
    </div>
  );
}
