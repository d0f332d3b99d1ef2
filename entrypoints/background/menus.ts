/** Context-menu items and keyboard commands: open the claim form in a tab, open the evidence panel. */
import { browser, type Browser } from 'wxt/browser';
import { callTab } from '../../lib/messages';
import { t } from '../../lib/i18n';
import { openEvidencePanel } from '../../lib/panel/open';
import { createPdfMenus, onPdfMenuClick } from './pdf';
import { markSilentTab } from './site-access';

const TAG_MENU = 'recipe-lens-tag-claim';
const PANEL_MENU = 'recipe-lens-open-panel';
/** Name of the keyboard command that tags the selection. */
export const TAG_COMMAND = 'tag-selection';
/** Name of the keyboard command that opens the evidence panel. */
export const PANEL_COMMAND = 'open-panel';
/** Name of the keyboard command that runs the claim finder on the page. */
export const FIND_COMMAND = 'find-claims';

async function openForm(tab: Browser.tabs.Tab | undefined): Promise<void> {
  if (tab?.id === undefined) return;
  try {
    await callTab(tab.id, 'form.open', {});
  } catch {
    // No content script in this tab (a browser page, a tab opened before the extension loaded, or a site it may not read).
    await markSilentTab(tab);
  }
}

/** Runs the claim finder in a tab (keyboard command). */
async function findClaims(tab: Browser.tabs.Tab | undefined): Promise<void> {
  if (tab?.id === undefined) return;
  try {
    await callTab(tab.id, 'finder.run', {});
  } catch {
    await markSilentTab(tab);
  }
}

/** Opens the side panel; must run inside the user gesture that asked for it (menu click, command). */
function openPanel(tab: Browser.tabs.Tab | undefined): void {
  if (tab?.windowId === undefined) return;
  void openEvidencePanel(tab.windowId).catch(() => undefined);
}

/** Creates the context-menu items (on install and update). */
export function createMenus(): void {
  void browser.contextMenus.removeAll().then(() => {
    browser.contextMenus.create({ id: TAG_MENU, title: t('menuTag'), contexts: ['selection'], documentUrlPatterns: ['http://*/*', 'https://*/*'] });
    browser.contextMenus.create({ id: PANEL_MENU, title: t('menuPanel'), contexts: ['page', 'selection', 'action'] });
    createPdfMenus();
  });
}

/** Registers the menu and command listeners (synchronously, at worker start). */
export function listenForMenusAndCommands(): void {
  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (onPdfMenuClick(info, tab)) return;
    if (info.menuItemId === TAG_MENU) void openForm(tab);
    if (info.menuItemId === PANEL_MENU) openPanel(tab);
  });
  browser.commands.onCommand.addListener((command, tab) => {
    if (command === PANEL_COMMAND) {
      openPanel(tab);
      return;
    }
    const run = command === TAG_COMMAND ? openForm : command === FIND_COMMAND ? findClaims : null;
    if (!run) return;
    if (tab) void run(tab);
    else void browser.tabs.query({ active: true, currentWindow: true }).then(([active]) => run(active));
  });
}
