/** The context-menu item and keyboard command that open the claim form in a tab. */
import { browser, type Browser } from 'wxt/browser';
import { callTab } from '../../lib/messages';

const MENU_ID = 'recipe-lens-tag-claim';
/** Name of the keyboard command in the manifest. */
export const TAG_COMMAND = 'tag-selection';

async function openForm(tab: Browser.tabs.Tab | undefined): Promise<void> {
  if (tab?.id === undefined) return;
  try {
    await callTab(tab.id, 'form.open', {});
  } catch {
    // No content script in this tab (a browser page, or a tab opened before the extension loaded).
    await browser.action.setBadgeText({ tabId: tab.id, text: '↻' });
    await browser.action.setTitle({ tabId: tab.id, title: 'Recipe Lens: reload this page to tag claims on it' });
  }
}

/** Creates the context-menu item (on install and update). */
export function createMenus(): void {
  browser.contextMenus.removeAll().then(() => {
    browser.contextMenus.create({ id: MENU_ID, title: 'Tag as claim…', contexts: ['selection'], documentUrlPatterns: ['http://*/*', 'https://*/*'] });
  });
}

/** Registers the menu and command listeners (synchronously, at worker start). */
export function listenForMenusAndCommands(): void {
  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === MENU_ID) void openForm(tab);
  });
  browser.commands.onCommand.addListener((command, tab) => {
    if (command !== TAG_COMMAND) return;
    if (tab) void openForm(tab);
    else void browser.tabs.query({ active: true, currentWindow: true }).then(([active]) => openForm(active));
  });
}
