import { browser } from 'wxt/browser';
import { contentHandlers, db, pageHandlers, sharedHandlers } from './handlers';
import { createMenus, listenForMenusAndCommands } from './menus';
import { listenForPdfNavigations } from './pdf';
import { listenInBackground } from '../../lib/messages';
import { listenForUploads } from './imports';

export default defineBackground(() => {
  // Every listener is registered synchronously so none is missed when the worker wakes for an event.
  listenInBackground({ content: contentHandlers, shared: sharedHandlers, pages: pageHandlers });
  listenForUploads(browser.runtime.getURL('/'));
  listenForMenusAndCommands();
  listenForPdfNavigations(db);
  browser.runtime.onInstalled.addListener(() => createMenus());
});
