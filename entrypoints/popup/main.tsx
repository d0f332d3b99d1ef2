import { render } from 'preact';
import { browser } from 'wxt/browser';
import { PopupApp } from '../../components/popup/PopupApp';
import { callBackground } from '../../lib/messages';
import '../../components/popup/popup.css';

async function main() {
  const win = await browser.windows.getCurrent();
  render(
    <PopupApp
      loadPage={() => callBackground('tab.page', { windowId: win.id! })}
      openPanel={async () => {
        // Called in the click's user gesture, as sidePanel.open requires.
        await browser.sidePanel.open({ windowId: win.id! });
        window.close();
      }}
      openOptions={() => void browser.runtime.openOptionsPage().then(() => window.close())}
    />,
    document.getElementById('app')!,
  );
}
void main();
