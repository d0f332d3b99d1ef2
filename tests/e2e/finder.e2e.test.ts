// The claim finder end to end in Chromium: asked for on a page (the background's `finder.run`, as the keyboard command
// and the popup send it), candidates listed and painted faintly, one accepted into a saved claim, one dismissed for good,
// both gone after a reload while the claim stays painted; "record as not disclosed"; the panel's "This page" entry; and
// automatic runs on an opted-in site only.
// The real vendor page comes from ../shared/fixtures (beside the repository); without that folder its test is not run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAVE_SHARED, fixturePages, launchExtension, paintedTexts, squash, storedClaims, waitForPainted, type ExtensionBrowser } from './harness';
import { CaptureUi } from './pages/capture-ui';
import { FinderUi } from './pages/finder-ui';
import { PanelPage } from './pages/panel-page';
import { PdfViewer } from './pages/pdf-viewer';
import { uiFrames } from './ui-frames';
import { ZETA, printPdf } from './pdf-fixtures';

let browser: ExtensionBrowser;
beforeAll(async () => {
  browser = await launchExtension();
});
afterAll(async () => {
  await browser?.close();
});

/** The finder's dismissals as the extension's IndexedDB holds them. */
async function storedDismissals(): Promise<Array<{ url: string; key: string; sentence: string }>> {
  return browser.worker.evaluate(
    () =>
      new Promise<any[]>((resolve, reject) => {
        const open = indexedDB.open('recipe-lens');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction('dismissals').objectStore('dismissals').getAll();
          req.onsuccess = () => {
            db.close();
            resolve(req.result);
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );
}

/** Whether the candidate highlight's ranges are in document order. */
async function inDocumentOrder(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const ranges = [...(CSS.highlights.get('recipe-lens-candidate') ?? [])] as Range[];
    return ranges.every((r, i) => i === 0 || ranges[i - 1]!.compareBoundaryPoints(Range.START_TO_START, r) < 0);
  });
}

/** The data-testid of the element that has the keyboard in our UI's frames (null: none of them has it). */
async function focusedInUi(page: Page): Promise<string | null> {
  for (const frame of uiFrames(page)) {
    const id = await frame.evaluate(() => (document.hasFocus() ? (document.activeElement?.getAttribute('data-testid') ?? null) : null));
    if (id) return id;
  }
  return null;
}

describe('the claim finder on a real vendor page (../shared/fixtures)', () => {
  const deepseek = fixturePages().find((p) => p.file.includes('DeepSeek-R1'));
  if (!HAVE_SHARED || !deepseek) {
    it('is not run: the shared fixture pages are not beside this repository', () => {
      expect(HAVE_SHARED && !!deepseek).toBe(false);
    });
    return;
  }

  it('finds, accepts one candidate into a saved claim, dismisses another; after a reload the claim is painted and both are gone from the list', async () => {
    const page = await browser.context.newPage();
    await page.goto(deepseek.url);
    const ui = new CaptureUi(page);
    const finder = new FinderUi(page, browser);
    // Nothing runs until asked: no UI of ours and nothing painted.
    await page.waitForTimeout(400);
    expect(await page.locator('recipe-lens-ui').count()).toBe(0);
    expect(await finder.painted()).toEqual([]);

    const reply = await finder.run();
    expect(reply.ok).toBe(true);
    const listed = await finder.listed();
    expect(listed.length).toBeGreaterThanOrEqual(2);
    expect(listed.map((c) => c.key)).toEqual(reply.data!.candidates.map((c) => c.key));
    // Painted faintly with their own highlight, one range per candidate, in document order like the list.
    expect((await finder.painted()).length).toBe(listed.length);
    expect(await inDocumentOrder(page)).toBe(true);
    expect(await paintedTexts(page)).toEqual([]);
    // Keyboard: the first accept button has the focus.
    expect(await focusedInUi(page)).toBe('finder-accept');

    const [first, second] = listed as [(typeof listed)[0], (typeof listed)[0]];
    const kind = reply.data!.candidates[0]!.kind;
    await finder.item(first.key).getByTestId('finder-accept').click();
    await ui.form.waitFor();
    expect(await ui.field('value').inputValue()).toBe(first.value);
    expect(await ui.field('kind').inputValue()).toBe(kind);
    if (!(await ui.field('model').inputValue())) await ui.fill({ model: 'DeepSeek-R1' });
    // Nothing is stored before the curator saves.
    expect(await storedClaims(browser.worker)).toEqual([]);
    await ui.save();
    expect((await waitForPainted(page, 1)).map(squash)).toEqual([squash(first.sentence)]);
    const [claim] = await storedClaims(browser.worker);
    expect(claim).toMatchObject({ value: first.value, kind, source: { url: deepseek.url } });
    expect(squash(claim!.quote.exact)).toBe(squash(first.sentence));
    // The accepted candidate is a claim now, not a candidate.
    await finder.item(first.key).waitFor({ state: 'detached' });

    await finder.item(second.key).getByTestId('finder-dismiss').click();
    await finder.item(second.key).waitFor({ state: 'detached' });
    await expect.poll(storedDismissals).toEqual([expect.objectContaining({ url: deepseek.url, key: second.key })]);
    expect((await finder.painted()).length).toBe(listed.length - 2);

    // Escape closes the list and takes the candidates off the page.
    await finder.list.getByTestId('finder-close').focus();
    await page.keyboard.press('Escape');
    await finder.list.waitFor({ state: 'detached' });
    expect(await finder.painted()).toEqual([]);

    await page.reload();
    expect((await waitForPainted(page, 1)).map(squash)).toEqual([squash(first.sentence)]);
    expect((await finder.run()).ok).toBe(true);
    const again = (await finder.listed()).map((c) => c.key);
    expect(again).not.toContain(second.key);
    expect(again).not.toContain(first.key);
    expect(again.length).toBe(listed.length - 2);
    await page.close();
  });
});

describe('the claim finder on pages we wrote', () => {
  it('offers "record as not disclosed" on a page that talks about RL without naming a stage or algorithm, and saves it as an undisclosed claim', async () => {
    const url = 'http://local.test/rl-release.html';
    const page = await browser.context.newPage();
    await page.goto(url);
    const ui = new CaptureUi(page);
    const finder = new FinderUi(page, browser);
    const reply = await finder.run();
    expect(reply).toMatchObject({ ok: true, data: { suggestUndisclosed: true } });
    // Whatever it lists names RL only, never a stage or an algorithm.
    for (const c of reply.data!.candidates) expect(c).toMatchObject({ stage: null, kind: 'stage' });
    expect((await finder.listed()).length).toBe(reply.data!.candidates.length);
    await finder.list.getByTestId('finder-record-undisclosed').click();
    await ui.form.waitFor();
    expect(await ui.field('kind').inputValue()).toBe('undisclosed');
    expect(await ui.field('value').inputValue()).toBe('RL stages');
    if (!(await ui.field('model').inputValue())) await ui.fill({ model: 'Zeta-3' });
    await ui.save();
    const saved = (await storedClaims(browser.worker)).find((c) => c.source.url === url);
    expect(saved).toMatchObject({ kind: 'undisclosed', value: 'RL stages', evidence: 'C', quote: { exact: 'Introducing Zeta-3' } });
    expect(saved!.note).toMatch(/discloses no RL stage or algorithm/);
    // Recorded once: a later run does not offer it again.
    expect(await finder.run()).toMatchObject({ ok: true, data: { suggestUndisclosed: false } });
    await finder.list.getByTestId('finder-count').waitFor();
    expect(await finder.list.getByTestId('finder-record-undisclosed').count()).toBe(0);
    await page.close();
  });

  it('runs from the panel\'s "This page" view: lists the candidates, dismisses one there, and accepting one opens the form in the page', async () => {
    const url = 'http://local.test/cjk.html';
    const page = await browser.context.newPage();
    await page.goto(url);
    const ui = new CaptureUi(page);
    const finder = new FinderUi(page, browser);
    const panel = await PanelPage.open(browser, page);
    await panel.tab('page');
    await panel.page.getByTestId('panel-find').click();
    const candidates = panel.page.getByTestId('panel-candidate');
    await candidates.first().waitFor();
    const keys = await candidates.evaluateAll((els) => els.map((e) => e.getAttribute('data-key')!));
    expect(keys.length).toBeGreaterThanOrEqual(2);
    // The page lists and paints the same candidates.
    expect((await finder.listed()).map((c) => c.key)).toEqual(keys);
    expect((await finder.painted()).length).toBe(keys.length);

    await panel.page.locator(`[data-testid=panel-candidate][data-key="${keys[1]}"]`).getByTestId('panel-candidate-dismiss').click();
    await panel.page.locator(`[data-testid=panel-candidate][data-key="${keys[1]}"]`).waitFor({ state: 'detached' });
    await finder.item(keys[1]!).waitFor({ state: 'detached' });
    expect((await storedDismissals()).map((d) => d.key)).toContain(keys[1]);

    await panel.page.locator(`[data-testid=panel-candidate][data-key="${keys[0]}"]`).getByTestId('panel-candidate-accept').click();
    await ui.form.waitFor();
    expect(await ui.field('value').inputValue()).toBe('GRPO');
    expect(await ui.field('kind').inputValue()).toBe('algorithm');
    await panel.page.close();
    await page.close();
  });

  it('runs by itself only on the sites opted in on the options page', async () => {
    const options = await browser.context.newPage();
    await options.goto(`chrome-extension://${browser.extensionId}/options.html`);
    const sites = options.getByTestId('finder-sites');
    await expect.poll(() => sites.isEnabled()).toBe(true);
    await sites.fill('local.test\nnot a site!');
    await options.getByTestId('finder-sites-save').click();
    await options.getByTestId('finder-sites-status').waitFor();
    expect(await sites.inputValue()).toBe('local.test');
    expect(await options.getByTestId('finder-settings').textContent()).toContain('not a site!');

    const page = await browser.context.newPage();
    await page.goto('http://local.test/cjk.html');
    const finder = new FinderUi(page, browser);
    expect((await finder.listed()).length).toBeGreaterThan(0);
    expect((await finder.painted()).length).toBeGreaterThan(0);

    await sites.fill('');
    await options.getByTestId('finder-sites-save').click();
    await expect.poll(() => options.getByTestId('finder-sites-status').textContent()).toContain('0');
    await page.reload();
    await page.waitForTimeout(500);
    expect(await page.locator('recipe-lens-ui').count()).toBe(0);
    expect(await finder.painted()).toEqual([]);
    await options.close();
    await page.close();
  });
});

describe('the claim finder in the PDF viewer', () => {
  it('finds over the whole document, accepts a candidate into a PDF claim, dismisses another; both stay gone after a reload', async () => {
    const url = 'http://fixtures.test/reports/zeta-3-finder.pdf';
    browser.overrideBinary(url, await printPdf(browser.context, ZETA.html()));
    const v = new PdfViewer(await browser.context.newPage(), browser.extensionId);
    await v.open(url);
    await v.waitForAnchored();
    const finder = new FinderUi(v.page, browser);
    const reply = await finder.run();
    expect(reply.ok).toBe(true);
    const listed = await finder.listed();
    expect(listed.map((c) => c.key)).toEqual(reply.data!.candidates.map((c) => c.key));
    const grpo = listed.find((c) => c.value === 'GRPO');
    const other = listed.find((c) => c.value !== 'GRPO');
    expect(grpo).toBeDefined();
    expect(other).toBeDefined();
    // The first page's text layer is drawn: its candidates are painted faintly.
    await expect.poll(async () => (await finder.painted()).length).toBeGreaterThan(0);

    await finder.item(grpo!.key).getByTestId('finder-accept').click();
    await v.capture.form.waitFor();
    expect(await v.capture.field('value').inputValue()).toBe('GRPO');
    expect(await v.capture.field('kind').inputValue()).toBe('algorithm');
    // A technical report stating an algorithm: A.
    expect(await v.capture.form.locator('[name=evidence]:checked').inputValue()).toBe('A');
    if (!(await v.capture.field('model').inputValue())) await v.capture.fill({ model: 'Zeta-3' });
    await v.capture.save();
    const saved = (await storedClaims(browser.worker)).find((c) => c.source.url === url);
    expect(saved).toMatchObject({ value: 'GRPO', kind: 'algorithm', pdf: { page: 1 } });
    expect(squash(saved!.quote.exact)).toBe(squash(grpo!.sentence));
    await finder.item(grpo!.key).waitFor({ state: 'detached' });

    await finder.item(other!.key).getByTestId('finder-dismiss').click();
    await finder.item(other!.key).waitFor({ state: 'detached' });
    expect(await storedDismissals()).toContainEqual(expect.objectContaining({ url, key: other!.key }));

    await v.page.reload();
    await v.waitForAnchored();
    expect((await finder.run()).ok).toBe(true);
    const again = (await finder.listed()).map((c) => c.key);
    expect(again).not.toContain(grpo!.key);
    expect(again).not.toContain(other!.key);
    expect(again.length).toBe(listed.length - 2);
    await v.page.close();
  });
});
