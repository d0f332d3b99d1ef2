import { render } from 'preact';
import { browser } from 'wxt/browser';
import { PopupApp } from '../../components/popup/PopupApp';
import { startPageLocale } from '../shared/locale';
import { callBackground } from '../shared/messaging';
import { openEvidencePanel } from '../shared/panel';
import '../../components/popup/popup.css';

async function main() {
  const win = await browser.windows.getCurrent();
  await startPageLocale();
  render(
    <PopupApp
      loadPage={() => callBackground('tab.page', { windowId: win.id! })}
      openPanel={async () => {
        // Called in the click's user gesture, as sidePanel.open requires.
        await openEvidencePanel(win.id!);
        window.close();
      }}
      find={async (tabId) => (await callBackground('tab.finder', { tabId, action: 'run' })).report}
      datasetStatus={() => callBackground('dataset.status', {})}
      openOptions={() => void browser.runtime.openOptionsPage().then(() => window.close())}
      pdf={{
        // A PDF in the browser's own viewer takes no content script: offer Recipe Lens's viewer instead.
        find: async () => (await callBackground('tab.pdf', { windowId: win.id! })).url,
        open: async () => {
          const { tabId, url } = await callBackground('tab.pdf', { windowId: win.id! });
          if (url) await callBackground('pdf.open', { url, tabId, page: null });
          window.close();
        },
      }}
    />,
    document.getElementById('app')!,
  );
}
void main();
