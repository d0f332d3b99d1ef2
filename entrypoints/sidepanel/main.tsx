import { render } from 'preact';
import { browser } from 'wxt/browser';
import { PanelApp } from '../../components/panel/PanelApp';
import { startPageLocale } from '../../components/common/locale';
import { createPanelApi } from './api';
import '../../components/panel/panel.css';

async function main() {
  // The panel follows the active tab of its own window; `?window=<id>` points it at another (a panel opened in a tab).
  const param = Number(new URLSearchParams(location.search).get('window'));
  const windowId = Number.isInteger(param) && param > 0 ? param : (await browser.windows.getCurrent()).id!;
  await startPageLocale();
  render(<PanelApp api={createPanelApi(windowId)} />, document.getElementById('app')!);
}
void main();
