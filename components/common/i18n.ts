/** Re-renders a component when the language changes. */
import { useEffect, useState } from 'preact/hooks';
import { locale, onLocaleChange, type Locale } from '../../lib/i18n';

/** The current language; the component re-renders when it changes. */
export function useLocale(): Locale {
  const [value, setValue] = useState(locale());
  useEffect(() => onLocaleChange(() => setValue(locale())), []);
  return value;
}
