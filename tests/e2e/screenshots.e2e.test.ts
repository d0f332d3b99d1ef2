// Screenshots of the toolbar, the claim form, a painted page with its claim card, and the options page,
// written to test-results/screenshots/ so a person can look at what the curator sees.
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_SHARED, ROOT, SHARED_FIXTURES, fixturePages, launchExtension, waitForPainted, type ExtensionBrowser } from './harness';
import { OptionsPage } from './pages/options-page';
import { PanelPage } from './pages/panel-page';
import { CaptureUi } from './pages/capture-ui';

const OUT = path.join(ROOT, 'test-results', 'screenshots');
let browser: ExtensionBrowser;
beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await launchExtension();
});
afterAll(async () => {
  await browser?.close();
});

function shot(name: string): string {
  return path.join(OUT, `${name}.png`);
}

describe.runIf(HAVE_SHARED)('screenshots', () => {
  it('shows the toolbar, the form, a painted passage with its card, and the options page', async () => {
    const page = await browser.context.newPage();
    await page.goto('http://fixtures.test/blog/qwen3/');
    const ui = new CaptureUi(page);
    const passage = 'The second stage focused on scaling up computational resources for RL, utilizing rule-based rewards';
    await page.evaluate(() => document.querySelector('h2, h3')?.scrollIntoView());
    await ui.select(passage);
    await ui.tagButton.waitFor();
    await page.screenshot({ path: shot('toolbar') });
    await ui.tagButton.click();
    await ui.form.waitFor();
    await ui.fill({ value: 'rule-based reward + RLVR' });
    await page.screenshot({ path: shot('form') });
    await ui.save();
    await waitForPainted(page, 1);
    await ui.clickPainted('utilizing rule-based rewards');
    await ui.card.waitFor();
    await page.screenshot({ path: shot('painted-card') });

    const options = await browser.context.newPage();
    await options.goto(`chrome-extension://${browser.extensionId}/options.html`);
    await options.getByTestId('store-summary').waitFor();
    await options.screenshot({ path: shot('options'), fullPage: true });
    for (const name of ['toolbar', 'form', 'painted-card', 'options']) expect(statSync(shot(name)).size).toBeGreaterThan(10_000);
  });

  it('shows the evidence panel: survey (narrow and wide), a model, this page, and the popup', async () => {
    const options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    await options.importFiles(
      fixturePages()
        .filter((p) => p.records)
        .map((p) => path.join(SHARED_FIXTURES, p.records!)),
    );
    await options.page.close();
    const page = await browser.context.newPage();
    await page.goto('http://fixtures.test/deepseek-ai/DeepSeek-R1');
    await waitForPainted(page, 3);
    const panel = await PanelPage.open(browser, page);
    await panel.page.setViewportSize({ width: 420, height: 900 });
    await panel.rows.first().waitFor();
    await panel.page.screenshot({ path: shot('panel-survey') });
    await panel.page.setViewportSize({ width: 1280, height: 800 });
    await panel.page.waitForTimeout(200);
    await panel.page.screenshot({ path: shot('panel-survey-wide') });
    await panel.page.setViewportSize({ width: 420, height: 1100 });
    await panel.openModel('Qwen3');
    await panel.page.screenshot({ path: shot('panel-model') });
    await panel.tab('page');
    await panel.page.getByTestId('page-view').getByTestId('panel-claim').first().waitFor();
    await panel.page.screenshot({ path: shot('panel-page') });
    const popup = await browser.context.newPage();
    await popup.setViewportSize({ width: 320, height: 260 });
    await popup.goto(`chrome-extension://${browser.extensionId}/popup.html`);
    await popup.getByTestId('popup-page').waitFor();
    await popup.waitForTimeout(300);
    await popup.screenshot({ path: shot('popup') });
    for (const name of ['panel-survey', 'panel-survey-wide', 'panel-model', 'panel-page', 'popup']) expect(statSync(shot(name)).size).toBeGreaterThan(5_000);
  });
});
