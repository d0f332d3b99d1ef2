/** The options page's OptionsApi: protocol calls to the background, file texts handed to the worker, and browser facts. */
import { browser } from 'wxt/browser';
import type { OptionsApi } from '../../components/options/api';
import type { ExportData } from '../../lib/export/files';
import { UPLOAD_CHANNEL, type Upload } from '../../lib/messages';
import { createDatasetApi } from '../shared/dataset';
import { createRecheckApi } from '../shared/recheck';
import { callBackground, onChangeNotice } from '../shared/messaging';
import { readAllParts } from '../../lib/messages/text-parts';

/**
 * Posts a file's text straight to the extension's service worker and waits
 * until it holds it; returns the id to name it by, or null when there is no
 * active worker to post to.
 */
export async function handOverText(text: string): Promise<string | null> {
  const worker = (await navigator.serviceWorker?.getRegistration())?.active;
  if (!worker) return null;
  const id = crypto.randomUUID();
  const upload: Upload = { channel: UPLOAD_CHANNEL, id, text };
  const held = await new Promise<boolean>((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(false), 30_000);
    channel.port1.onmessage = () => {
      clearTimeout(timer);
      resolve(true);
    };
    worker.postMessage(upload, [channel.port2]);
  });
  return held ? id : null;
}

/** Builds the options page's access to the store and the browser. */
export function createOptionsApi(): OptionsApi {
  return {
    summary: () => callBackground('store.summary', {}),
    preview: (request) => callBackground('import.preview', request),
    commit: (request) => callBackground('import.commit', request),
    handOver: handOverText,
    status: () => callBackground('backup.status', {}),
    create: () => callBackground('backup.create', {}),
    load: async () => JSON.parse(await readAllParts((request) => callBackground('survey.data', request))) as ExportData,
    settings: () => callBackground('settings.get', {}),
    changeSettings: (patch) => callBackground('settings.set', patch),
    onChange: (callback) => onChangeNotice(() => callback()),
    dataset: createDatasetApi(),
    recheck: createRecheckApi(),
    addresses: {
      review: async () => (await callBackground('addresses.review', {})).claims,
      acknowledge: async (ids) => {
        await callBackground('addresses.acknowledge', { ids });
      },
    },
    fileAccess: async () => {
      const ext = browser.extension as unknown as { isAllowedFileSchemeAccess?: () => Promise<boolean> } | undefined;
      return ext?.isAllowedFileSchemeAccess ? ext.isAllowedFileSchemeAccess().catch(() => null) : null;
    },
  };
}
