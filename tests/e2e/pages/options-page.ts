/** Page object for the options page (import and store summary). */
import type { Locator, Page } from 'playwright-core';

/** Drives the options page. */
export class OptionsPage {
  constructor(readonly page: Page, readonly extensionId: string) {}

  /** Opens the options page. */
  async open(): Promise<this> {
    await this.page.goto(`chrome-extension://${this.extensionId}/options.html`);
    return this;
  }

  /** Imports files through the file input and waits for the report. */
  async importFiles(files: Array<string | { name: string; mimeType: string; buffer: Buffer }>): Promise<Locator> {
    const panel = this.page.getByTestId('import-panel');
    const before = Number(await panel.getAttribute('data-runs'));
    await this.page.getByTestId('import-input').setInputFiles(files as never);
    // The panel counts finished imports: wait for this one.
    await this.page.waitForFunction((n) => Number(document.querySelector('[data-testid=import-panel]')?.getAttribute('data-runs')) > n, before, { timeout: 15000 });
    return this.page.getByTestId('import-result');
  }

  /** The claim count shown in the summary. */
  async claimCount(): Promise<number> {
    return Number(await this.page.getByTestId('count-claims').textContent());
  }
}
