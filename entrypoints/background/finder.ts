/** The claim finder: dismissed candidates per page, and running it in a tab for the panel and the popup. */
import { browser } from 'wxt/browser';
import { dismissedKeys, putDismissal } from '../../lib/db';
import type { BackgroundCall, Handlers } from '../../lib/messages';
import { nowTimestamp } from '../../lib/time';
import { callTab } from '../shared/messaging';
import { db } from './db';

/** Answers to the finder's calls. */
export const finderHandlers = {
  async 'dismissals.get'({ url }) {
    return { keys: await dismissedKeys(await db(), url) };
  },
  async 'dismissals.add'({ url, key, sentence }) {
    await putDismissal(await db(), { url, key, sentence, dismissed_at: nowTimestamp() });
    return { stored: true };
  },
  async 'tab.finder'({ tabId, action, key }) {
    if (action === 'run') return { report: await callTab(tabId, 'finder.run', {}), opened: false };
    if (action === 'dismiss') return { report: null, opened: (await callTab(tabId, 'finder.dismiss', { key: key! })).dismissed };
    // The form opens in the page: bring its tab forward so the curator sees it.
    await browser.tabs.update(tabId, { active: true });
    const { opened } = action === 'accept' ? await callTab(tabId, 'finder.accept', { key: key! }) : await callTab(tabId, 'finder.undisclosed', {});
    return { report: null, opened };
  },
} satisfies Partial<Handlers<BackgroundCall>>;
