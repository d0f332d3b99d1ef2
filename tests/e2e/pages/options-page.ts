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
    await this.page.getByTestId('import-input').setInputFiles(files as never);
    const results = this.page.getByTestId('import-result');
    await results.first().waitFor({ timeout: 15000 });
    return results;
  }

  /** The claim count shown in the summary. */
  async claimCount(): Promise<number> {
    return Number(await this.page.getByTestId('count-claims').textContent());
  }
}
