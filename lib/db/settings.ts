/** The curator's settings, kept in the `meta` store under one key (their shape and defaults: `lib/settings`). */
import { DEFAULT_SETTINGS, validSettings, type Settings } from '../settings';
import type { RecipeDatabase } from './open';

export { DEFAULT_SETTINGS, type Settings };

const KEY = 'settings';

/** The stored settings, defaults filled in. */
export async function getSettings(db: RecipeDatabase): Promise<Settings> {
  const stored = (await db.get('meta', KEY)) as Partial<Settings> | undefined;
  return validSettings({ ...DEFAULT_SETTINGS, ...(stored && typeof stored === 'object' ? stored : {}) });
}

/** Changes some settings and returns them all. */
export async function putSettings(db: RecipeDatabase, patch: Partial<Settings>): Promise<Settings> {
  const tx = db.transaction('meta', 'readwrite');
  const stored = (await tx.store.get(KEY)) as Partial<Settings> | undefined;
  const next: Settings = validSettings({ ...DEFAULT_SETTINGS, ...(stored ?? {}), ...patch });
  await tx.store.put(next, KEY);
  await tx.done;
  return next;
}
