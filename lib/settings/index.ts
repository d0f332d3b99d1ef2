/**
 * The curator's settings: their shape, their defaults, how a stored value is
 * made whole, and the schema of a change. Pure: the background stores them
 * (`lib/db/settings.ts`), the pages read and change them through messages.
 */
import { z } from 'zod';
import { isLocaleChoice, type LocaleChoice } from '../i18n';

/** What the curator can turn on or off. */
export interface Settings {
  /** Open PDF navigations in Recipe Lens's viewer instead of the browser's. */
  pdfAutoOpen: boolean;
  /** The language of the extension's pages: 'auto' follows the browser. */
  locale: LocaleChoice;
  /** Sites where the claim finder runs by itself on every page (host names, `*.` for subdomains); elsewhere only when asked. */
  finderSites: string[];
}

/** Settings before the curator changed any. */
export const DEFAULT_SETTINGS: Settings = { pdfAutoOpen: false, locale: 'auto', finderSites: [] };

/** A site the curator opted in to automatic finder runs: a host name, `*.` for its subdomains. */
export const FinderSite = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/, 'must be a host name such as example.com or *.example.com');

/** A change of some settings, as a page asks for it. */
export const SettingsPatch = z.object({
  pdfAutoOpen: z.boolean().optional(),
  locale: z.enum(['auto', 'en', 'zh_CN']).optional(),
  finderSites: z.array(FinderSite).max(500).optional(),
});

/** Settings with any value of an unknown shape (a newer or damaged store) put back to its default. */
export function validSettings(settings: Settings): Settings {
  return {
    ...settings,
    pdfAutoOpen: typeof settings.pdfAutoOpen === 'boolean' ? settings.pdfAutoOpen : DEFAULT_SETTINGS.pdfAutoOpen,
    locale: isLocaleChoice(settings.locale) ? settings.locale : DEFAULT_SETTINGS.locale,
    finderSites: Array.isArray(settings.finderSites) ? settings.finderSites.filter((s): s is string => typeof s === 'string') : DEFAULT_SETTINGS.finderSites,
  };
}
