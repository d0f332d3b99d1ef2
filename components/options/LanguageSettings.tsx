/** The options page's language card: browser default, English or 简体中文 for the extension's pages. */
import { useEffect, useState } from 'preact/hooks';
import { announceLocale, LOCALE_CHOICES, t, type LocaleChoice, type MessageKey } from '../../lib/i18n';
import type { SettingsApi } from './api';

/** Each choice's name: a language is named in itself, so it can be found whatever the page's language. */
const NAMES: Record<LocaleChoice, MessageKey> = { auto: 'languageAuto', en: 'languageEnglish', zh_CN: 'languageChinese' };

/** The language card. */
export function LanguageSettings({ api }: { api: SettingsApi }) {
  const [choice, setChoice] = useState<LocaleChoice | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.call('settings.get', {}).then(
      (s) => setChoice(s.locale),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, [api]);
  const change = async (next: LocaleChoice) => {
    setChoice(next);
    setError(null);
    try {
      const stored = (await api.call('settings.set', { locale: next })).locale;
      setChoice(stored);
      await announceLocale(stored);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  return (
    <section class="card" aria-labelledby="language-h" data-testid="language-settings">
      <h2 id="language-h">{t('language')}</h2>
      <label class="row">
        <span>{t('languageLabel')}</span>
        <select
          value={choice ?? 'auto'}
          disabled={choice === null}
          data-testid="language-select"
          onChange={(e) => void change(e.currentTarget.value as LocaleChoice)}
        >
          {LOCALE_CHOICES.map((c) => (
            <option key={c} value={c}>
              {t(NAMES[c])}
            </option>
          ))}
        </select>
      </label>
      <p class="muted small">{t('languageHint')}</p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
