/** The options page: what the store holds, backup and restore, importing and exporting records. */
import { useEffect, useState } from 'preact/hooks';
import type { ResponseOf } from '../../lib/messages';
import type { OptionsApi } from './api';
import { AddressReview } from './AddressReview';
import { BackupPanel } from './BackupPanel';
import { DatasetPanel } from './DatasetPanel';
import { ExportPanel } from './ExportPanel';
import { ImportPanel } from './ImportPanel';
import { PdfSettings } from './PdfSettings';
import { FinderSettings } from './FinderSettings';
import { LanguageSettings } from './LanguageSettings';
import { RecheckCard } from '../recheck/RecheckCard';
import { t } from '../../lib/i18n';
import { useLocale } from '../common/i18n';

type Summary = ResponseOf<'store.summary'>;

/** Asks the browser to keep our storage when disk runs low; returns whether it is persistent. */
async function ensurePersisted(): Promise<boolean | null> {
  const storage = navigator.storage;
  if (!storage?.persisted) return null;
  if (await storage.persisted()) return true;
  return storage.persist ? storage.persist() : false;
}

/** Root of the options page. */
export function OptionsApp({ api }: { api: OptionsApi }) {
  useLocale();
  const [summary, setSummary] = useState<Summary | null>(null);
  const [persisted, setPersisted] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Bumped whenever the store changes: the export and backup cards read it again.
  const [version, setVersion] = useState(0);

  const refresh = () =>
    api
      .call('store.summary', {})
      .then((s) => {
        setSummary(s);
        setError(null);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));

  useEffect(() => {
    void refresh();
    void ensurePersisted().then(setPersisted);
    return api.onChange(() => {
      void refresh();
      setVersion((v) => v + 1);
    });
  }, [api]);

  return (
    <main class="page">
      <header class="page-head">
        <span class="logo" aria-hidden="true">
          RL
        </span>
        <div>
          <h1>{t('extName')}</h1>
          <p class="muted">{t('optionsTagline')}</p>
        </div>
      </header>

      <LanguageSettings api={api} />

      <AddressReview api={api} />

      <section class="card" aria-labelledby="store-h">
        <h2 id="store-h">{t('yourStore')}</h2>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {summary ? (
          summary.claims === 0 && summary.models === 0 ? (
            <div class="empty" data-testid="store-empty">
              <p>
                <strong>{t('noClaimsYet')}</strong> {t('storeEmptyLead')}
                <b>{t('storeEmptySelect')}</b>
                {t('storeEmptyPassage')}
                <b>{t('storeEmptyTag')}</b>
                {t('storeEmptyToolbar')}
                <kbd>Alt</kbd>+<kbd>Shift</kbd>+<kbd>C</kbd>
                {t('storeEmptyTail')}
              </p>
            </div>
          ) : (
            <dl class="stats" data-testid="store-summary">
              <div>
                <dt>{t('claimsHeading')}</dt>
                <dd data-testid="count-claims">{summary.claims}</dd>
              </div>
              <div>
                <dt>{t('models')}</dt>
                <dd data-testid="count-models">{summary.models}</dd>
              </div>
              <div>
                <dt>{t('sources')}</dt>
                <dd data-testid="count-sources">{summary.sources}</dd>
              </div>
            </dl>
          )
        ) : (
          !error && <p class="muted">{t('readingStore')}</p>
        )}
        <p class="muted small" data-testid="persistence">
          {persisted === true ? t('storagePersistent') : persisted === false ? t('storageNotPersistent') : t('storageChecking')}
        </p>
      </section>

      <BackupPanel
        api={api}
        version={version}
        onRestored={() => {
          void refresh();
          setVersion((v) => v + 1);
        }}
      />

      <ImportPanel
        api={api}
        onImported={() => {
          void refresh();
          setVersion((v) => v + 1);
        }}
      />

      <DatasetPanel
        api={api}
        version={version}
        onPulled={() => {
          void refresh();
          setVersion((v) => v + 1);
        }}
      />

      <RecheckCard api={api} />
      <ExportPanel version={version} api={api} />
      <PdfSettings api={api} />
      <FinderSettings api={api} />
    </main>
  );
}
