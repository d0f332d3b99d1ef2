import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgeFor, launchExtension, paintedTexts, squash, storedClaims, waitForPainted, type ExtensionBrowser } from './harness';
import { CaptureUi } from './pages/capture-ui';

let browser: ExtensionBrowser;
beforeAll(async () => {
  browser = await launchExtension();
});
afterAll(async () => {
  await browser?.close();
});

const CJK = 'http://local.test/cjk.html';

describe('capturing on pages we wrote', () => {
  it('prefills a CJK passage across inline elements, saves it, deletes it and undoes the delete', async () => {
    const page = await browser.context.newPage();
    await page.goto(CJK);
    const ui = new CaptureUi(page);
    await ui.select('我们在推理阶段采用GRPO算法');
    await ui.tagButton.click();
    await ui.form.waitFor();
    expect(await ui.field('value').inputValue()).toBe('GRPO');
    expect(await ui.field('kind').inputValue()).toBe('algorithm');
    await ui.fill({ model: 'Zeta-2' });
    await ui.save();
    expect((await waitForPainted(page, 1)).map(squash)).toEqual(['我们在推理阶段采用GRPO算法']);
    const [claim] = await storedClaims(browser.worker);
    expect(claim).toMatchObject({ model: 'Zeta-2', value: 'GRPO', kind: 'algorithm', quote: { exact: '我们在推理阶段采用GRPO算法' } });
    expect(claim!.source.published).toBe('2026-10-02');

    await ui.clickPainted('GRPO');
    await ui.card.waitFor();
    expect(await ui.card.textContent()).toContain('Zeta-2');
    await ui.card.getByTestId('card-delete').click();
    await expect.poll(() => paintedTexts(page)).toEqual([]);
    expect(await storedClaims(browser.worker)).toHaveLength(0);
    await ui.toasts.getByTestId('toast-undo').click();
    await waitForPainted(page, 1);
    const restored = await storedClaims(browser.worker);
    expect(restored).toEqual([claim]);
    await page.close();
  });

  it('edits a claim in place: same id, new value, still painted after a reload', async () => {
    const page = await browser.context.newPage();
    await page.goto(CJK);
    const ui = new CaptureUi(page);
    await waitForPainted(page, 1);
    const [before] = await storedClaims(browser.worker);
    await ui.clickPainted('GRPO');
    await ui.card.getByTestId('card-edit').click();
    await ui.form.waitFor();
    await ui.fill({ value: 'GRPO', note: 'Reasoning stage only.' });
    await ui.field('stage').selectOption('reasoning_rl');
    await ui.save();
    const [after] = await storedClaims(browser.worker);
    expect(after!.id).toBe(before!.id);
    expect(after).toMatchObject({ stage: 'reasoning_rl', note: 'Reasoning stage only.', created_at: before!.created_at });
    await page.reload();
    await waitForPainted(page, 1);
    await page.close();
  });

  it('paints a page that is only read with the small painting script; the capture script comes with the first click on a passage', async () => {
    // The background's script injections, recorded in the worker.
    await browser.worker.evaluate(() => {
      const api = (globalThis as any).chrome.scripting;
      const injected: string[] = [];
      (globalThis as any).__injected = injected;
      const original = api.executeScript.bind(api);
      api.executeScript = (details: { files?: string[] }) => {
        injected.push(...(details.files ?? []));
        return original(details);
      };
    });
    const injected = () => browser.worker.evaluate(() => [...(globalThis as any).__injected]);
    const page = await browser.context.newPage();
    await page.goto(CJK);
    await waitForPainted(page, 1);
    await expect.poll(() => badgeFor(browser.worker, CJK)).toBe('1');
    expect(await injected()).toEqual(['/content-scripts/paint.js']);
    // Hovering and clicking the painted passage brings the card, through the capture script taking the painting over.
    const ui = new CaptureUi(page);
    await ui.clickPainted('GRPO');
    await ui.card.waitFor();
    expect(await ui.card.textContent()).toContain('Zeta-2');
    expect(await injected()).toEqual(['/content-scripts/paint.js', '/content-scripts/capture.js']);
    // Taken over, not painted again: still one highlight, on the same text.
    expect((await paintedTexts(page)).map(squash)).toEqual(['我们在推理阶段采用GRPO算法']);
    await page.close();
  });

  it('asks for a reason when the evidence level differs from the rules, and keeps the form on errors', async () => {
    const page = await browser.context.newPage();
    await page.goto(CJK);
    const ui = new CaptureUi(page);
    await ui.select('The “general RL” stage follows, with a rubric reward');
    await ui.tagButton.click();
    await ui.form.waitFor();
    await ui.fill({ model: '' });
    await ui.form.locator('label', { hasText: 'Tech report' }).click();
    await ui.form.getByTestId('form-save').click();
    await expect.poll(() => ui.form.locator('.rl-error').count()).toBeGreaterThanOrEqual(2);
    // An unknown site's article is a third-party source: C, and a warning that it is not evidence.
    expect(await ui.form.textContent()).toContain('The rules suggest C');
    expect(await ui.form.getByTestId('form-warning').first().textContent()).toContain('not evidence');
    await ui.fill({ model: 'Zeta-2', evidenceReason: 'The blog quotes the report verbatim.' });
    await ui.save();
    const saved = (await storedClaims(browser.worker)).find((c) => c.quote.exact.startsWith('The “general RL”'));
    expect(saved).toMatchObject({ evidence: 'A', evidence_reason: 'The blog quotes the report verbatim.' });
    await page.close();
  });

  it('opens the form from the background (context menu and keyboard command path) and closes the toolbar with Escape', async () => {
    const page = await browser.context.newPage();
    await page.goto(CJK);
    const ui = new CaptureUi(page);
    await ui.select('第三段：模型能力和基准测试结果');
    await ui.tagButton.waitFor();
    await page.keyboard.press('Escape');
    await ui.tagButton.waitFor({ state: 'detached' });
    await ui.select('第三段：模型能力和基准测试结果');
    expect(await page.evaluate(() => getSelection()!.toString())).toBe('第三段：模型能力和基准测试结果');
    const opened = await browser.worker.evaluate(async (url) => {
      const api = (globalThis as any).chrome;
      const [tab] = await api.tabs.query({ url });
      return api.tabs.sendMessage(tab.id, { channel: 'recipe-lens', type: 'form.open', payload: {} }, { frameId: 0 });
    }, CJK);
    expect(opened).toEqual({ ok: true, data: { opened: true } });
    await ui.form.waitFor();
    await page.keyboard.press('Escape');
    await ui.form.waitFor({ state: 'detached' });
    await page.close();
  });

  it('adds nothing to a page that has no claims', async () => {
    const page = await browser.context.newPage();
    await page.goto('http://local.test/blank.html');
    await page.waitForTimeout(500);
    expect(await page.locator('recipe-lens-ui').count()).toBe(0);
    expect(await paintedTexts(page)).toEqual([]);
    await page.close();
  });
});

describe('late content and in-page navigation', () => {
  it('paints claims when content renders late and when the app navigates with the History API, without duplicates', async () => {
    const page = await browser.context.newPage();
    await page.goto('http://local.test/spa.html');
    const ui = new CaptureUi(page);
    await page.getByText('using rule-based rewards only').waitFor();
    await ui.select('We trained Acme-7B with GRPO on verifiable math and code tasks');
    await ui.tagButton.click();
    await ui.form.waitFor();
    expect(await ui.field('model').inputValue()).toBe('Acme-7B');
    await ui.save();
    await expect.poll(() => badgeFor(browser.worker, 'http://local.test/spa.html')).toBe('1');

    await page.click('#to-training');
    await page.getByText('asynchronous rollouts in verl').waitFor();
    expect(await paintedTexts(page)).toEqual([]);
    // Nothing is stored under the new address: the badge no longer counts the old page's claim.
    await expect.poll(() => badgeFor(browser.worker, 'http://local.test/spa/training')).toBe('');
    await ui.select('Reasoning RL with asynchronous rollouts in verl');
    await ui.tagButton.click();
    await ui.form.waitFor();
    await ui.fill({ value: 'Reasoning RL' });
    await ui.save();
    const stored = await storedClaims(browser.worker);
    expect(
      stored
        .map((c) => c.source.url)
        .filter((u) => !u.includes('cjk'))
        .sort(),
    ).toEqual(['http://local.test/spa.html', 'http://local.test/spa/training']);

    // A fresh visit: the claim's passage appears only after the app renders it.
    await page.goto('http://local.test/spa.html');
    expect(await paintedTexts(page)).toEqual([]);
    expect((await waitForPainted(page, 1)).map(squash)).toEqual(['We trained Acme-7B with GRPO on verifiable math and code tasks']);
    // In-page navigation swaps the page's claims.
    await page.click('#to-training');
    await expect.poll(async () => (await paintedTexts(page)).map(squash), { timeout: 5000 }).toEqual(['Reasoning RL with asynchronous rollouts in verl']);
    await page.goBack();
    await expect
      .poll(async () => (await paintedTexts(page)).map(squash), { timeout: 5000 })
      .toEqual(['We trained Acme-7B with GRPO on verifiable math and code tasks']);
    await page.close();
  });
});
