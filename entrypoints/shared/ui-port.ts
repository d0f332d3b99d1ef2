/** The browser's `runtime.Port` as the capture UI's channel sees it (`components/capture/ui-channel.ts`). */
import type { Browser } from 'wxt/browser';
import type { UiPort } from '../../components/capture/ui-channel';

/** Wraps a port; a post on a port already closed is dropped (the other side is gone). */
export function wrapPort(port: Browser.runtime.Port): UiPort {
  return {
    post(message) {
      try {
        port.postMessage(message);
      } catch {
        // closed: nobody is listening any more
      }
    },
    onMessage: (listener) => port.onMessage.addListener((message: unknown) => listener(message)),
    onDisconnect: (listener) => port.onDisconnect.addListener(() => listener()),
    disconnect: () => port.disconnect(),
  };
}
