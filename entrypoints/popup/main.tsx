import { render } from 'preact';
import { browser } from 'wxt/browser';
import { PopupApp } from '../../components/popup/PopupApp';
import { startPageLocale } from '../shared/locale';
import { callAsPage } from '../shared/calls';
import { openEvidencePanel } from '../shared/panel';
import '../../components/popup/popup.css';

async function main() {
  const win = await browser.windows.getCurrent();
  await startPageLocale();
  render(
    <PopupApp
      api={{
        call: callAsPage,
        windowId: win.id!,
        openPanel: async () => {
          // Called in the click's user gesture, as sidePanel.open requires.
          await openEvidencePanel(win.id!);
          window.close();
        },
        openOptions: () => void browser.runtime.openOptionsPage().then(() => window.close()),
        close: () => window.close(),
      }}
    />,
    document.getElementById('app')!,
  );
}
void main();
