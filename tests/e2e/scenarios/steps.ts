/**
 * Steps the scenarios share, over the browser-neutral `ScenarioPage`: a
 * selection made the way a drag makes it, the capture UI (toolbar, form),
 * the painted passages read from `CSS.highlights` in a world of the test's
 * own, and the options page's import and export.
 */
import { expect } from 'vitest';
import { CLAIM_HIGHLIGHTS, SLOW, inUi, paintedInPage, selectTextInPage, type DownloadedFile, type ScenarioPage } from '../driver';

/** The painted passages per highlight name (read where the page's own scripts cannot interfere). */
export function paintedPassages(page: ScenarioPage): Promise<Record<string, string[]>> {
  return page.inspect(paintedInPage, CLAIM_HIGHLIGHTS);
}

/** Every painted passage, flattened. */
export async function paintedTexts(page: ScenarioPage): Promise<string[]> {
  return Object.values(await paintedPassages(page)).flat();
}

/** Waits until at least `count` passages are painted and returns them. */
export async function waitForPainted(page: ScenarioPage, count: number, timeout = 15_000): Promise<string[]> {
  await expect.poll(async () => (await paintedTexts(page)).length, { timeout, interval: 100 }).toBeGreaterThanOrEqual(count);
  return paintedTexts(page);
}

/** Selects the first occurrence of `text` (white space squashed) among the page's visible text, by script as a drag would, and releases the pointer. */
export async function selectText(page: ScenarioPage, text: string): Promise<void> {
  const found = await page.inspect(selectTextInPage, text);
  if (!found) throw new Error(`text not on the page: ${text}`);
  // The curator's own key ends the selection (a script's events are not the curator's, and are ignored).
  await page.press('Shift');
}

/** The claim form's fields the scenarios fill. */
export type FormValues = Partial<Record<'model' | 'recipe' | 'value' | 'note' | 'evidenceReason', string>>;

/** Opens the claim form from the toolbar on the current selection. */
export async function openFormFromToolbar(page: ScenarioPage): Promise<void> {
  await page.click(inUi('[data-testid=toolbar-tag]'));
  await page.waitFor(inUi('[data-testid=claim-form]'));
}

/** A claim form field's selector. */
export function formField(name: string): string {
  return inUi(`[data-testid=claim-form] [name=${name}]`);
}

/** Fills the form's text fields, saves, and waits for the form to close. */
export async function fillAndSave(page: ScenarioPage, values: FormValues): Promise<void> {
  for (const [name, value] of Object.entries(values)) await page.fill(formField(name), value!);
  await page.click(inUi('[data-testid=form-save]'));
  await page.waitFor(inUi('[data-testid=claim-form]'), { state: 'detached', timeout: 15_000 });
}

/** The number in an element's `data-runs` (the options page's panels count their finished runs there). */
async function runs(page: ScenarioPage, testId: string): Promise<number> {
  return page.inspect((id) => Number(document.querySelector(`[data-testid=${id}]`)?.getAttribute('data-runs') ?? 0), testId);
}

/** On the options page: imports files (paths on disk), confirming the preview as it is; returns the text of each file's report. */
export async function importThroughOptions(options: ScenarioPage, files: string[]): Promise<string[]> {
  await options.waitFor('[data-testid=import-input]');
  const before = await runs(options, 'import-panel');
  await options.selectOption('[data-testid=import-format]', 'auto');
  await options.setInputFiles('[data-testid=import-input]', files);
  await expect
    .poll(async () => (await runs(options, 'import-panel')) > before || (await options.count('[data-testid=import-confirm]')) > 0, { timeout: 60_000 })
    .toBe(true);
  if (await options.count('[data-testid=import-confirm]')) {
    const previewed = await runs(options, 'import-panel');
    await options.click('[data-testid=import-confirm]');
    await expect.poll(() => runs(options, 'import-panel'), { timeout: 60_000 }).toBeGreaterThan(previewed);
  }
  return options.inspect(() => [...document.querySelectorAll('[data-testid=import-result]')].map((li) => li.textContent ?? ''), null);
}

/** On the options page: exports every record as survey-record JSONL and returns the downloaded file. */
export async function exportJsonlThroughOptions(options: ScenarioPage): Promise<DownloadedFile> {
  // The card reads the store when the page opens; its buttons wait for that.
  await expect.poll(() => options.inspect(() => !!document.querySelector<HTMLButtonElement>('[data-testid=export-jsonl]:enabled'), null), SLOW).toBe(true);
  return options.download('[data-testid=export-jsonl]');
}
