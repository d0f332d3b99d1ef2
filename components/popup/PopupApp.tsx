/** The toolbar popup: what Recipe Lens sees on this page, and the way to the evidence panel. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FinderReport } from '../../lib/capture/finder';
import type { ResponseOf } from '../../lib/messages';
import { plural, sourceKindLabel, t } from '../../lib/i18n';
import type { DatasetStatus } from '../../lib/dataset/link';
import { useLocale } from '../common/i18n';
import { DatasetStatusLine } from '../common/DatasetStatusLine';

type TabPage = ResponseOf<'tab.page'>;

/** Root of the popup. */
export function PopupApp({
  loadPage,
  openPanel,
  openOptions,
  pdf,
  find,
  datasetStatus,
}: {
  loadPage: () => Promise<TabPage>;
  openPanel: () => Promise<void>;
  openOptions: () => void;
  /** The PDF the tab shows (null: none) and how to open it in Recipe Lens's viewer. */
  pdf?: { find: () => Promise<string | null>; open: () => Promise<void> };
  /** Runs the claim finder in the tab (the candidates are listed and marked in the page). */
  find?: (tabId: number) => Promise<FinderReport | null>;
  /** The dataset's status line (nothing shown when no dataset is connected). */
  datasetStatus?: () => Promise<DatasetStatus>;
}) {
  useLocale();
  const [page, setPage] = useState<TabPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const [pdfUrl, setPdfUrl] = useState<string | null>(null);
  const [found, setFound] = useState<FinderReport | null>(null);
  const [finding, setFinding] = useState(false);
  const [dataset, setDataset] = useState<DatasetStatus | null>(null);
  useEffect(() => {
    datasetStatus?.().then(setDataset, () => setDataset(null));
  }, []);
  useEffect(() => {
    pdf
      ?.find()
      .then(setPdfUrl)
      .catch(() => setPdfUrl(null));
  }, []);
  useEffect(() => {
    button.current?.focus();
    loadPage()
      .then(setPage)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);
  const report = page?.report;
  const painted = report ? report.order.length - report.orphans.length : 0;
  return (
    <main class="popup">
      <header>
        <span class="logo" aria-hidden="true">
          RL
        </span>
        <strong>{t('extName')}</strong>
      </header>
      <section class="page" aria-live="polite" data-testid="popup-page">
        {error && <p class="error">{error}</p>}
        {!page && !error && <p class="muted">{t('popupReading')}</p>}
        {page && !report && <p class="muted">{page.reason}</p>}
        {report && (
          <>
            <p class="title" title={report.url}>
              {report.source.title || report.title}
            </p>
            <p class="muted">
              {sourceKindLabel(report.source.kind)}
              {report.source.publisher ? ` · ${report.source.publisher}` : ''}
              {report.source.published ? ` · ${report.source.published}` : ''}
            </p>
            <p class="counts">
              <span data-testid="popup-painted">{plural(painted, 'paintedOne', 'paintedMany')}</span>
              {report.orphans.length > 0 && (
                <span class="orphans" data-testid="popup-orphans">
                  {plural(report.orphans.length, 'orphansOne', 'orphansMany')}
                </span>
              )}
            </p>
            {report.order.length === 0 && <p class="muted">{t('popupStart')}</p>}
            {found && (
              <p class="found" data-testid="popup-found">
                {found.candidates.length ? plural(found.candidates.length, 'finderFoundOne', 'finderFoundMany') : t('finderNone')}
                {found.suggestUndisclosed && ` ${t('finderUndisclosedLead')}`}
              </p>
            )}
          </>
        )}
      </section>
      {dataset?.connected && (
        <section class="dataset" aria-label={t('datasetTitle')} data-testid="popup-dataset">
          <DatasetStatusLine status={dataset} />
        </section>
      )}
      <div class="actions">
        {pdf && pdfUrl && (
          <button type="button" class="primary" data-testid="popup-open-pdf" title={pdfUrl} onClick={() => void pdf.open()}>
            {t('openInRecipeLens')}
          </button>
        )}
        {find && page && report && (
          <button
            type="button"
            data-testid="popup-find"
            disabled={finding}
            onClick={() => {
              setFinding(true);
              setError(null);
              find(page.tabId)
                .then(setFound)
                .catch((e: unknown) => setError(t('finderError', e instanceof Error ? e.message : String(e))))
                .finally(() => setFinding(false));
            }}
          >
            {finding ? t('finderRunning') : t('finderFind')} <kbd>Alt⇧F</kbd>
          </button>
        )}
        <button ref={button} type="button" class="primary" onClick={() => void openPanel()}>
          {t('popupOpenPanel')} <kbd>Alt⇧E</kbd>
        </button>
        <button type="button" onClick={openOptions}>
          {t('popupOptions')}
        </button>
      </div>
    </main>
  );
}
