import { render } from 'preact';
import { browser } from 'wxt/browser';
import { PanelApp } from '../../components/panel/PanelApp';
import { startPageLocale } from '../shared/locale';
import { callBackground } from '../shared/calls';
import { createPanelApi } from './api';
import '../../components/panel/panel.css';

/** Models in the first rows asked for before anything else (the panel then asks for every row). */
const FIRST_ROWS = 12;

async function main() {
  // The first rows are asked for at once, while the window and the language are settled; the panel draws them on arrival.
  const first = callBackground('survey.head', { models: FIRST_ROWS }).catch(() => undefined);
  // The panel follows the active tab of its own window; `?window=<id>` points it at another (a panel opened in a tab).
  const param = Number(new URLSearchParams(location.search).get('window'));
  const [windowId] = await Promise.all([Number.isInteger(param) && param > 0 ? param : browser.windows.getCurrent().then((w) => w.id!), startPageLocale()]);
  render(<PanelApp api={createPanelApi(windowId)} first={first} />, document.getElementById('app')!);
}
void main();
