/**
 * Hostile pages as scenarios that do not know which browser runs them: a page
 * that overrides the built-ins our scripts use still gets its passage tagged,
 * stored and painted again; a page that forges our messages reaches nothing.
 */
import { expect } from 'vitest';
import { testClaim } from '../control';
import { SLOW, type ExtensionDriver } from '../driver';
import { fillAndSave, openFormFromToolbar, paintedTexts, waitForPainted } from './steps';

/** A page that replaces Array methods, JSON, Range, getSelection, addEventListener, Highlight and more (tests/e2e/fixtures/hostile). */
export const HOSTILE_URL = 'http://local.test/hostile/prototypes.html';

/** Tags a passage selected with the mouse on the hostile page, and finds it stored and painted again after a reload. */
export async function tagOnHostilePage(driver: ExtensionDriver): Promise<void> {
  const page = await driver.newPage();
  await page.goto(HOSTILE_URL);
  // The page's own world is broken on purpose: its Array.prototype.map throws.
  await expect(page.evaluate(() => [1].map((x) => x), null)).rejects.toThrow(/hostile page/);
  await page.dragAcross('#target');
  await openFormFromToolbar(page);
  await fillAndSave(page, { model: 'Hostile-1', value: 'GRPO' });
  await expect.poll(async () => (await paintedTexts(page)).length, SLOW).toBe(1);
  const stored = (await driver.storedClaims()).filter((c) => c.source?.url === HOSTILE_URL);
  expect(stored).toHaveLength(1);
  expect(stored[0]!.quote.exact).toContain('used GRPO with rule-based rewards on math problems');
  await page.reload();
  expect(await waitForPainted(page, 1)).toHaveLength(1);
  await page.close();
}

/**
 * In the page: posts and dispatches forged protocol calls carrying `record` in every shape a page could try
 * (window messages, as objects and as text; DOM events by our names and the calls' names); returns what the
 * page sees of an extension API (`typeof chrome.runtime.sendMessage`, `typeof browser.runtime.sendMessage`).
 */
export function forgeCallsInPage(record: { id: string }): string[] {
  for (const type of ['claims.save', 'claims.restore', 'claims.delete', 'import.commit', 'form.open', 'claims.changed', 'model.save']) {
    const envelope = { channel: 'recipe-lens', type, payload: { claims: [record], ids: [record.id], url: null } };
    window.postMessage(envelope, '*');
    window.postMessage(JSON.stringify(envelope), '*');
    for (const name of ['recipe-lens', type, 'message', 'recipe-lens-notice']) {
      document.dispatchEvent(new CustomEvent(name, { detail: envelope, bubbles: true }));
      window.dispatchEvent(new CustomEvent(name, { detail: envelope }));
    }
  }
  const w = window as unknown as { chrome?: { runtime?: { sendMessage?: unknown } }; browser?: { runtime?: { sendMessage?: unknown } } };
  return [typeof w.chrome?.runtime?.sendMessage, typeof w.browser?.runtime?.sendMessage];
}

/** A page posts and dispatches forged calls in every shape it can think of: it has no extension API, and nothing is stored or shown. */
export async function pageCannotReachStore(driver: ExtensionDriver): Promise<void> {
  const url = 'http://local.test/blank.html';
  const page = await driver.newPage();
  await page.goto(url);
  const before = await driver.storedClaims();
  const forged = testClaim('clm_forged_000001', url);
  const reached = await page.evaluate(forgeCallsInPage, forged);
  expect(reached).toEqual(['undefined', 'undefined']);
  await new Promise((r) => setTimeout(r, 1000));
  expect(await driver.storedClaims()).toEqual(before);
  expect(await page.count('recipe-lens-ui')).toBe(0);
  await page.close();
}
