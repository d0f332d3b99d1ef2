/** Page object for the options page's Dataset card, and protocol calls made from that extension page. */
import type { BrowserContext, Locator, Page } from 'playwright-core';

/** What the curator types to connect. */
export interface DatasetForm {
  url: string;
  branch?: string;
  name: string;
  username: string;
  token: string;
  review?: boolean;
}

/** Drives the Dataset card of the options page. */
export class DatasetCard {
  private constructor(readonly page: Page) {}

  /** Opens the options page in a new tab of `context`. */
  static async open(context: BrowserContext, extensionId: string): Promise<DatasetCard> {
    const page = await context.newPage();
    await page.goto(`chrome-extension://${extensionId}/options.html`);
    const card = new DatasetCard(page);
    await card.root.waitFor();
    return card;
  }

  get root(): Locator {
    return this.page.getByTestId('dataset-panel');
  }

  /** Sends a protocol call from this extension page and returns its reply (`{ ok, data | error }`). */
  call(type: string, payload: unknown): Promise<any> {
    return this.page.evaluate(([type, payload]) => (globalThis as any).chrome.runtime.sendMessage({ channel: 'recipe-lens', type, payload }), [
      type,
      payload,
    ] as const);
  }

  /** Opens the connection form (from the empty state, or Change… when connected) and fills it. */
  async fill(form: DatasetForm): Promise<void> {
    const open = this.root.getByTestId('dataset-connect-open');
    const shown = this.root.getByTestId('dataset-form');
    await this.root.locator('[data-testid=dataset-connect-open], [data-testid=dataset-edit], [data-testid=dataset-form]').first().waitFor();
    if (await open.count()) await open.click();
    else if (!(await shown.count())) await this.root.getByTestId('dataset-edit').click();
    await this.root.getByTestId('dataset-url').fill(form.url);
    await this.root.getByTestId('dataset-branch').fill(form.branch ?? 'main');
    await this.root.getByTestId('dataset-name').fill(form.name);
    await this.root.getByTestId('dataset-username').fill(form.username);
    await this.root.getByTestId('dataset-token').fill(form.token);
    if (form.review) await this.root.getByTestId('dataset-form-review').check();
  }

  /** Clicks Test connection and returns what it said (the success line or the failure, with its code). */
  async testConnection(): Promise<{ ok: boolean; code: string | null; text: string }> {
    await this.root.getByTestId('dataset-test').click();
    const said = this.root.locator('[data-testid=dataset-check], [data-testid=dataset-failure], [data-testid=dataset-problem]');
    await said.first().waitFor({ timeout: 30_000 });
    const code = await said.first().getAttribute('data-code');
    return { ok: (await said.first().getAttribute('data-testid')) === 'dataset-check', code, text: (await said.first().textContent()) ?? '' };
  }

  /** Fills the form, tests the connection, saves it, and waits for the connected view. */
  async connect(form: DatasetForm): Promise<void> {
    await this.fill(form);
    const check = await this.testConnection();
    if (!check.ok) throw new Error(`Test connection failed: ${check.text}`);
    await this.root.getByTestId('dataset-save').click();
    await this.page.locator('[data-testid=dataset-panel][data-connected=yes]').waitFor({ timeout: 30_000 });
  }

  /** Opens the dry run and returns it. */
  async dryRun(): Promise<Locator> {
    await this.root.getByTestId('dataset-publish').click();
    const run = this.root.locator('[data-testid=dataset-dry-run], [data-testid=dataset-failure]').first();
    await run.waitFor({ timeout: 60_000 });
    return run;
  }

  /** Publish…, then Publish in the dry run; returns the outcome shown (published, or the failure with its code). */
  async publish(message?: string): Promise<{ ok: boolean; code: string | null; text: string }> {
    const run = await this.dryRun();
    if ((await run.getAttribute('data-testid')) !== 'dataset-dry-run')
      return { ok: false, code: await run.getAttribute('data-code'), text: (await run.textContent()) ?? '' };
    if (message !== undefined) await this.root.getByTestId('dataset-commit-message').fill(message);
    await this.root.getByTestId('dataset-publish-confirm').click();
    return this.outcome('dataset-published');
  }

  /** Pull now; returns the outcome shown. */
  async pull(): Promise<{ ok: boolean; code: string | null; text: string }> {
    await this.root.getByTestId('dataset-pull').click();
    return this.outcome('dataset-pulled');
  }

  private async outcome(done: string): Promise<{ ok: boolean; code: string | null; text: string }> {
    const shown = this.root.locator(`[data-testid=${done}], [data-testid=dataset-failure], [data-testid=dataset-problem]`).first();
    await shown.waitFor({ timeout: 90_000 });
    return {
      ok: (await shown.getAttribute('data-testid')) === done,
      code: await shown.getAttribute('data-code'),
      text: (await shown.textContent()) ?? '',
    };
  }

  /** The status line's counts, once the card shows them. */
  async status(): Promise<{ unpublished: number; conflicts: number; text: string }> {
    const line = this.root.getByTestId('dataset-status');
    await line.waitFor();
    return {
      unpublished: Number(await line.getAttribute('data-unpublished')),
      conflicts: Number(await line.getAttribute('data-conflicts')),
      text: (await line.textContent()) ?? '',
    };
  }
}
