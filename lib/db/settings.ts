/** The curator's settings, kept in the `meta` store under one key. */
import type { RecipeDatabase } from './open';

/** What the curator can turn on or off. */
export interface Settings {
  /** Open PDF navigations in Recipe Lens's viewer instead of the browser's. */
  pdfAutoOpen: boolean;
}

/** Settings before the curator changed any. */
export const DEFAULT_SETTINGS: Settings = { pdfAutoOpen: false };

const KEY = 'settings';

/** The stored settings, defaults filled in. */
export async function getSettings(db: RecipeDatabase): Promise<Settings> {
  const stored = (await db.get('meta', KEY)) as Partial<Settings> | undefined;
  return { ...DEFAULT_SETTINGS, ...(stored && typeof stored === 'object' ? stored : {}) };
}

/** Changes some settings and returns them all. */
export async function putSettings(db: RecipeDatabase, patch: Partial<Settings>): Promise<Settings> {
  const tx = db.transaction('meta', 'readwrite');
  const stored = (await tx.store.get(KEY)) as Partial<Settings> | undefined;
  const next: Settings = { ...DEFAULT_SETTINGS, ...(stored ?? {}), ...patch };
  await tx.store.put(next, KEY);
  await tx.done;
  return next;
}
