/** The dataset's status line: last pull, last publish, local changes not yet published, conflicts waiting (panel and popup). */
import type { DatasetStatus } from '../../lib/dataset/link';
import { statusParts } from './dataset';

/** The status line alone (the popup shows it too). */
export function DatasetStatusLine({ status }: { status: DatasetStatus }) {
  return (
    <p class="dataset-line" data-testid="dataset-status-line" data-unpublished={status.unpublished} data-conflicts={status.conflicts}>
      {statusParts(status).map((part, i) => (
        <span key={part} class={i === 3 ? 'dataset-conflicts' : ''}>
          {part}
        </span>
      ))}
    </p>
  );
}
