import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_FIXTURES, SHARED_FIXTURES, badgeFor, launchExtension, paintedTexts, squash, storedClaims, waitForPainted, type ExtensionBrowser } from './harness';
import { CaptureUi } from './pages/capture-ui';
import { uiLocator } from './ui-frames';

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
    const host = { getByTestId: (id: string) => uiLocator(page, `[data-testid=${id}]`) };
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

/** The public corpus of real document revisions (issue 13), beside the repository when present. */
const REVISIONS = path.join(SHARED_FIXTURES, 'revisions');
const HAVE_REVISIONS = existsSync(path.join(REVISIONS, 'cases.json'));

describe.runIf(HAVE_REVISIONS)('a claim captured on an old revision of a real README', () => {
  it('is painted on the new revision, flagged as changed with its old and new text, and confirming stores the new text', async () => {
    const cases = JSON.parse(readFileSync(path.join(REVISIONS, 'cases.json'), 'utf8'));
    // LLaMA-Factory's README between two consecutive revisions: the changelog rewritten in the past tense.
    const pair = cases.pairs.find((p: { id: string }) => p.id === 'llamafactory-readme/4fbdf18c-35d19210');
    const passage = pair.passages.find((p: { id: string }) => p.id === 'rv_llamafactoryread_4fbdf18c_35d19210_11');
    const old: string = passage.quote.exact;
    const now: string = passage.expected[0].text;
    const html = (page: string) => readFileSync(path.join(REVISIONS, cases.pages[page].file), 'utf8');
    const url: string = pair.url;

    browser.override(url, html(pair.old.page));
    const page = await browser.context.newPage();
    await page.goto(url);
    const ui = new CaptureUi(page);
    await tag(ui, old, 'QLoRA');
    expect((await waitForPainted(page, 1)).map(squash)).toEqual([old]);

    // The vendor publishes the next revision at the same address.
    browser.override(url, html(pair.new.page));
    await page.reload();
    expect((await waitForPainted(page, 1)).map(squash)).toEqual([now]);
    await expect.poll(() => badgeFor(browser.worker, url)).toBe('1');

    await ui.clickPainted('quantized training');
    const changed = ui.card.getByTestId('text-changed');
    await changed.waitFor();
    const shown = squash((await changed.textContent()) ?? '');
    expect(shown).toContain('Now we support quantized training');
    expect(shown).toContain('We supported quantized training');
    await changed.getByTestId('confirm-text').click();
    await expect.poll(async () => (await storedClaims(browser.worker)).find((c) => c.value === 'QLoRA')?.quote.exact).toBe(now);
    browser.override(url, null);
    await page.close();
  });
});
