/** The dataset calls of an extension page (options, panel, popup): protocol calls, and the host permission asked from the page. */
import { browser } from 'wxt/browser';
import type { DatasetApi } from '../../components/common/dataset';
import { originPattern } from '../../lib/dataset/summary';
import { callBackground } from './calls';

/** Builds an extension page's access to the team's dataset. */
export function createDatasetApi(): DatasetApi {
  return {
    get: () => callBackground('dataset.get', {}),
    allowHost: async (url) => {
      // Only the repository's origin, and only when the browser does not already grant it.
      const origins = [originPattern(url)];
      if (await browser.permissions.contains({ origins })) return true;
      return browser.permissions.request({ origins });
    },
    connect: (link, token) => callBackground('dataset.connect', { link, token }),
    disconnect: () => callBackground('dataset.disconnect', {}),
    test: (link, token) => callBackground('dataset.test', { link, token }),
    status: () => callBackground('dataset.status', {}),
    preview: (target) => callBackground('dataset.preview', { target }),
    publish: (message, target) => callBackground('dataset.publish', { message, target }),
    pull: () => callBackground('dataset.pull', {}),
    settle: (resolutions, rest) => callBackground('dataset.settle', { resolutions, rest }),
    openLink: (url) => void browser.tabs.create({ url }),
  };
}
