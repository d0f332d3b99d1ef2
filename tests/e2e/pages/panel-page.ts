/** Page object for the evidence panel, opened in its own window and following another window's active tab. */
import type { Locator, Page } from 'playwright-core';
import type { ExtensionBrowser } from '../harness';
import { readDownload, type Downloaded } from './options-page';

/** Drives the evidence panel. */
export class PanelPage {
  private constructor(readonly page: Page) {}

  /** Opens the panel in a new window, following the window that shows `target` (or the first window). */
  static async open(browser: ExtensionBrowser, target?: Page): Promise<PanelPage> {
    const targetUrl = target?.url() ?? null;
    const pagePromise = browser.context.waitForEvent('page', (p) => p.url().includes('/sidepanel.html'));
    await browser.worker.evaluate(
      async ({ url, extensionId }) => {
        const api = (globalThis as any).chrome;
        const tabs: Array<{ url?: string; windowId: number }> = await api.tabs.query({});
        const tab = url ? tabs.find((t) => t.url === url) : tabs[0];
        const windowId = tab?.windowId ?? -1;
        await api.windows.create({ url: `chrome-extension://${extensionId}/sidepanel.html?window=${windowId}`, width: 1000, height: 900 });
      },
      { url: targetUrl, extensionId: browser.extensionId },
    );
    const page = await pagePromise;
    await page.waitForLoadState('domcontentloaded');
    return new PanelPage(page);
  }

  /** Survey rows currently rendered. */
  get rows(): Locator {
    return this.page.getByTestId('survey-row');
  }

  /** The row of a model (and recipe). */
  row(model: string, recipe = ''): Locator {
    return this.page.locator(`[data-testid=survey-row][data-model="${model}"][data-recipe="${recipe}"]`);
  }

  /** Opens a model's view from the survey. */
  async openModel(model: string, recipe = ''): Promise<Locator> {
    await this.row(model, recipe).getByTestId('open-model').click();
    const view = this.page.getByTestId('model-view');
    await view.waitFor();
    return view;
  }

  /** Exports the rows shown through the survey's "Export…" menu and reads the download. */
  async exportFile(item: 'jsonl' | 'md-en' | 'md-zh' | 'csv' | 'w3c'): Promise<Downloaded> {
    await this.page.getByTestId('export-open').click();
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId(`export-${item}`).click()]);
    return readDownload(download);
  }

  /** Switches to a view tab. */
  async tab(name: 'survey' | 'model' | 'page'): Promise<void> {
    await this.page.getByTestId(`tab-${name}`).click();
  }
}
