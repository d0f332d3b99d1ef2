/** The side panel's PanelApi: the page's caller, and browser events for live updates. */
import { browser } from 'wxt/browser';
import type { PanelApi } from '../../components/panel/api';
import { callAsPage, onChangeNotice } from '../shared/calls';
import { lazyReader } from '../shared/recheck';

/** Builds the panel's access to the store and the browser for the window it follows. */
export function createPanelApi(windowId: number): PanelApi {
  return {
    call: callAsPage,
    windowId,
    openOptions: () => void browser.runtime.openOptionsPage(),
    reader: lazyReader,
    onChange: (callback) => onChangeNotice(() => callback()),
    onActiveTabChange(callback) {
      const onActivated = (info: { windowId: number }) => {
        if (info.windowId === windowId) callback();
      };
      const onUpdated = (_id: number, change: { status?: string }, tab: { active?: boolean; windowId?: number }) => {
        if (tab.active && tab.windowId === windowId && change.status === 'complete') callback();
      };
      browser.tabs.onActivated.addListener(onActivated);
      browser.tabs.onUpdated.addListener(onUpdated);
      return () => {
        browser.tabs.onActivated.removeListener(onActivated);
        browser.tabs.onUpdated.removeListener(onUpdated);
      };
    },
  };
}
