/**
 * Why a tab's page script does not answer, and how the toolbar button says so. Firefox lets a curator take
 * Recipe Lens's access to a site away (the extensions menu, or about:addons › Permissions), and Chrome's
 * "site access" setting does the same: then no page script runs there, and reloading does not help. A tab
 * opened before the extension loaded needs only a reload.
 */
import { browser } from 'wxt/browser';
import { t } from '../../lib/i18n';

/** Whether the browser lets the extension's scripts run on the page at `url` (true when it cannot tell). */
export async function hasSiteAccess(url: string | undefined): Promise<boolean> {
  if (!url || !/^https?:/.test(url)) return true;
  return browser.permissions.contains({ origins: [`${new URL(url).origin}/*`] }).catch(() => true);
}

/** The reason shown (panel, popup) for a web page whose page script does not answer. */
export async function silentTabReason(url: string | undefined): Promise<string> {
  return (await hasSiteAccess(url)) ? t('notRunning') : t('noSiteAccess');
}

/** Marks the toolbar button of a tab whose page script did not answer a keyboard command or a menu item. */
export async function markSilentTab(tab: { id?: number; url?: string }): Promise<void> {
  if (tab.id === undefined) return;
  const access = await hasSiteAccess(tab.url);
  await browser.action.setBadgeText({ tabId: tab.id, text: access ? '↻' : '✕' });
  await browser.action.setTitle({ tabId: tab.id, title: access ? t('badgeReload') : t('badgeNoSiteAccess') });
}
