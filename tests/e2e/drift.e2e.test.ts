import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_FIXTURES, badgeFor, launchExtension, paintedTexts, squash, storedClaims, waitForPainted, type ExtensionBrowser } from './harness';
import { CaptureUi } from './pages/capture-ui';

const URL = 'http://local.test/drift.html';
const A = 'We optimise the Nova-3 policy with GRPO and a rule-based reward on verifiable tasks.';
const B = 'A second stage adds agentic RL with asynchronous rollouts over long tool trajectories.';
const A2 = 'We optimise the Nova-3 policy with GSPO and a rule-based reward on verifiable tasks.';
const C2 = 'Agentic RL now runs with asynchronous rollouts in a new rollout system.';

let browser: ExtensionBrowser;
beforeAll(async () => {
  browser = await launchExtension();
});
afterAll(async () => {
  await browser?.close();
});

async function tag(ui: CaptureUi, text: string, value: string): Promise<void> {
  await ui.select(text);
  await ui.tagButton.click();
  await ui.form.waitFor();
  await ui.fill({ model: 'Nova-3', value });
  await ui.save();
}

describe('passages that change after capture', () => {
  it('flags drifted text for confirmation, lists orphans, and re-attaches an orphan to a new selection', async () => {
    const page = await browser.context.newPage();
    await page.goto(URL);
    const ui = new CaptureUi(page);
    await tag(ui, A, 'GRPO');
    await tag(ui, B, 'asynchronous RL');
    await waitForPainted(page, 2);

    const original = readFileSync(path.join(OWN_FIXTURES, 'drift.html'), 'utf8');
    browser.override(URL, original.replace(A, A2).replace(`<p id="b">${B}</p>`, '').replace('<p id="c">', `<p id="c2">${C2}</p>\n      <p id="c">`));
    await page.reload();
    await waitForPainted(page, 1);
    expect((await paintedTexts(page)).map(squash)).toEqual([A2]);
    await expect.poll(() => badgeFor(browser.worker, URL)).toBe('1!');

    // The drifted claim shows old and new text; confirming stores the new quote.
    await ui.clickPainted('GSPO');
    const changed = ui.card.getByTestId('text-changed');
    await changed.waitFor();
    expect(await changed.textContent()).toContain('GRPO');
    await changed.getByTestId('confirm-text').click();
    await expect.poll(async () => (await storedClaims(browser.worker)).find((c) => c.value === 'GRPO')?.quote.exact).toBe(A2);

    // The orphan is listed, and re-attached to a passage the curator selects.
    await page.keyboard.press('Escape');
    const host = page.locator('recipe-lens-ui');
    await host.getByTestId('orphan-pill').click();
    await host.getByTestId('orphan-list').getByTestId('orphan-reattach').click();
    await host.getByTestId('reattach-banner').waitFor();
    await ui.select(C2);
    await host.getByTestId('toolbar-attach').click();
    await waitForPainted(page, 2);
    const orphan = (await storedClaims(browser.worker)).find((c) => c.value === 'asynchronous RL');
    expect(orphan?.quote.exact).toBe(C2);
    await expect.poll(() => badgeFor(browser.worker, URL)).toBe('2');
    await expect.poll(() => host.getByTestId('orphan-pill').count()).toBe(0);

    // Both survive a reload, exact now.
    await page.reload();
    expect((await waitForPainted(page, 2)).map(squash).sort()).toEqual([A2, C2].sort());
    browser.override(URL, null);
    await page.close();
  });
});
