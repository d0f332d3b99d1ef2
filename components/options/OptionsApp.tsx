/** The options page: what the store holds, backup and restore, importing and exporting records. */
import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { callBackground, ChangeNotice, type ResponseOf } from '../../lib/messages';
import { BackupPanel } from './BackupPanel';
import { ExportPanel } from './ExportPanel';
import { ImportPanel } from './ImportPanel';
import { PdfSettings } from './PdfSettings';

type Summary = ResponseOf<'store.summary'>;

/** Asks the browser to keep our storage when disk runs low; returns whether it is persistent. */
async function ensurePersisted(): Promise<boolean | null> {
  const storage = navigator.storage;
  if (!storage?.persisted) return null;
  if (await storage.persisted()) return true;
  return storage.persist ? storage.persist() : false;
}

/** Root of the options page. */
export function OptionsApp() {
  const [summary, setSummary] = useState<Summary | null>(null);
  const [persisted, setPersisted] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  // Bumped whenever the store changes: the export and backup cards read it again.
  const [version, setVersion] = useState(0);

  const refresh = () =>
    callBackground('store.summary', {})
      .then((s) => {
        setSummary(s);
        setError(null);
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));

  useEffect(() => {
    void refresh();
    void ensurePersisted().then(setPersisted);
    const onMessage = (message: unknown) => {
      if (!ChangeNotice.safeParse(message).success) return;
      void refresh();
      setVersion((v) => v + 1);
    };
    browser.runtime.onMessage.addListener(onMessage);
    return () => browser.runtime.onMessage.removeListener(onMessage);
  }, []);

  return (
    <main class="page">
      <header class="page-head">
        <span class="logo" aria-hidden="true">
          RL
        </span>
        <div>
          <h1>Recipe Lens</h1>
          <p class="muted">Evidence-first claims about how frontier models are post-trained with RL.</p>
        </div>
      </header>

      <section class="card" aria-labelledby="store-h">
        <h2 id="store-h">Your store</h2>
        {error && <p class="error" role="alert">{error}</p>}
        {summary ? (
          summary.claims === 0 && summary.models === 0 ? (
            <div class="empty" data-testid="store-empty">
              <p>
                <strong>No claims yet.</strong> On a lab’s blog, model card, README or report: <b>select</b> a passage, <b>tag</b> it with the
                toolbar that appears (or <kbd>Alt</kbd>+<kbd>Shift</kbd>+<kbd>C</kbd>, or right-click → “Tag as claim…”), and it is painted
                there on every visit. Or import a dataset below.
              </p>
            </div>
          ) : (
            <dl class="stats" data-testid="store-summary">
              <div>
                <dt>Claims</dt>
                <dd data-testid="count-claims">{summary.claims}</dd>
              </div>
              <div>
                <dt>Models</dt>
                <dd data-testid="count-models">{summary.models}</dd>
              </div>
              <div>
                <dt>Sources</dt>
                <dd data-testid="count-sources">{summary.sources}</dd>
              </div>
            </dl>
          )
        ) : (
          !error && <p class="muted">Reading the store…</p>
        )}
        <p class="muted small" data-testid="persistence">
          {persisted === true
            ? 'Storage is persistent: the browser will not evict your claims when disk space runs low.'
            : persisted === false
              ? 'Storage is not marked persistent: the browser may evict it under disk pressure. Keep backups (export) until it is.'
              : 'Checking whether storage is persistent…'}
        </p>
      </section>

      <BackupPanel
        version={version}
        onRestored={() => {
          void refresh();
          setVersion((v) => v + 1);
        }}
      />

      <ImportPanel
        onImported={() => {
          void refresh();
          setVersion((v) => v + 1);
        }}
      />

      <ExportPanel version={version} />
      <PdfSettings />
    </main>
  );
}
