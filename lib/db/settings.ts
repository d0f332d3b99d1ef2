/** The curator's settings, kept in the `meta` store under one key. */
import type { LocaleChoice } from '../i18n';
import type { RecipeDatabase } from './open';

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

const KEY = 'settings';
const LOCALE_CHOICES: readonly LocaleChoice[] = ['auto', 'en', 'zh_CN'];

function isLocaleChoice(value: unknown): value is LocaleChoice {
  return typeof value === 'string' && (LOCALE_CHOICES as readonly string[]).includes(value);
}

/** The stored settings, defaults filled in. */
export async function getSettings(db: RecipeDatabase): Promise<Settings> {
  const stored = (await db.get('meta', KEY)) as Partial<Settings> | undefined;
  return valid({ ...DEFAULT_SETTINGS, ...(stored && typeof stored === 'object' ? stored : {}) });
}

/** Settings with any value of an unknown shape (a newer or damaged store) put back to its default. */
function valid(settings: Settings): Settings {
  return {
    ...settings,
    pdfAutoOpen: typeof settings.pdfAutoOpen === 'boolean' ? settings.pdfAutoOpen : DEFAULT_SETTINGS.pdfAutoOpen,
    locale: isLocaleChoice(settings.locale) ? settings.locale : DEFAULT_SETTINGS.locale,
    finderSites: Array.isArray(settings.finderSites) ? settings.finderSites.filter((s): s is string => typeof s === 'string') : DEFAULT_SETTINGS.finderSites,
  };
}

/** Changes some settings and returns them all. */
export async function putSettings(db: RecipeDatabase, patch: Partial<Settings>): Promise<Settings> {
  const tx = db.transaction('meta', 'readwrite');
  const stored = (await tx.store.get(KEY)) as Partial<Settings> | undefined;
  const next: Settings = valid({ ...DEFAULT_SETTINGS, ...(stored ?? {}), ...patch });
  await tx.store.put(next, KEY);
  await tx.done;
  return next;
}
