/** The options page's claim-finder card: the sites where the finder runs by itself on every page. */
import { useEffect, useState } from 'preact/hooks';
import { parseSiteList } from '../../lib/finder/sites';
import { plural, t } from '../../lib/i18n';
import type { SettingsApi } from './api';

/** The claim-finder settings card. */
export function FinderSettings({ api }: { api: SettingsApi }) {
  const [text, setText] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api
      .call('settings.get', {})
      .then((s) => setText(s.finderSites.join('\n')))
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [api]);
  const save = () => {
    const { sites, rejected } = parseSiteList(text ?? '');
    setError(rejected.length ? t('optFinderRejected', rejected.join(', ')) : null);
    setStatus(null);
    api
      .call('settings.set', { finderSites: sites })
      .then((s) => {
        setText(s.finderSites.join('\n'));
        setStatus(plural(s.finderSites.length, 'optFinderSavedOne', 'optFinderSavedMany'));
      })
      .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  };
  return (
    <section class="card" aria-labelledby="finder-h" data-testid="finder-settings">
      <h2 id="finder-h">{t('optFinderTitle')}</h2>
      <p class="muted small">{t('optFinderLead', 'Alt+Shift+F')}</p>
      <label class="stack">
        <span>{t('optFinderSites')}</span>
        <textarea
          rows={4}
          value={text ?? ''}
          disabled={text === null}
          spellcheck={false}
          data-testid="finder-sites"
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      <div class="row">
        <button type="button" class="btn" data-testid="finder-sites-save" disabled={text === null} onClick={save}>
          {t('optFinderSave')}
        </button>
        {status && (
          <span class="muted small" role="status" data-testid="finder-sites-status">
            {status}
          </span>
        )}
      </div>
      {error && <p class="error">{error}</p>}
    </section>
  );
}
