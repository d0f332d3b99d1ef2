/** The curator's settings: reading and changing them, and the one the background itself needs at once (PDF auto-open). */
import { getSettings, putSettings } from '../../lib/db';
import type { BackgroundCall, Handlers } from '../../lib/messages';
import { db } from './db';

let autoOpen: Promise<boolean> | null = null;

/** Whether PDF navigations go to the viewer (read once, then kept in step by `settings.set`). */
export function pdfAutoOpen(): Promise<boolean> {
  autoOpen ??= db()
    .then((d) => getSettings(d))
    .then((s) => s.pdfAutoOpen)
    .catch(() => {
      autoOpen = null;
      return false;
    });
  return autoOpen;
}

/** Answers to the settings calls. */
export const settingsHandlers = {
  async 'settings.get'() {
    return getSettings(await db());
  },
  async 'settings.set'(patch) {
    const next = await putSettings(await db(), patch);
    autoOpen = Promise.resolve(next.pdfAutoOpen);
    return next;
  },
} satisfies Partial<Handlers<BackgroundCall>>;
