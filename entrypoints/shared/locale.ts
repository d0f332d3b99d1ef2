/** The language of the extension pages: the browser's messages, then the curator's setting, read through the background. */
import { startLocale, type LocaleChoice } from '../../lib/i18n';
import { useBrowserMessages } from './i18n';
import { callAsPage } from './calls';

/** The stored language choice ('auto' when the background cannot tell). */
export async function readLocaleSetting(): Promise<LocaleChoice> {
  return (await callAsPage('settings.get', {})).locale ?? 'auto';
}

/** Puts an extension page in the curator's language and keeps it there; resolves once the first paint can start. */
export function startPageLocale(): Promise<() => void> {
  useBrowserMessages();
  return startLocale(readLocaleSetting);
}
