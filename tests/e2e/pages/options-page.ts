/** Page object for the options page (store summary, backup and restore, import, export). */
import { readFileSync } from 'node:fs';
import type { Download, Locator, Page } from 'playwright-core';

/** A file given to a file input: a path, or a name and its bytes. */
export type InputFile = string | { name: string; mimeType: string; buffer: Buffer };

/** A downloaded file. */
export interface Downloaded {
  fileName: string;
  path: string;
  text: string;
}

/** Reads a finished download. */
export async function readDownload(download: Download): Promise<Downloaded> {
  const path = await download.path();
  return { fileName: download.suggestedFilename(), path, text: readFileSync(path, 'utf8') };
}

/** Drives the options page. */
export class OptionsPage {
  constructor(
    readonly page: Page,
    readonly extensionId: string,
  ) {}

  /** Opens the options page. */
  async open(): Promise<this> {
    await this.page.goto(`chrome-extension://${this.extensionId}/options.html`);
    return this;
  }

  private async runs(testId: string): Promise<number> {
    return Number(await this.page.getByTestId(testId).getAttribute('data-runs'));
  }

  private async runsAbove(testId: string, n: number, timeout = 60_000): Promise<void> {
    await this.page.waitForFunction(
      ({ id, n }) => Number(document.querySelector(`[data-testid=${id}]`)?.getAttribute('data-runs')) > n,
      { id: testId, n },
      { timeout },
    );
  }

  /** Picks files and waits for their preview (or for the report, when no file can be imported). Stores nothing. */
  async previewFiles(files: InputFile[], format: 'auto' | 'jsonl' | 'w3c' = 'auto'): Promise<Locator> {
    const before = await this.runs('import-panel');
    await this.page.getByTestId('import-format').selectOption(format);
    await this.page.getByTestId('import-input').setInputFiles(files as never);
    await this.page.waitForFunction(
      (n) =>
        Number(document.querySelector('[data-testid=import-panel]')?.getAttribute('data-runs')) > n || !!document.querySelector('[data-testid=import-confirm]'),
      before,
      { timeout: 60_000 },
    );
    return this.page.getByTestId('import-preview');
  }

  /** Confirms the previewed import and waits for the report. */
  async confirmImport(): Promise<Locator> {
    const before = await this.runs('import-panel');
    await this.page.getByTestId('import-confirm').click();
    await this.runsAbove('import-panel', before);
    return this.page.getByTestId('import-result');
  }

  /** Imports files through the file input, confirming the preview as it is, and waits for the report. */
  async importFiles(files: InputFile[]): Promise<Locator> {
    await this.previewFiles(files);
    if (await this.page.getByTestId('import-confirm').count()) return this.confirmImport();
    return this.page.getByTestId('import-result');
  }

  /** The claim count shown in the summary. */
  async claimCount(): Promise<number> {
    return Number(await this.page.getByTestId('count-claims').textContent());
  }

  /** Exports from the export card (after choosing the table language and models, when given) and reads the download. */
  async exportFile(kind: 'jsonl' | 'md' | 'csv' | 'w3c', options: { lang?: 'en' | 'zh'; models?: string[] } = {}): Promise<Downloaded> {
    await this.page.getByTestId(`export-lang-${options.lang ?? 'en'}`).check();
    if (options.models) await this.page.getByTestId('export-models').selectOption(options.models);
    // The card reads the store when the page opens; the buttons wait for it.
    await this.page.getByTestId(`export-${kind}`).and(this.page.locator(':enabled')).waitFor();
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId(`export-${kind}`).click()]);
    return readDownload(download);
  }

  /** Makes a backup and reads the downloaded file. */
  async backup(): Promise<Downloaded> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.page.getByTestId('backup-now').click()]);
    return readDownload(download);
  }

  /** Picks a file to restore and waits for the restore preview (or the refusal). Replaces nothing yet. */
  async previewRestore(file: InputFile): Promise<Locator> {
    await this.page.getByTestId('restore-input').setInputFiles(file as never);
    await this.page.locator('[data-testid=restore-preview], [data-testid=restore-result]').first().waitFor({ timeout: 60_000 });
    return this.page.getByTestId('restore-preview');
  }

  /** Confirms the restore and waits for its report. */
  async confirmRestore(): Promise<Locator> {
    const before = await this.runs('backup-panel');
    await this.page.getByTestId('restore-confirm').click();
    await this.runsAbove('backup-panel', before);
    return this.page.getByTestId('restore-result');
  }
}
