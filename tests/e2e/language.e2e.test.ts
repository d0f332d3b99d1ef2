/**
 * The language setting: chosen on the options page, stored through the background, applied at once to the
 * options page and to an evidence panel already open, kept across a reload, and back to the browser's
 * language (English here) with "Browser default".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchExtension, type ExtensionBrowser } from './harness';
import { OptionsPage } from './pages/options-page';
import { PanelPage } from './pages/panel-page';

let browser: ExtensionBrowser;
beforeAll(async () => {
  browser = await launchExtension();
});
afterAll(async () => {
  await browser?.close();
});

describe('the language setting', () => {
  it('switches the options page and an open panel to 简体中文, keeps it, and goes back to the browser default', async () => {
    const options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    const panel = await PanelPage.open(browser);
    await panel.page.getByTestId('panel-empty').waitFor();
    const heading = options.page.locator('#language-h');
    expect(await heading.textContent()).toBe('Language');

    const select = options.page.getByTestId('language-select');
    await select.and(options.page.locator(':enabled')).waitFor();
    await select.selectOption('zh_CN');
    await expect.poll(() => heading.textContent()).toBe('语言');
    expect(await options.page.locator('#store-h').textContent()).toBe('你的存储');
    // The panel, open in another window, follows at once.
    await expect.poll(() => panel.page.getByTestId('tab-survey').textContent()).toBe('调研表');
    expect(await panel.page.getByTestId('panel-empty').textContent()).toContain('开始你的证据表');

    // Stored: a page opened now starts in Chinese.
    await options.page.reload();
    await expect.poll(() => options.page.locator('#language-h').textContent()).toBe('语言');
    await expect.poll(() => options.page.getByTestId('language-select').inputValue()).toBe('zh_CN');

    await options.page.getByTestId('language-select').selectOption('auto');
    await expect.poll(() => options.page.locator('#language-h').textContent()).toBe('Language');
    await expect.poll(() => panel.page.getByTestId('tab-survey').textContent()).toBe('Survey');
    await panel.page.close();
    await options.page.close();
  });
});
