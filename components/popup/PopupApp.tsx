/** The toolbar popup: what Recipe Lens sees on this page, and the way to the evidence panel. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FinderReport } from '../../lib/capture/finder';
import type { Caller, ResponseOf } from '../../lib/messages';
import { plural, sourceKindLabel, t } from '../../lib/i18n';
import type { DatasetStatus } from '../../lib/dataset/link';
import { useLocale } from '../common/i18n';
import { DatasetStatusLine } from '../common/DatasetStatusLine';

type TabPage = ResponseOf<'tab.page'>;

/** The calls the popup makes: the active tab's page, its PDF, the finder there, and the dataset's status line. */
export type PopupCall = 'tab.page' | 'tab.finder' | 'tab.pdf' | 'pdf.open' | 'dataset.status';

/** The popup's access to the background and the browser; the popup's entrypoint provides it. */
export interface PopupApi {
  call: Caller<PopupCall>;
  /** The window whose active tab the popup reads. */
  windowId: number;
  /** Opens the evidence panel (in the click's user gesture) and closes the popup. */
  openPanel(): Promise<void>;
  /** Opens the options page and closes the popup. */
  openOptions(): void;
  /** Closes the popup (once the PDF viewer is open). */
  close(): void;
}

/** Root of the popup. */
export function PopupApp({ api }: { api: PopupApi }) {
  const { call, windowId, openPanel, openOptions } = api;
  useLocale();
  const [page, setPage] = useState<TabPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const [pdfUrl, setPdfUrl] = useState<string | null>(null);
  const [found, setFound] = useState<FinderReport | null>(null);
  const [finding, setFinding] = useState(false);
  const [dataset, setDataset] = useState<DatasetStatus | null>(null);
  useEffect(() => {
    call('dataset.status', {}).then(setDataset, () => setDataset(null));
  }, []);
  useEffect(() => {
    // A PDF in the browser's own viewer takes no content script: Recipe Lens's viewer is offered instead.
    call('tab.pdf', { windowId })
      .then(({ url }) => setPdfUrl(url))
      .catch(() => setPdfUrl(null));
  }, []);
  useEffect(() => {
    button.current?.focus();
    call('tab.page', { windowId })
      .then(setPage)
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, []);
  /** Opens the tab's PDF in Recipe Lens's viewer, in that tab (asked again: the tab may have moved on). */
  const openPdf = async () => {
    const { tabId, url } = await call('tab.pdf', { windowId });
    if (url) await call('pdf.open', { url, tabId, page: null });
    api.close();
  };
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
        {pdfUrl && (
          <button type="button" class="primary" data-testid="popup-open-pdf" title={pdfUrl} onClick={() => void openPdf()}>
            {t('openInRecipeLens')}
          </button>
        )}
        {page && report && (
          <button
            type="button"
            data-testid="popup-find"
            disabled={finding}
            onClick={() => {
              setFinding(true);
              setError(null);
              call('tab.finder', { tabId: page.tabId, action: 'run' })
                .then(({ report: found }) => setFound(found))
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
