/** Context-menu items and keyboard commands: open the claim form in a tab, open the evidence panel, run the finder, open PDFs in the viewer. */
import { browser, type Browser } from 'wxt/browser';
import { t } from '../../lib/i18n';
import { callTab } from '../shared/messaging';
import { openEvidencePanel } from '../shared/panel';
import { openViewer, viewerBase } from './pdf';
import { markSilentTab } from './site-access';

const TAG_MENU = 'recipe-lens-tag-claim';
const PANEL_MENU = 'recipe-lens-open-panel';
const OPEN_LINK_MENU = 'recipe-lens-open-pdf-link';
const OPEN_PAGE_MENU = 'recipe-lens-open-pdf-page';
const TAG_IN_VIEWER_MENU = 'recipe-lens-tag-claim-pdf';
/** Address patterns of pages that are PDFs by their look (the browser's own viewer shows them). */
const PDF_PAGE_PATTERNS = ['*://*/*.pdf', '*://*/*.pdf?*', '*://*/*.PDF', 'https://arxiv.org/pdf/*', 'file:///*.pdf', 'file:///*.PDF'];
/** Name of the keyboard command that tags the selection. */
export const TAG_COMMAND = 'tag-selection';
/** Name of the keyboard command that opens the evidence panel. */
export const PANEL_COMMAND = 'open-panel';
/** Name of the keyboard command that runs the claim finder on the page. */
export const FIND_COMMAND = 'find-claims';

/** Asks a tab's document to open the form or run the finder; a tab without our script gets a "reload" badge. */
async function askTab(tab: Browser.tabs.Tab | undefined, call: 'form.open' | 'finder.run'): Promise<void> {
  if (tab?.id === undefined) return;
  try {
    await callTab(tab.id, call, {});
  } catch {
    // No content script in this tab (a browser page, a tab opened before the extension loaded, or a site it may not read).
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
    browser.contextMenus.create({
      id: OPEN_LINK_MENU,
      title: t('menuOpenPdfLink'),
      contexts: ['link'],
      targetUrlPatterns: ['http://*/*', 'https://*/*', 'file:///*'],
    });
    browser.contextMenus.create({ id: OPEN_PAGE_MENU, title: t('menuOpenPdfPage'), contexts: ['page', 'frame'], documentUrlPatterns: PDF_PAGE_PATTERNS });
    browser.contextMenus.create({ id: TAG_IN_VIEWER_MENU, title: t('menuTag'), contexts: ['selection'], documentUrlPatterns: [`${viewerBase()}*`] });
  });
}

/** Registers the menu and command listeners (synchronously, at worker start). */
export function listenForMenusAndCommands(): void {
  browser.contextMenus.onClicked.addListener((info, tab) => {
    if (info.menuItemId === TAG_MENU) void askTab(tab, 'form.open');
    else if (info.menuItemId === PANEL_MENU) openPanel(tab);
    else if (info.menuItemId === TAG_IN_VIEWER_MENU) {
      if (tab?.id !== undefined) void callTab(tab.id, 'form.open', {}).catch(() => undefined);
    } else if (info.menuItemId === OPEN_LINK_MENU && info.linkUrl) void openViewer(info.linkUrl, null);
    else if (info.menuItemId === OPEN_PAGE_MENU) {
      const url = info.frameUrl ?? info.pageUrl ?? tab?.url;
      if (url) void openViewer(url, tab?.id ?? null);
    }
  });
  browser.commands.onCommand.addListener((command, tab) => {
    if (command === PANEL_COMMAND) {
      openPanel(tab);
      return;
    }
    const call = command === TAG_COMMAND ? 'form.open' : command === FIND_COMMAND ? 'finder.run' : null;
    if (!call) return;
    if (tab) void askTab(tab, call);
    else void browser.tabs.query({ active: true, currentWindow: true }).then(([active]) => askTab(active, call));
  });
}
