import { browser } from 'wxt/browser';
import { db, handlers } from './handlers';
import { createMenus, listenForMenusAndCommands } from './menus';
import { listenForPdfNavigations } from './pdf';
import { answerInBackground } from '../shared/messaging';
import { listenForUploads } from './imports';

export default defineBackground(() => {
  // Every listener is registered synchronously so none is missed when the worker wakes for an event.
  answerInBackground(handlers);
  listenForUploads(browser.runtime.getURL('/'));
  listenForMenusAndCommands();
  listenForPdfNavigations(db);
  browser.runtime.onInstalled.addListener(() => createMenus());
});
