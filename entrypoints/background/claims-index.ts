/**
 * The claims index in `storage.local` (`lib/claims-index`): rebuilt from the pages store after every write of it
 * (before the write is answered) and when the finder's sites change, on install and on update (a migration may have
 * rewritten the store). The page script reads it and stays silent where nothing is stored.
 */
import { browser } from 'wxt/browser';
import { getSettings, storedAddresses, type RecipeDatabase } from '../../lib/db';
import { buildClaimsIndex, CLAIMS_INDEX_KEY } from '../../lib/claims-index';

/** The index last written by this worker (its JSON), so an unchanged index is not written again. */
let written: string | null = null;

/** Rebuilds the index from the store and writes it when it changed; when it cannot be written, removes it (pages then ask). */
export async function refreshClaimsIndex(d: RecipeDatabase): Promise<void> {
  const [addresses, settings] = await Promise.all([storedAddresses(d), getSettings(d)]);
  const index = buildClaimsIndex(addresses, settings.finderSites);
  const text = JSON.stringify(index);
  if (text === written) return;
  try {
    await browser.storage.local.set({ [CLAIMS_INDEX_KEY]: index });
    written = text;
  } catch (error) {
    // A stale index could hide a page's claims; no index makes every page ask, as before there was one.
    written = null;
    await browser.storage.local.remove(CLAIMS_INDEX_KEY).catch(() => undefined);
    throw error;
  }
}
