/**
 * The capture loop as a scenario that does not know which browser runs it:
 * select a passage on a real vendor page, tag it through the toolbar, check
 * what was stored, reload, see it painted again and the toolbar badge. It
 * talks to the browser only through an `ExtensionDriver` (../driver.ts).
 */
import { expect } from 'vitest';
import { SLOW, inUi, squash, type ExtensionDriver } from '../driver';
import { fillAndSave, formField, openFormFromToolbar, paintedPassages, paintedTexts, selectText, waitForPainted } from './steps';

/** The slime repository page and a passage of its README the curator tags. */
export const SLIME = 'http://fixtures.test/THUDM/slime';
export const SLIME_PASSAGE = 'slime is the RL framework behind GLM-5.2, GLM-5.1, GLM-5';

/**
 * Tags the slime passage as GLM-5's framework, and checks the store, the painting after a reload and the
 * badge. Claims stored before (other scenarios' imports) stay; the badge counts them too.
 */
export async function captureOnRealPage(driver: ExtensionDriver): Promise<void> {
  const before = (await driver.storedClaims()).filter((c) => c.source?.url === SLIME).length;
  const page = await driver.newPage();
  await page.goto(SLIME);
  if (before) await waitForPainted(page, before);
  await selectText(page, SLIME_PASSAGE);
  await openFormFromToolbar(page);
  // Prefilled from the page and the taxonomy: the repository's model and the framework term.
  expect(await page.value(formField('value'))).toBe('slime');
  expect(await page.value(formField('kind'))).toBe('framework');
  await expect.poll(() => page.text(inUi('[data-testid=claim-form] [data-testid=evidence-reason]')), SLOW).toContain('B');
  await fillAndSave(page, { model: 'GLM-5' });

  await expect.poll(async () => (await paintedTexts(page)).map(squash), SLOW).toContain(SLIME_PASSAGE);
  const stored = (await driver.storedClaims()).filter((c) => c.source?.url === SLIME);
  expect(stored).toHaveLength(before + 1);
  const claim = stored.find((c) => c.quote?.exact === SLIME_PASSAGE && c.model === 'GLM-5');
  expect(claim).toMatchObject({ model: 'GLM-5', kind: 'framework', value: 'slime', evidence: 'B', quote: { exact: SLIME_PASSAGE } });
  expect(claim!.source).toMatchObject({ url: SLIME, kind: 'repository', publisher: 'THUDM' });

  await page.reload();
  const again = await waitForPainted(page, before + 1);
  expect(again.map(squash)).toContain(SLIME_PASSAGE);
  expect(Object.keys(await paintedPassages(page))).toContain('recipe-lens-framework');
  await expect.poll(() => driver.badgeFor(SLIME), SLOW).toBe(String(before + 1));
  await page.close();
}
