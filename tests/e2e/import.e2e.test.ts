import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_SHARED, SHARED_FIXTURES, badgeFor, fixturePages, launchExtension, squash, storedClaims, waitForPainted, type ExtensionBrowser } from './harness';
import { OptionsPage } from './pages/options-page';

let browser: ExtensionBrowser;
beforeAll(async () => {
  browser = await launchExtension();
});
afterAll(async () => {
  await browser?.close();
});

function records(file: string): Array<{ id: string; quote: { exact: string } }> {
  return readFileSync(path.join(SHARED_FIXTURES, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

describe('import through the options page', () => {
  it('refuses a file with a bad line, names the line, and stores nothing from it', async () => {
    const options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    const good = '{"schema":"rl-survey.model/1","model":"GLM-5","recipe":null,"vendor":"Zhipu AI","updated_at":"2026-11-29T10:05:00Z"}';
    const bad = '{"schema":"rl-survey.claim/1","id":"short"}';
    const results = await options.importFiles([
      { name: 'broken.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(`${good}\n${bad}\n{not json\n`) },
    ]);
    const text = (await results.first().textContent()) ?? '';
    expect(text).toContain('not imported');
    expect(text).toContain('line 2:');
    expect(text).toContain('line 3: not valid JSON');
    expect(await storedClaims(browser.worker)).toHaveLength(0);
    await expect.poll(() => options.page.getByTestId('store-empty').count()).toBe(1);
    await options.page.close();
  });
});

describe.runIf(HAVE_SHARED)('imported fixture records are painted on their pages', () => {
  const pages = fixturePages().filter((p) => p.records);

  it('imports every records file once, and again without changes', async () => {
    const options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    const files = pages.map((p) => path.join(SHARED_FIXTURES, p.records!));
    const results = await options.importFiles(files);
    await expect.poll(() => results.count()).toBe(files.length);
    for (const text of await results.allTextContents()) expect(text).toMatch(/imported: 3 new, 0 updated, 0 unchanged/);
    const total = pages.reduce((n, p) => n + records(p.records!).length, 0);
    expect(await storedClaims(browser.worker)).toHaveLength(total);
    const again = await options.importFiles(files);
    for (const text of await again.allTextContents()) expect(text).toMatch(/0 new, 0 updated, 3 unchanged/);
    await expect.poll(() => options.claimCount()).toBe(total);
    await options.page.close();
  });

  for (const fixture of pages) {
    it(`paints every record on ${fixture.url}`, async () => {
      const expected = records(fixture.records!);
      const page = await browser.context.newPage();
      await page.goto(fixture.url);
      const painted = (await waitForPainted(page, expected.length)).map(squash);
      for (const record of expected) expect(painted).toContain(squash(record.quote.exact));
      expect(await badgeFor(browser.worker, fixture.url)).toBe(String(expected.length));
      await page.close();
    });
  }
  // Re-anchoring on an edited page with an orphan: the shared scenario (scenarios/survey.ts, reanchorEditedPage) runs it in Chromium and Firefox.
});
