import { render } from 'preact';
import { browser } from 'wxt/browser';
import { PanelApp } from '../../components/panel/PanelApp';
import { startPageLocale } from '../shared/locale';
import { callAsPage } from '../shared/calls';
import { PANEL_FIRST_MODELS, takeEarlyCall } from '../shared/early-call';
import { createPanelApi } from './api';
import '../../components/panel/panel.css';
import '../../components/recheck/recheck.css';

async function main() {
  // Marks for the bench's breakdown of the first paint (scripts evaluated, first rows' answer, first render).
  performance.mark('panel:main');
  // The first rows were asked for by the page's first script, before these modules loaded (or are asked for now);
  // the panel draws them on arrival.
  const first = (takeEarlyCall('survey.head') ?? callAsPage('survey.head', { models: PANEL_FIRST_MODELS }))
    .then((data) => (performance.mark('panel:head'), data))
    .catch(() => undefined);
  // The panel follows the active tab of its own window; `?window=<id>` points it at another (a panel opened in a tab).
  const param = Number(new URLSearchParams(location.search).get('window'));
  const [windowId] = await Promise.all([Number.isInteger(param) && param > 0 ? param : browser.windows.getCurrent().then((w) => w.id!), startPageLocale()]);
  performance.mark('panel:render');
  render(<PanelApp api={createPanelApi(windowId)} first={first} />, document.getElementById('app')!);
}
void main();
