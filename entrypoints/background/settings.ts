/** The curator's settings: reading and changing them (PDF auto-open and the finder's sites take effect at once). */
import { getSettings, putSettings } from '../../lib/db';
import type { BackgroundCall, Handlers } from '../../lib/messages';
import { refreshClaimsIndex } from './claims-index';
import { db } from './db';
import { followPdfNavigations } from './pdf-navigations';

/** Answers to the settings calls. */
export const settingsHandlers = {
  async 'settings.get'() {
    return getSettings(await db());
  },
  async 'settings.set'(patch) {
    const d = await db();
    const next = await putSettings(d, patch);
    followPdfNavigations(next.pdfAutoOpen);
    // The finder's sites are in the claims index: a site opted in looks up its pages with nothing stored.
    if (patch.finderSites !== undefined) await refreshClaimsIndex(d);
    return next;
  },
} satisfies Partial<Handlers<BackgroundCall>>;
