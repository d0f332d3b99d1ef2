/**
 * In-page navigation as a scenario that does not know which browser runs it:
 * a single-page app renders late and moves between addresses with the History
 * API; each address's claims are painted as the app shows it. The content
 * scripts follow such navigation through the Navigation API where the
 * browser has it, else by polling the address (WXT's location watcher), and
 * through `popstate`.
 */
import { expect } from 'vitest';
import { SLOW, squash, type ExtensionDriver, type ScenarioPage } from '../driver';
import { fillAndSave, formField, openFormFromToolbar, paintedTexts, selectText, waitForPainted } from './steps';

const HOME = 'http://local.test/spa.html';
const TRAINING = 'http://local.test/spa/training';
const HOME_PASSAGE = 'We trained Acme-7B with GRPO on verifiable math and code tasks';
const TRAINING_PASSAGE = 'Reasoning RL with asynchronous rollouts in verl';

/** Waits until the page shows `text` (rendered text: the app's script holds every view's text too). */
async function waitForText(page: ScenarioPage, text: string): Promise<void> {
  await expect.poll(() => page.inspect((t) => document.body.innerText.includes(t), text), { timeout: 10_000 }).toBe(true);
}

/** Tags a passage on two addresses of the app, then visits again and follows the app's navigation back and forth. */
export async function paintsAcrossInPageNavigation(driver: ExtensionDriver): Promise<void> {
  const page = await driver.newPage();
  await page.goto(HOME);
  await waitForText(page, 'using rule-based rewards only');
  await selectText(page, HOME_PASSAGE);
  await openFormFromToolbar(page);
  expect(await page.value(formField('model'))).toBe('Acme-7B');
  await fillAndSave(page, {});

  await page.click('#to-training');
  await waitForText(page, 'asynchronous rollouts in verl');
  // Nothing of the old address stays painted. Without the Navigation API the change is seen by polling the address,
  // up to a second later (meanwhile the old passage's ranges lie collapsed in removed nodes, painting nothing), and a
  // toolbar shown in that second closes when the change is seen: a curator selects again. Give it that second.
  await expect.poll(async () => paintedTexts(page), SLOW).toEqual([]);
  await new Promise((r) => setTimeout(r, 1500));
  await selectText(page, TRAINING_PASSAGE);
  await openFormFromToolbar(page);
  await fillAndSave(page, { value: 'Reasoning RL' });
  const urls = (await driver.storedClaims()).map((c) => c.source.url as string).filter((u) => u.includes('spa'));
  expect(urls.sort()).toEqual([HOME, TRAINING]);

  // A fresh visit: the passage is painted once the app renders it; navigation swaps the page's claims.
  await page.goto(HOME);
  expect((await waitForPainted(page, 1)).map(squash)).toEqual([HOME_PASSAGE]);
  await page.click('#to-training');
  await expect.poll(async () => (await paintedTexts(page)).map(squash), { timeout: 10_000 }).toEqual([TRAINING_PASSAGE]);
  await page.evaluate(() => history.back(), null);
  await expect.poll(async () => (await paintedTexts(page)).map(squash), { timeout: 10_000 }).toEqual([HOME_PASSAGE]);
  await page.close();
}
