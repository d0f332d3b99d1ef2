/** The options page's OptionsApi: the page's caller, file texts handed to the worker, and browser facts. */
import { browser } from 'wxt/browser';
import type { OptionsApi } from '../../components/options/api';
import { UPLOAD_CHANNEL, type Upload } from '../../lib/messages';
import { allowHost } from '../shared/dataset';
import { lazyReader } from '../shared/recheck';
import { callAsPage, onChangeNotice } from '../shared/calls';

/**
 * Posts a file (a handle: the worker reads it when it previews it) or its text straight to the extension's service
 * worker and waits until it holds it; returns the id to name it by, or null when there is no active worker to post to.
 */
export async function handOverText(content: string | Blob): Promise<string | null> {
  const worker = (await navigator.serviceWorker?.getRegistration())?.active;
  if (!worker) return null;
  const id = crypto.randomUUID();
  const upload: Upload = typeof content === 'string' ? { channel: UPLOAD_CHANNEL, id, text: content } : { channel: UPLOAD_CHANNEL, id, file: content };
  const held = await new Promise<boolean>((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(false), 30_000);
    channel.port1.onmessage = (event: MessageEvent<unknown>) => {
      clearTimeout(timer);
      resolve((event.data as { ok?: unknown } | null)?.ok === true);
    };
    worker.postMessage(upload, [channel.port2]);
  });
  return held ? id : null;
}

/** Builds the options page's access to the store and the browser. */
export function createOptionsApi(): OptionsApi {
  return {
    call: callAsPage,
    handOver: handOverText,
    onChange: (callback) => onChangeNotice(() => callback()),
    allowHost,
    reader: lazyReader,
    fileAccess: async () => {
      const ext = browser.extension as unknown as { isAllowedFileSchemeAccess?: () => Promise<boolean> } | undefined;
      return ext?.isAllowedFileSchemeAccess ? ext.isAllowedFileSchemeAccess().catch(() => null) : null;
    },
  };
}
