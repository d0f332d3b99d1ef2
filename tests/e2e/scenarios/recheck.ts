/**
 * Rechecking sources as a scenario that does not know which browser runs it: a few pairs of the public revision
 * corpus imported as captured on their old revisions, the new revisions served at the same addresses, every source
 * rechecked from the options page, and the report read: each claim's verdict against the corpus, an edit shown as a
 * word diff with its Accept, a gone passage marked.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { SLOW, type ExtensionDriver } from '../driver';
import { SHARED_FIXTURES } from '../harness';
import { importThroughOptions } from './steps';

const REVISIONS = path.join(SHARED_FIXTURES, 'revisions');

interface Pair {
  id: string;
  url: string;
  new: { page: string };
  passages: Array<{ id: string; class: 'same' | 'edited' | 'removed' }>;
}

/** The pairs the scenario rechecks: ones with edited and removed passages both, from different documents. */
const PAIRS = ['llamafactory-readme/6975124a-c7af26a9', 'trl-readme/a3c120bc-aa9770c6', 'deepseek-r1-readme/f6948c24-0cf78561'];

/** Imports the pairs' claims, serves their new revisions, rechecks everything and checks the report against the corpus. */
export async function recheckReportShowsVerdicts(driver: ExtensionDriver): Promise<void> {
  const cases = JSON.parse(readFileSync(path.join(REVISIONS, 'cases.json'), 'utf8'));
  const pairs: Pair[] = PAIRS.map((id) => cases.pairs.find((p: Pair) => p.id === id)!);
  const ids = new Set(pairs.flatMap((p) => p.passages.map((x) => x.id)));
  const records = readFileSync(path.join(REVISIONS, 'records.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() && ids.has(JSON.parse(l).id));
  const dir = mkdtempSync(path.join(tmpdir(), 'recipe-lens-recheck-'));
  const file = path.join(dir, 'corpus-records.jsonl');
  writeFileSync(file, `${records.join('\n')}\n`);
  try {
    const options = await driver.openExtensionPage('options.html');
    await importThroughOptions(options, [file]);
    await expect.poll(() => options.text('[data-testid=count-claims]'), SLOW).toBe(String(ids.size));
    for (const pair of pairs) driver.override(pair.url, readFileSync(path.join(REVISIONS, cases.pages[pair.new.page].file), 'utf8'));

    await options.waitFor('[data-testid=recheck-empty]');
    await options.click('[data-testid=recheck-start]');
    await options.waitFor('[data-testid=recheck-done]', { timeout: 60_000 });
    await expect.poll(() => options.count('[data-testid=recheck-source]'), SLOW).toBe(pairs.length);

    const shown = await options.inspect(
      () => [...document.querySelectorAll('[data-testid=recheck-item]')].map((i) => [i.getAttribute('data-claim'), i.getAttribute('data-verdict')]),
      null,
    );
    const verdictOf = new Map(shown as Array<[string, string]>);
    const passages = pairs.flatMap((p) => p.passages);
    // Nothing unchanged is listed as edited or gone; every edit and every removal is.
    expect(passages.filter((p) => p.class === 'same' && verdictOf.has(p.id)).map((p) => p.id)).toEqual([]);
    const edited = passages.filter((p) => p.class === 'edited');
    const removed = passages.filter((p) => p.class === 'removed');
    expect(edited.filter((p) => verdictOf.get(p.id) === 'edited').length).toBeGreaterThanOrEqual(Math.ceil(edited.length * 0.9));
    expect(removed.filter((p) => verdictOf.get(p.id) === 'gone').length).toBeGreaterThanOrEqual(Math.ceil(removed.length * 0.9));
    // Edits come as word diffs with their Accept; gone passages are marked, their claims kept.
    const firstEdit = edited.find((p) => verdictOf.get(p.id) === 'edited')!.id;
    expect(
      await options.count(`[data-claim="${firstEdit}"] [data-testid=recheck-diff] ins, [data-claim="${firstEdit}"] [data-testid=recheck-diff] del`),
    ).toBeGreaterThan(0);
    expect(await options.count(`[data-claim="${firstEdit}"] [data-testid=recheck-accept]`)).toBe(1);
    const firstGone = removed.find((p) => verdictOf.get(p.id) === 'gone')!.id;
    expect(await options.count(`[data-claim="${firstGone}"] [data-testid=recheck-gone]`)).toBe(1);
    expect((await driver.storedClaims()).map((c) => c.id)).toContain(firstGone);
    for (const pair of pairs) driver.override(pair.url, null);
    await options.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
