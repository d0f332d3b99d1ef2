/**
 * One part of a web page's capture UI, in an extension frame the capture script put on the page: it opens its port
 * to that script (`tabs.connect`, the top frame of its own tab) and shows what the controller says. Wiring only:
 * the part is `components/capture/frame-app.ts`.
 */
import { browser } from 'wxt/browser';
import { startFramePart } from '../../components/capture/frame-app';
import { uiPortName } from '../../components/capture/ui-channel';
import { UI_PARTS, type UiPart } from '../../components/capture/ui-parts';
import '../../components/capture/ui.css';
import { useBrowserMessages } from '../shared/i18n';
import { wrapPort } from '../shared/ui-port';

async function main(): Promise<void> {
  useBrowserMessages();
  const params = new URLSearchParams(location.hash.slice(1));
  const part = params.get('part') as UiPart | null;
  const nonce = params.get('n') ?? '';
  // Only inside a tab's page, as the capture script puts it there.
  if (!part || !UI_PARTS.includes(part) || window.parent === window) return;
  const tab = await browser.tabs.getCurrent();
  if (tab?.id === undefined) return;
  const port = browser.tabs.connect(tab.id, { frameId: 0, name: uiPortName(part, nonce) });
  startFramePart(part, wrapPort(port));
}

void main();
