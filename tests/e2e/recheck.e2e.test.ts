/**
 * Rechecking sources in a real browser, on the public corpus of real document revisions: the corpus's claims imported
 * (captured on the old revisions), the new revisions served at the same addresses, every source rechecked from the
 * options page with its progress bar, stopped and resumed (the service worker stopped again and again meanwhile); an
 * edited passage accepted and painted on its new text
 * after a reload; a gone one marked and kept.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tinyPdf } from '../support/tiny-pdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_FIXTURES, launchExtension, paintedTexts, squash, storedClaims, waitForPainted, type ExtensionBrowser } from './harness';
import { OptionsPage } from './pages/options-page';
import { readStore, WorkerControl } from './control';

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
    // The service worker is stopped again and again while the run goes on: each stored source stays stored, the run continues.
    const control = await WorkerControl.attach(browser.context, page, browser.extensionId);
    const stopping = control.stopRepeatedly(800, 2000);
    await resume.click();
    await card.getByTestId('recheck-done').waitFor({ timeout: 150_000 });
    expect(await stopping()).toBeGreaterThan(0);
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
    // Read from the page: the worker was stopped again and again, and the handle from the launch may be one that is gone.
    expect((await readStore(page)).claims.some((c) => c.id === goneId)).toBe(true);
    await card.getByTestId('recheck-model').first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screenshots/recheck-report.png' });
    // The DevTools session that stopped the worker goes first: a page closed under it can wait forever.
    await control.detach();
    await page.close();
  }, 240_000);

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

describe('Recheck sources: a PDF whose second version changed a sentence', () => {
  const URL_ = 'http://local.test/reports/qwen-test.pdf';
  const V1 = [
    'Qwen-Test Technical Report',
    'In the second stage we train the policy with GRPO on verifiable math and code prompts.',
    'The reward model is a rule-based verifier that checks the final answer of each response.',
  ];
  const V2 = [V1[0]!, 'In the second stage we train the policy with DAPO on verifiable math and code prompts.', V1[2]!];
  const NEW_PAGE = ['Training recipe', 'The third stage applies PPO with a learned reward model trained on human preference comparisons.'];
  let browser: ExtensionBrowser;
  let dir: string;
  beforeAll(async () => {
    browser = await launchExtension();
    dir = mkdtempSync(path.join(tmpdir(), 'recipe-lens-recheck-pdf-'));
  });
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the PDF with pdf.js in the extension: the edited sentence as a word diff, the same one unchanged, a new sentence opening the viewer at its page', async () => {
    const record = (id: string, exact: string, value: string, kind: string) => ({
      schema: 'rl-survey.claim/1',
      id,
      model: 'Qwen-Test',
      recipe: null,
      kind,
      stage: null,
      value,
      evidence: 'A',
      evidence_reason: null,
      quote: { exact, prefix: '', suffix: '' },
      position: null,
      source: { url: URL_, title: 'Qwen-Test Technical Report', kind: 'technical_report', publisher: 'Qwen', published: null, accessed: '2026-11-30' },
      link: null,
      note: '',
      curator: 'tester',
      created_at: '2026-11-30T00:00:00Z',
      updated_at: '2026-11-30T00:00:00Z',
    });
    const file = path.join(dir, 'pdf-claims.jsonl');
    writeFileSync(
      file,
      `${[record('clm_pdf_edit_01', V1[1]!, 'GRPO', 'algorithm'), record('clm_pdf_same_01', V1[2]!, 'rule-based verifier', 'reward')].map((r) => JSON.stringify(r)).join('\n')}\n`,
    );
    browser.overrideBinary(URL_, Buffer.from(tinyPdf([V2, NEW_PAGE])));
    const page = await browser.context.newPage();
    const options = await new OptionsPage(page, browser.extensionId).open();
    await options.importFiles([file]);
    await expect.poll(() => options.claimCount()).toBe(2);

    const card = page.getByTestId('recheck-card');
    await card.getByText('One source (its address)').click();
    await card.getByTestId('recheck-url').fill(URL_);
    await card.getByTestId('recheck-start').click();
    await card.getByTestId('recheck-done').waitFor({ timeout: 60_000 });
    const edited = card.locator('[data-testid=recheck-item][data-claim=clm_pdf_edit_01]');
    await edited.waitFor();
    expect(await edited.getAttribute('data-verdict')).toBe('edited');
    expect(await edited.locator('del').allTextContents()).toContain('GRPO ');
    expect(await edited.locator('ins').allTextContents()).toContain('DAPO ');
    // The unchanged claim is counted, not listed.
    expect(await card.locator('[data-claim=clm_pdf_same_01]').count()).toBe(0);
    expect(await card.getByTestId('recheck-source').getAttribute('data-status')).toBe('changed');

    // The new sentence on page 2 opens the viewer there.
    await card.getByTestId('recheck-candidates').locator('summary').click();
    const open = card.getByTestId('recheck-candidate-page').first();
    expect(await open.textContent()).toContain('page 2');
    const [viewer] = await Promise.all([browser.context.waitForEvent('page'), open.click()]);
    await viewer.waitForURL(/pdf-viewer\.html/);
    expect(new URL(viewer.url()).searchParams.get('file')).toBe(URL_);
    expect(viewer.url()).toMatch(/page=2|#page=2/);
    await viewer.close();

    await edited.getByTestId('recheck-accept').click();
    await expect.poll(async () => (await storedClaims(browser.worker)).find((c) => c.id === 'clm_pdf_edit_01')?.quote.exact).toBe(V2[1]);
    await page.close();
  });
});
