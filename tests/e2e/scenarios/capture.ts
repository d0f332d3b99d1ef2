/**
 * The capture loop as a scenario that does not know which browser runs it:
 * select a passage on a real vendor page, tag it through the toolbar, check
 * what was stored, reload, see it painted again and the toolbar badge. It
 * talks to the browser only through an `ExtensionDriver`; Chromium's driver
 * is `chromiumDriver` in ../harness.ts. A Firefox driver (web-ext with a
 * remote-controlled Firefox) needs the same four methods: pages come from the
 * same Playwright `Page` API, the store and the badge from the extension's
 * background.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { paintedPassages, squash, waitForPainted } from '../harness';
import { CaptureUi } from '../pages/capture-ui';

/** What a scenario needs from a browser running the built extension. */
export interface ExtensionDriver {
  /** A new tab (pages at http://fixtures.test/ are served from ../shared/fixtures). */
  newPage(): Promise<Page>;
  /** Every claim in the extension's store. */
  storedClaims(): Promise<Array<Record<string, any>>>;
  /** The toolbar badge of the tab showing `url`. */
  badgeFor(url: string): Promise<string>;
}

/** The slime repository page and a passage of its README the curator tags. */
export const SLIME = 'http://fixtures.test/THUDM/slime';
export const SLIME_PASSAGE = 'slime is the RL framework behind GLM-5.2, GLM-5.1, GLM-5';

/** Tags the slime passage as GLM-5's framework, and checks the store, the painting after a reload and the badge. */
export async function captureOnRealPage(driver: ExtensionDriver): Promise<void> {
  const page = await driver.newPage();
  await page.goto(SLIME);
  const ui = new CaptureUi(page);
  await ui.select(SLIME_PASSAGE);
  await ui.tagButton.click();
  await ui.form.waitFor();
  // Prefilled from the page and the taxonomy: the repository's model and the framework term.
  expect(await ui.field('value').inputValue()).toBe('slime');
  expect(await ui.field('kind').inputValue()).toBe('framework');
  await expect.poll(() => ui.form.locator('[data-testid=evidence-reason]').textContent()).toContain('B');
  await ui.fill({ model: 'GLM-5' });
  await ui.save();

  const painted = await waitForPainted(page, 1);
  expect(painted.map(squash)).toContain(SLIME_PASSAGE);
  const stored = await driver.storedClaims();
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ model: 'GLM-5', kind: 'framework', value: 'slime', evidence: 'B', quote: { exact: SLIME_PASSAGE } });
  expect(stored[0]!.source).toMatchObject({ url: SLIME, kind: 'repository', publisher: 'THUDM' });

  await page.reload();
  await waitForPainted(page, 1);
  expect(Object.keys(await paintedPassages(page))).toContain('recipe-lens-framework');
  expect(await driver.badgeFor(SLIME)).toBe('1');
  await page.close();
}
