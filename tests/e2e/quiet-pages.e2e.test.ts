/**
 * A page with nothing stored costs the extension nothing in the background: its page script reads the claims index
 * from the extension's storage and sends no message, and no listener of the background fires for an ordinary
 * navigation, so a stopped service worker stays stopped. A page whose address the index holds still asks, and a claim
 * saved on a page is there on the next visit (the index follows every write before it is answered).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerControl } from './control';
import { launchExtension, waitForPainted, type ExtensionBrowser } from './harness';
import { CaptureUi } from './pages/capture-ui';

const QUIET = ['http://local.test/blank.html', 'http://local.test/rl-release.html', 'http://local.test/cjk.html', 'http://local.test/drift.html'];
const PASSAGE = 'We optimise the Nova-3 policy with GRPO and a rule-based reward on verifiable tasks.';

describe('pages with nothing stored', () => {
  let browser: ExtensionBrowser;
  beforeAll(async () => {
    browser = await launchExtension();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** How often the worker started while `loads` ran, the worker stopped before. */
  async function startsDuring(loads: () => Promise<void>): Promise<number> {
    const watcher = await browser.context.newPage();
    const control = await WorkerControl.attach(browser.context, watcher, browser.extensionId);
    try {
      await control.stop();
      await expect.poll(() => control.states.at(-1), { timeout: 10_000 }).toBe('stopped');
      const from = control.states.length;
      await loads();
      await new Promise((r) => setTimeout(r, 500));
      // The protocol may report one state several times: a start is a change to `starting`.
      const seen = control.states.slice(from - 1);
      return seen.filter((s, i) => i > 0 && s === 'starting' && seen[i - 1] !== 'starting').length;
    } finally {
      // No DevTools session is left watching the worker for what the curator does next (a save wakes it as usual).
      await control.detach();
      await watcher.close();
    }
  }

  it('loads them without starting the stopped worker or sending a message; an indexed page still asks', async () => {
    // The index exists once the extension is installed (empty store: no address).
    await expect
      .poll(() => browser.worker.evaluate(async () => Object.keys(await (globalThis as any).chrome.storage.local.get('claimsIndex')).length), {
        timeout: 10_000,
      })
      .toBe(1);
    const page = await browser.context.newPage();
    const starts = await startsDuring(async () => {
      for (let round = 0; round < 3; round++)
        for (const url of QUIET) {
          await page.goto(url);
          await page.waitForLoadState('load');
        }
    });
    expect(starts).toBe(0);

    // A claim saved here: the page is in the index by the time the save is answered, and is painted on every visit.
    const ui = new CaptureUi(page);
    await page.goto('http://local.test/drift.html');
    await ui.select(PASSAGE);
    await ui.tagButton.click();
    await ui.form.waitFor();
    await ui.fill({ model: 'Nova-3', value: 'GRPO' });
    await ui.save();
    await waitForPainted(page, 1);
    const reader = await browser.context.newPage();
    const wokeFor = await startsDuring(async () => {
      await reader.goto('http://local.test/drift.html');
      await waitForPainted(reader, 1);
    });
    expect(wokeFor).toBe(1);
    // The other pages stay quiet.
    const still = await startsDuring(async () => {
      for (const url of QUIET.filter((u) => !u.endsWith('drift.html'))) await reader.goto(url);
    });
    expect(still).toBe(0);
    await reader.close();
    await page.close();
  });
});
