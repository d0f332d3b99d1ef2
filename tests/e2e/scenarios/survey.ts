/**
 * The survey's records through a browser, as scenarios that do not know which
 * browser runs them: import the shared fixture records through the options
 * page and see each painted on its page; an edited page keeps what it can and
 * reports the rest as orphans; the evidence panel lists the models; the
 * options page exports the store as JSONL.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { SLOW, inUi, squash, type DownloadedFile, type ExtensionDriver } from '../driver';
import { ROOT, SHARED_FIXTURES, fixturePages, type FixturePage } from '../harness';
import { exportJsonlThroughOptions, importThroughOptions, paintedTexts, waitForPainted } from './steps';

/** The shared fixture pages that come with records. */
export function pagesWithRecords(): Array<FixturePage & { records: string }> {
  return fixturePages().filter((p): p is FixturePage & { records: string } => !!p.records);
}

/** The records of one fixture file. */
export function fixtureRecords(file: string): Array<{ id: string; model: string; quote: { exact: string } }> {
  return readFileSync(path.join(SHARED_FIXTURES, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

/** The record files, as paths on disk. */
export function recordFiles(): string[] {
  return pagesWithRecords().map((p) => path.join(SHARED_FIXTURES, p.records));
}

/** The models the fixture records name, sorted. */
export function fixtureModels(): string[] {
  return [...new Set(pagesWithRecords().flatMap((p) => fixtureRecords(p.records).map((r) => r.model)))].sort();
}

/** Imports every fixture records file through the options page into an empty store. */
export async function importFixtureRecords(driver: ExtensionDriver): Promise<void> {
  const options = await driver.openExtensionPage('options.html');
  const files = recordFiles();
  const reports = await importThroughOptions(options, files);
  expect(reports).toHaveLength(files.length);
  for (const report of reports) expect(report).toMatch(/imported: 3 new, 0 updated, 0 unchanged/);
  const total = pagesWithRecords().reduce((n, p) => n + fixtureRecords(p.records).length, 0);
  expect(await driver.storedClaims()).toHaveLength(total);
  await expect.poll(() => options.text('[data-testid=count-claims]'), SLOW).toBe(String(total));
  await options.close();
}

/** Opens each fixture page and checks that every one of its records is painted and counted on the badge. */
export async function everyRecordPainted(driver: ExtensionDriver): Promise<void> {
  for (const fixture of pagesWithRecords()) {
    const expected = fixtureRecords(fixture.records);
    const page = await driver.newPage();
    await page.goto(fixture.url);
    const painted = (await waitForPainted(page, expected.length)).map(squash);
    for (const record of expected) expect(painted, fixture.url).toContain(squash(record.quote.exact));
    await expect.poll(() => driver.badgeFor(fixture.url), SLOW).toBe(String(expected.length));
    await page.close();
  }
}

/**
 * On an edited Qwen3 blog (a banner added, a word changed in one passage, another passage removed): the
 * two passages still there are painted, the removed one is painted nowhere, and the page reports one orphan
 * (the badge's `1!` and the orphan pill in the page).
 */
export async function reanchorEditedPage(driver: ExtensionDriver): Promise<void> {
  const fixture = pagesWithRecords().find((p) => p.url.includes('qwen3'))!;
  const html = readFileSync(path.join(SHARED_FIXTURES, fixture.file), 'utf8');
  const edited = html
    .replace(/<body([^>]*)>/, '<body$1><div class="banner"><p>New: Qwen3 technical report is out. Read it now.</p></div>')
    .replace('scaling up computational resources for RL', 'scaling up compute resources for RL')
    .replace(
      /Finally, in the fourth stage, we applied RL across more than 20 general-domain tasks to further strengthen the model(’|&rsquo;|')s general capabilities and correct undesired behaviors\./,
      '',
    );
  expect(edited).not.toBe(html);
  driver.override(fixture.url, edited);
  try {
    const page = await driver.newPage();
    await page.goto(fixture.url);
    await waitForPainted(page, 2);
    await expect.poll(() => driver.badgeFor(fixture.url), SLOW).toBe('1!');
    const painted = (await paintedTexts(page)).map(squash);
    expect(painted).toHaveLength(2);
    expect(painted.some((t) => t.includes('This pipeline includes: (1) long chain-of-thought (CoT) cold start'))).toBe(true);
    expect(painted.some((t) => t.includes('scaling up compute resources for RL, utilizing rule-based rewards'))).toBe(true);
    expect(painted.some((t) => t.includes('fourth stage'))).toBe(false);
    // Reported in the page too: the orphan pill lists it.
    await page.waitFor(inUi('[data-testid=orphan-pill]'));
    expect(await page.text(inUi('[data-testid=orphan-pill]'))).toMatch(/1/);
    await page.close();
  } finally {
    driver.override(fixture.url, null);
  }
}

/** The evidence panel's survey lists every imported model. */
export async function panelListsModels(driver: ExtensionDriver): Promise<void> {
  const expected = fixtureModels();
  const models = await driver.panelModels(expected.length);
  expect([...models].sort()).toEqual(expected);
}

/** Runs the dataset CLI's validator on a file's text. */
function validate(text: string): { status: number | null; out: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'recipe-lens-export-'));
  try {
    const file = path.join(dir, 'export.jsonl');
    writeFileSync(file, text);
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'survey.mjs'), 'validate', file], { cwd: ROOT, encoding: 'utf8' });
    return { status: run.status, out: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Exports the store as JSONL from the options page: a dated name, valid for the dataset CLI, the same bytes twice. Returns the file. */
export async function exportStore(driver: ExtensionDriver): Promise<DownloadedFile> {
  const options = await driver.openExtensionPage('options.html');
  const file = await exportJsonlThroughOptions(options);
  expect(file.fileName).toMatch(/^recipe-lens-\d{4}-\d{2}-\d{2}\.jsonl$/);
  const check = validate(file.text);
  expect(check.out).toMatch(/^ok: /);
  expect(check.status).toBe(0);
  const claims = file.text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l))
    .filter((r) => r.schema === 'rl-survey.claim/1');
  expect(claims).toHaveLength(pagesWithRecords().reduce((n, p) => n + fixtureRecords(p.records).length, 0));
  const again = await exportJsonlThroughOptions(options);
  expect(again.bytes.equals(file.bytes)).toBe(true);
  await options.close();
  return file;
}
