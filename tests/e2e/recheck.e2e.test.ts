/**
 * Rechecking sources in a real browser, on the public corpus of real document revisions: the corpus's claims imported
 * (captured on the old revisions), the new revisions served at the same addresses, every source rechecked from the
 * options page with its progress bar, stopped and resumed; an edited passage accepted and painted on its new text
 * after a reload; a gone one marked and kept.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_FIXTURES, launchExtension, paintedTexts, squash, storedClaims, waitForPainted, type ExtensionBrowser } from './harness';
import { OptionsPage } from './pages/options-page';

const REVISIONS = path.join(SHARED_FIXTURES, 'revisions');
const HAVE_REVISIONS = existsSync(path.join(REVISIONS, 'cases.json'));

interface Passage {
  id: string;
  class: 'same' | 'edited' | 'removed';
  quote: { exact: string };
  expected: { text: string }[];
}
interface Pair {
  id: string;
  url: string;
  new: { page: string };
  passages: Passage[];
}

describe.runIf(HAVE_REVISIONS)('Recheck sources on the revision corpus', () => {
  let browser: ExtensionBrowser;
  const cases = HAVE_REVISIONS ? JSON.parse(readFileSync(path.join(REVISIONS, 'cases.json'), 'utf8')) : { pairs: [], pages: {} };
  const pairs: Pair[] = cases.pairs;
  const passages = new Map(pairs.flatMap((p) => p.passages.map((x) => [x.id, x] as const)));
  const html = (page: string) => readFileSync(path.join(REVISIONS, cases.pages[page].file), 'utf8');

  beforeAll(async () => {
    browser = await launchExtension();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('rechecks every source with progress, Stop and Resume, and reports each verdict against the corpus', async () => {
    const page = await browser.context.newPage();
    const options = await new OptionsPage(page, browser.extensionId).open();
    await options.importFiles([path.join(REVISIONS, 'records.jsonl')]);
    await expect.poll(() => options.claimCount()).toBe(passages.size);
    // The vendors publish the new revisions at the same addresses.
    for (const pair of pairs) browser.override(pair.url, html(pair.new.page));

    const card = page.getByTestId('recheck-card');
    await card.scrollIntoViewIfNeeded();
    await expect.poll(() => card.getByTestId('recheck-empty').count()).toBe(1);
    await card.getByTestId('recheck-start').click();
    // The progress bar moves; Stop halts the run with sources left.
    const progress = card.getByTestId('recheck-progress');
    await progress.waitFor();
    await page.waitForFunction(() => Number((document.querySelector('[data-testid=recheck-progress] progress') as HTMLProgressElement | null)?.value) >= 1);
    await card.getByTestId('recheck-stop').click();
    const resume = card.getByTestId('recheck-resume');
    await resume.waitFor();
    const max = Number(await progress.locator('progress').getAttribute('max'));
    expect(max).toBe(pairs.length);
    const doneAtStop = Number(await progress.locator('progress').evaluate((p) => (p as HTMLProgressElement).value));
    expect(doneAtStop).toBeGreaterThan(0);
    expect(doneAtStop).toBeLessThan(pairs.length);

    // Reopening the page keeps the run: nothing is lost, Resume continues where it stopped.
    await page.reload();
    await resume.waitFor();
    expect(await resume.textContent()).toContain(String(pairs.length - doneAtStop));
    await resume.click();
    await card.getByTestId('recheck-done').waitFor({ timeout: 120_000 });
    await expect.poll(() => card.getByTestId('recheck-source').count()).toBeGreaterThanOrEqual(pairs.length);

    // Each shown verdict against the corpus: nothing unchanged is shown as edited or gone, edits and removals found.
    const shown = await card
      .getByTestId('recheck-item')
      .evaluateAll((items) => items.map((i) => ({ id: i.getAttribute('data-claim')!, verdict: i.getAttribute('data-verdict')! })));
    const verdictOf = new Map(shown.map((s) => [s.id, s.verdict]));
    const of = (cls: Passage['class']) => [...passages.values()].filter((p) => p.class === cls);
    expect(of('same').filter((p) => verdictOf.has(p.id))).toEqual([]);
    const edited = of('edited').filter((p) => verdictOf.get(p.id) === 'edited').length;
    const gone = of('removed').filter((p) => verdictOf.get(p.id) === 'gone').length;
    expect(edited / of('edited').length).toBeGreaterThanOrEqual(0.95);
    expect(gone / of('removed').length).toBeGreaterThanOrEqual(0.95);
    // A gone claim is marked, never deleted.
    const goneId = of('removed').find((p) => verdictOf.get(p.id) === 'gone')!.id;
    await expect.poll(() => card.locator(`[data-claim="${goneId}"] [data-testid=recheck-gone]`).count()).toBe(1);
    expect((await storedClaims(browser.worker)).some((c) => c.id === goneId)).toBe(true);
    await card.getByTestId('recheck-model').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screenshots/recheck-report.png' });
    await page.close();
  });

  it('accepts an edited passage in one click: the claim quotes the new text and is painted on it after a reload', async () => {
    const pair = pairs.find((p) => p.id === 'llamafactory-readme/4fbdf18c-35d19210')!;
    const passage = pair.passages.find((p) => p.id === 'rv_llamafactoryread_4fbdf18c_35d19210_11')!;
    const now = passage.expected[0]!.text;
    const page = await browser.context.newPage();
    await new OptionsPage(page, browser.extensionId).open();
    const item = page.locator(`[data-testid=recheck-item][data-claim="${passage.id}"]`);
    await item.waitFor();
    // Old → new as a word diff: the changelog's present tense struck out, its past tense added.
    const diff = item.getByTestId('recheck-diff');
    expect(squash((await diff.locator('del').allTextContents()).join(' '))).toContain('Now we support');
    expect(squash((await diff.locator('ins').allTextContents()).join(' '))).toContain('We supported');
    // Nothing changed the claim yet.
    expect((await storedClaims(browser.worker)).find((c) => c.id === passage.id)?.quote.exact).toBe(passage.quote.exact);
    await item.getByTestId('recheck-accept').click();
    await page.getByTestId('recheck-accepted').waitFor();
    await expect.poll(async () => (await storedClaims(browser.worker)).find((c) => c.id === passage.id)?.quote.exact).toBe(now);
    const stored = (await storedClaims(browser.worker)).find((c) => c.id === passage.id)!;
    expect(stored.updated_at > '2026-01-01').toBe(true);

    const reader = await browser.context.newPage();
    await reader.goto(pair.url);
    await waitForPainted(reader, 1, 20_000);
    await expect.poll(async () => (await paintedTexts(reader)).map(squash), { timeout: 20_000 }).toContain(squash(now));
    await reader.close();
    await page.close();
  });
});
