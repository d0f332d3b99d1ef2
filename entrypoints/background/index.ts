import { browser } from 'wxt/browser';
import { contentHandlers, pageHandlers, sharedHandlers } from './handlers';
import { createMenus, listenForMenusAndCommands } from './menus';
import { listenInBackground } from '../../lib/messages';

export default defineBackground(() => {
  // Every listener is registered synchronously so none is missed when the worker wakes for an event.
  listenInBackground({ content: contentHandlers, shared: sharedHandlers, pages: pageHandlers });
  listenForMenusAndCommands();
  browser.runtime.onInstalled.addListener(() => createMenus());
});
