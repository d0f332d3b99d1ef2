/** The options page's PDF card: open PDF navigations in Recipe Lens's viewer, and whether local PDF files can be read. */
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../lib/i18n';
import type { SettingsApi } from './api';

/** The PDF settings card. */
export function PdfSettings({ api }: { api: SettingsApi & { fileAccess(): Promise<boolean | null> } }) {
  const [autoOpen, setAutoOpen] = useState<boolean | null>(null);
  const [files, setFiles] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api
      .call('settings.get', {})
      .then((s) => setAutoOpen(s.pdfAutoOpen))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
    void api.fileAccess().then(setFiles);
  }, [api]);
  const toggle = (on: boolean) => {
    setAutoOpen(on);
    api
      .call('settings.set', { pdfAutoOpen: on })
      .then((s) => setAutoOpen(s.pdfAutoOpen))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };
  return (
    <section class="card" aria-labelledby="pdf-h" data-testid="pdf-settings">
      <h2 id="pdf-h">{t('pdfCardTitle')}</h2>
      <p class="muted small">{t('pdfCardIntro')}</p>
      <label class="row">
        <input
          type="checkbox"
          checked={!!autoOpen}
          disabled={autoOpen === null}
          data-testid="pdf-auto-open"
          onChange={(e) => toggle((e.target as HTMLInputElement).checked)}
        />
        <span>{t('pdfAutoOpen')}</span>
      </label>
      <p class="muted small" data-testid="pdf-file-access">
        {files === true ? t('pdfFilesAllowed') : files === false ? t('pdfFilesHowTo') : ''}
      </p>
      {error && <p class="error">{error}</p>}
    </section>
  );
}
