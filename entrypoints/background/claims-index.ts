/**
 * The claims index in `storage.local` (`lib/claims-index`): kept from the pages store after every write of it
 * (before the write is answered) and rebuilt when the finder's sites change, on install and on update (a migration may
 * have rewritten the store). A write that only put pages (an import) adds their addresses to the index this worker
 * last wrote; any other write, or a worker that has written none yet, rebuilds it from the store. The page script
 * reads it and stays silent where nothing is stored.
 */
import { browser } from 'wxt/browser';
import { getSettings, storedAddresses, type RecipeDatabase } from '../../lib/db';
import { buildClaimsIndex, CLAIMS_INDEX_KEY, type ClaimsIndex, withAddresses } from '../../lib/claims-index';

/** The index last written by this worker, and its JSON (an unchanged index is not written again). */
let written: { index: ClaimsIndex; text: string } | null = null;
/** The updates, one at a time: each starts from what the one before wrote. */
let queue: Promise<void> = Promise.resolve();

/**
 * Brings the index up to date after a write, and writes it when it changed; when it cannot be written, removes it
 * (pages then ask). `added`: the write only put pages at these addresses (see `watchPageWrites`).
 */
export function refreshClaimsIndex(d: RecipeDatabase, added?: readonly string[]): Promise<void> {
  const run = queue.then(() => update(d, added));
  queue = run.catch(() => undefined);
  return run;
}

async function update(d: RecipeDatabase, added?: readonly string[]): Promise<void> {
  let index: ClaimsIndex;
  if (added && written) index = withAddresses(written.index, added);
  else {
    const [addresses, settings] = await Promise.all([storedAddresses(d), getSettings(d)]);
    index = buildClaimsIndex(addresses, settings.finderSites);
  }
  const text = index === written?.index ? written.text : JSON.stringify(index);
  if (text === written?.text) return;
  try {
    await browser.storage.local.set({ [CLAIMS_INDEX_KEY]: index });
    written = { index, text };
  } catch (error) {
    // A stale index could hide a page's claims; no index makes every page ask, as before there was one.
    written = null;
    await browser.storage.local.remove(CLAIMS_INDEX_KEY).catch(() => undefined);
    throw error;
  }
}
