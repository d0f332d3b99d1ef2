import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_SHARED, badgeFor, launchExtension, paintedPassages, squash, storedClaims, waitForPainted, type ExtensionBrowser } from './harness';
import { CaptureUi } from './pages/capture-ui';

const SLIME = 'http://fixtures.test/THUDM/slime';
const PASSAGE = 'slime is the RL framework behind GLM-5.2, GLM-5.1, GLM-5';

let browser: ExtensionBrowser;
beforeAll(async () => {
  browser = await launchExtension();
});
afterAll(async () => {
  await browser?.close();
});

describe.runIf(HAVE_SHARED)('capture on a real page', () => {
  it('tags a selection through the toolbar, stores it, and paints it again after a reload', async () => {
    const page = await browser.context.newPage();
    await page.goto(SLIME);
    const ui = new CaptureUi(page);
    await ui.select(PASSAGE);
    await ui.tagButton.click();
    await ui.form.waitFor();
    // Prefilled from the page and the taxonomy: the repository's model and the framework term.
    expect(await ui.field('value').inputValue()).toBe('slime');
    expect(await ui.field('kind').inputValue()).toBe('framework');
    await expect.poll(() => ui.form.locator('[data-testid=evidence-reason]').textContent()).toContain('B');
    await ui.fill({ model: 'GLM-5' });
    await ui.save();

    const painted = await waitForPainted(page, 1);
    expect(painted.map(squash)).toContain(PASSAGE);
    const stored = await storedClaims(browser.worker);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ model: 'GLM-5', kind: 'framework', value: 'slime', evidence: 'B', quote: { exact: PASSAGE } });
    expect(stored[0]!.source).toMatchObject({ url: SLIME, kind: 'repository', publisher: 'THUDM' });

    await page.reload();
    const again = await paintedPassages(page);
    await waitForPainted(page, 1);
    expect(Object.keys(await paintedPassages(page))).toContain('recipe-lens-framework');
    void again;
    expect(await badgeFor(browser.worker, SLIME)).toBe('1');
    await page.close();
  });
});
