import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_SHARED, SHARED_FIXTURES, fixturePages, launchExtension, squash, storedClaims, waitForPainted, type ExtensionBrowser } from './harness';
import { CaptureUi } from './pages/capture-ui';
import { OptionsPage } from './pages/options-page';
import { PanelPage } from './pages/panel-page';

let browser: ExtensionBrowser;
beforeAll(async () => {
  browser = await launchExtension();
});
afterAll(async () => {
  await browser?.close();
});

describe('the evidence panel with an empty store', () => {
  it('teaches the three steps', async () => {
    const panel = await PanelPage.open(browser);
    await panel.page.getByTestId('panel-empty').waitFor();
    const text = (await panel.page.getByTestId('panel-empty').textContent()) ?? '';
    expect(text).toMatch(/Select[\s\S]*Tag[\s\S]*Review/);
    await panel.page.close();
  });
});

describe.runIf(HAVE_SHARED)('the evidence panel over the fixture records', () => {
  const pages = fixturePages().filter((p) => p.records);

  beforeAll(async () => {
    const options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    await options.importFiles(pages.map((p) => path.join(SHARED_FIXTURES, p.records!)));
    await options.page.close();
  });

  it('lists every model with its derived evidence level, and filters as you type', async () => {
    const panel = await PanelPage.open(browser);
    await panel.rows.first().waitFor();
    const models = await panel.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-model')));
    expect(models.sort()).toEqual(['DeepSeek-R1', 'DeepSeek-R1-Zero', 'GLM-5', 'Qwen3']);
    for (const model of models) expect(await panel.row(model!).locator('.ev').textContent()).toBe('B');
    await panel.page.getByTestId('survey-search').fill('rule-based');
    await expect.poll(() => panel.rows.count()).toBe(1);
    expect(await panel.rows.first().getAttribute('data-model')).toBe('Qwen3');
    await panel.page.getByTestId('survey-search').fill('');
    await panel.page.getByTestId('filter-evidence').selectOption('A');
    await expect.poll(() => panel.rows.count()).toBe(0);
    await panel.page.close();
  });

  it('proposes each model’s vendor from its first-party sources: the vendor filter lists them, and one accepted is stored and exported', async () => {
    const panel = await PanelPage.open(browser);
    await panel.rows.first().waitFor();
    const filter = panel.page.getByTestId('filter-vendor');
    const vendors = () => filter.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    // No model records: every vendor is proposed from the publishers of the fixture records' sources.
    await expect.poll(vendors).toEqual(['DeepSeek', 'Qwen Team', 'THUDM']);
    expect(await panel.row('Qwen3').getByTestId('row-vendor').textContent()).toBe('Qwen Team (proposed)');
    expect(await panel.row('GLM-5').getByTestId('row-vendor').getAttribute('data-proposed')).toBe('true');

    await filter.selectOption('DeepSeek');
    await expect
      .poll(() => panel.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-model')).sort()))
      .toEqual(['DeepSeek-R1', 'DeepSeek-R1-Zero']);

    const view = await panel.openModel('DeepSeek-R1');
    expect(await view.getByTestId('vendor').textContent()).toBe('DeepSeek (proposed)');
    await view.getByTestId('vendor-accept').click();
    await expect.poll(() => view.getByTestId('vendor').getAttribute('data-proposed')).toBe('false');
    expect(await view.getByTestId('vendor').textContent()).toBe('DeepSeek');

    await panel.tab('survey');
    await expect.poll(() => panel.row('DeepSeek-R1').getByTestId('row-vendor').textContent()).toBe('DeepSeek');
    expect(await panel.row('DeepSeek-R1-Zero').getByTestId('row-vendor').textContent()).toBe('DeepSeek (proposed)');
    const exported = (await panel.exportFile('jsonl')).text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const models = exported.filter((r) => r.schema === 'rl-survey.model/1');
    expect(models.map((m) => [m.model, m.vendor])).toEqual([['DeepSeek-R1', 'DeepSeek']]);
    await panel.page.close();
  });

  it('shows a model’s disclosed and not-disclosed stages, and a judgment edit survives a reload', async () => {
    const panel = await PanelPage.open(browser);
    const view = await panel.openModel('Qwen3');
    for (const stage of ['sft_distillation', 'reasoning_rl', 'general_rl'])
      expect(await view.getByTestId(`stage-${stage}`).getAttribute('data-disclosed')).toBe('true');
    for (const stage of ['pretrain_midtrain', 'agentic_rl', 'vlm_omni_rl', 'opd_merge']) {
      const node = view.getByTestId(`stage-${stage}`);
      expect(await node.getAttribute('data-disclosed')).toBe('false');
      expect(await node.textContent()).toContain('not disclosed');
    }
    expect(await view.getByTestId('panel-claim').count()).toBe(3);
    await view.getByTestId('judgment').click();
    await view.getByTestId('judgment-input').fill('Four-stage pipeline disclosed in the blog; no framework named.');
    await view.getByTestId('judgment-input').press('Enter');
    await expect.poll(() => view.getByTestId('judgment').textContent()).toContain('Four-stage pipeline');
    await panel.page.reload();
    await panel.rows.first().waitFor();
    expect(await panel.row('Qwen3').getByTestId('judgment').textContent()).toContain('Four-stage pipeline disclosed');
    await panel.page.close();
  });

  it('shows a claim saved in a page tab within a second, and its link brings the passage back painted', async () => {
    const slime = pages.find((p) => p.url.includes('slime'))!;
    const page = await browser.context.newPage();
    await page.goto(slime.url);
    await waitForPainted(page, 3);
    const panel = await PanelPage.open(browser, page);
    await panel.rows.first().waitFor();
    const before = await panel.row('GLM-5').locator('[data-col=framework]').textContent();
    expect(before).not.toContain('Megatron-LM');

    const ui = new CaptureUi(page);
    const passage = 'slime is an LLM post-training framework for RL scaling';
    await ui.select(passage);
    await ui.tagButton.click();
    await ui.form.waitFor();
    await ui.fill({ model: 'GLM-5', value: 'slime' });
    await ui.field('kind').selectOption('framework');
    await ui.save();
    const saved = Date.now();
    await expect.poll(async () => (await panel.row('GLM-5').textContent()) ?? '', { timeout: 1000, interval: 50 }).toContain('4 claims');
    expect(Date.now() - saved).toBeLessThan(1000);

    // Scroll the page away, then ask the panel to show the passage.
    await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
    const view = await panel.openModel('GLM-5');
    const claim = view.locator('[data-testid=panel-claim]', { hasText: passage });
    await claim.getByTestId('claim-reveal').click();
    await expect
      .poll(() =>
        page.evaluate(() => {
          const active = CSS.highlights.get('recipe-lens-active');
          return active ? [...active].map((r) => (r as Range).toString().replace(/\s+/g, ' ').trim()) : [];
        }),
      )
      .toEqual([squash(passage)]);
    // Scrolled into view (smoothly, so give it a moment).
    await expect
      .poll(() =>
        page.evaluate(() => {
          const active = CSS.highlights.get('recipe-lens-active');
          const range = active ? ([...active][0] as Range | undefined) : undefined;
          if (!range) return false;
          const rect = range.getBoundingClientRect();
          return rect.top >= 0 && rect.bottom <= innerHeight;
        }),
      )
      .toBe(true);
    expect((await storedClaims(browser.worker)).length).toBeGreaterThan(9);
    await panel.page.close();
    await page.close();
  });

  it('lists the active tab’s claims in document order with its source, and deletes with undo', async () => {
    const deepseek = pages.find((p) => p.url.includes('DeepSeek'))!;
    const page = await browser.context.newPage();
    await page.goto(deepseek.url);
    await waitForPainted(page, 3);
    const panel = await PanelPage.open(browser, page);
    await panel.tab('page');
    const view = panel.page.getByTestId('page-view');
    await view.getByTestId('panel-claim').first().waitFor();
    expect(await view.getByTestId('page-source').textContent()).toContain('Repository');
    const values = await view.locator('[data-testid=panel-claim] .claim-value').allTextContents();
    expect(values).toEqual(['Reasoning RL', 'cold-start SFT', 'Preference RL']);
    await view.getByTestId('panel-claim').first().getByTestId('claim-delete').click();
    await expect.poll(() => view.getByTestId('panel-claim').count()).toBe(2);
    await expect.poll(async () => (await storedClaims(browser.worker)).some((c) => c.value === 'Reasoning RL')).toBe(false);
    await expect.poll(async () => await page.evaluate(() => CSS.highlights.get('recipe-lens-stage')?.size ?? 0)).toBe(2);
    await panel.page.getByTestId('panel-undo').click();
    await expect.poll(() => view.getByTestId('panel-claim').count()).toBe(3);
    await page.close();
    await panel.page.close();
  });
});
