/** The side panel's PanelApi: protocol calls to the background, and browser events for live updates. */
import { createRecheckApi } from '../shared/recheck';
import { browser } from 'wxt/browser';
import type { PanelApi } from '../../components/panel/api';
import { isChangeNotice } from '../../lib/messages/channel';
import { callBackground } from '../shared/calls';
import { createDatasetApi } from '../shared/dataset';
import type { ClaimRecord, ModelRecord } from '../../lib/schema';
import { readAllParts } from '../../lib/messages/text-parts';

/** Builds the panel's access to the store and the browser for the window it follows. */
export function createPanelApi(windowId: number): PanelApi {
  return {
    load: async () => JSON.parse(await readAllParts((request) => callBackground('survey.data', request))) as { claims: ClaimRecord[]; models: ModelRecord[] },
    loadHead: (models) => callBackground('survey.head', { models }),
    saveClaims: async (claims) => (await callBackground('claims.save', { claims })).claims,
    deleteClaims: async (ids) => (await callBackground('claims.delete', { ids })).deleted,
    restoreClaims: async (claims) => {
      await callBackground('claims.restore', { claims });
    },
    saveModel: async (record) => (await callBackground('model.save', { record })).record,
    reveal: async (claim) => (await callBackground('claims.reveal', { id: claim.id, link: claim.link ?? null })).how,
    activePage: () => callBackground('tab.page', { windowId }),
    correctSource: async (source) => (await callBackground('source.correct', { source })).updated,
    passage: async (tabId, id, action) => (await callBackground('tab.passage', { tabId, id, action })).done,
    finder: (tabId, action, key) => callBackground('tab.finder', { tabId, action, key }),
    backupStatus: () => callBackground('backup.status', {}),
    openOptions: () => void browser.runtime.openOptionsPage(),
    dataset: createDatasetApi(),
    recheck: createRecheckApi(),
    onChange(callback) {
      const listener = (message: unknown) => {
        if (isChangeNotice(message)) callback();
      };
      browser.runtime.onMessage.addListener(listener);
      return () => browser.runtime.onMessage.removeListener(listener);
    },
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
