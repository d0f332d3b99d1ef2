/** Tabs as the panel and the popup reach them: what the active tab shows, bringing a claim's passage back, re-attaching and confirming passages. */
import { browser, type Browser } from 'wxt/browser';
import { getClaims } from '../../lib/db';
import { t } from '../../lib/i18n';
import type { BackgroundCall, Handlers } from '../../lib/messages';
import { normalizeUrl } from '../../lib/source';
import { callTab } from '../shared/messaging';
import { db } from './db';
import { isPdfClaim, isViewerTab, revealPdfClaim } from './pdf';
import { silentTabReason } from './site-access';

/** The open tab whose page is `url` (normalised), if any. */
async function tabShowing(url: string): Promise<Browser.tabs.Tab | undefined> {
  const tabs = await browser.tabs.query({});
  const bare = (u: string) => normalizeUrl(u).replace(/\/$/, '');
  const target = bare(url);
  return tabs.find((t) => t.active && t.url && bare(t.url) === target) ?? tabs.find((t) => t.url && bare(t.url) === target);
}

/** Answers to the calls that reach a tab's document. */
export const tabHandlers = {
  async 'claims.reveal'({ id, link }) {
    const [claim] = await getClaims(await db(), [id]);
    if (!claim) throw new Error('That claim is no longer in the store.');
    if (isPdfClaim(claim)) return revealPdfClaim(claim);
    const tab = await tabShowing(claim.source.url);
    if (tab?.id !== undefined) {
      await browser.tabs.update(tab.id, { active: true });
      if (tab.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true });
      const { found } = await callTab(tab.id, 'passage.reveal', { id }).catch(() => ({ found: false }));
      if (found) return { how: 'tab' as const };
    }
    await browser.tabs.create({ url: link ?? claim.link ?? claim.source.url, active: true });
    return { how: 'opened' as const };
  },
  async 'tab.page'({ windowId }) {
    const [tab] = await browser.tabs.query({ active: true, windowId });
    if (tab?.id === undefined) return { tabId: -1, report: null, reason: t('noActiveTab') };
    if (!/^https?:/.test(tab.url ?? '') && !isViewerTab(tab.url)) return { tabId: tab.id, report: null, reason: t('notWebPage') };
    // A page still loading may not have its content script yet: ask again briefly before giving up.
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        return { tabId: tab.id, report: await callTab(tab.id, 'page.report', {}), reason: null };
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    return { tabId: tab.id, report: null, reason: await silentTabReason(tab.url) };
  },
  async 'tab.passage'({ tabId, id, action }) {
    if (action === 'confirm') return { done: (await callTab(tabId, 'passage.confirm', { id })).confirmed };
    await browser.tabs.update(tabId, { active: true });
    return { done: (await callTab(tabId, 'passage.reattach', { id })).started };
  },
} satisfies Partial<Handlers<BackgroundCall>>;
