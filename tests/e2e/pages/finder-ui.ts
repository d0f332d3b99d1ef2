/** Page object for the claim finder in a page: its list in our shadow root, its faint highlight, and the background's call that starts it. */
import type { Locator, Page } from 'playwright-core';
import type { ExtensionBrowser } from '../harness';
import { uiLocator } from '../ui-frames';

/** One candidate as the list shows it. */
export interface ListedCandidate {
  key: string;
  value: string;
  sentence: string;
}

/** Drives the claim finder on one page. */
export class FinderUi {
  constructor(
    readonly page: Page,
    private readonly browser: ExtensionBrowser,
  ) {}

  /** The finder's list. */
  get list(): Locator {
    return uiLocator(this.page, '[data-testid=finder-list]');
  }

  /** The listed candidates. */
  get items(): Locator {
    return this.list.getByTestId('finder-item');
  }

  /** Runs the finder the way the keyboard command and the popup do: the background calls `finder.run` in the tab. */
  async run(): Promise<{
    ok: boolean;
    data?: { candidates: Array<{ key: string; value: string; kind: string }>; suggestUndisclosed: boolean };
    error?: string;
  }> {
    const url = this.page.url();
    return this.browser.worker.evaluate(async (u) => {
      const api = (globalThis as any).chrome;
      const tabs: Array<{ id: number; url: string }> = await api.tabs.query({});
      const tab = tabs.find((t) => t.url === u)!;
      return api.tabs.sendMessage(tab.id, { channel: 'recipe-lens', type: 'finder.run', payload: {} }, { frameId: 0 });
    }, url);
  }

  /** Waits until the list has finished and returns its candidates, in the order shown. */
  async listed(): Promise<ListedCandidate[]> {
    await this.list.getByTestId('finder-count').waitFor();
    return this.items.evaluateAll((items) =>
      items.map((li) => ({
        key: li.getAttribute('data-key') ?? '',
        value: li.querySelector('[data-testid=finder-value]')?.textContent ?? '',
        sentence: li.querySelector('[data-testid=finder-sentence]')?.textContent ?? '',
      })),
    );
  }

  /** The list item of a candidate. */
  item(key: string): Locator {
    return this.list.locator(`[data-testid=finder-item][data-key="${key}"]`);
  }

  /** The texts of the ranges painted with the candidates' highlight. */
  async painted(): Promise<string[]> {
    return this.page.evaluate(() => {
      const h = CSS.highlights.get('recipe-lens-candidate');
      return h ? [...h].map((r) => (r as Range).toString().replace(/\s+/g, ' ').trim()) : [];
    });
  }
}
