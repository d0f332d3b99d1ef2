// Export, re-import, conflicts, bad lines and backups in real Chromium with the built extension.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_SHARED, ROOT, SHARED_FIXTURES, fixturePages, launchExtension, squash, storedClaims, type ExtensionBrowser } from './harness';
import { OptionsPage, type Downloaded } from './pages/options-page';
import { PanelPage } from './pages/panel-page';

let browser: ExtensionBrowser;
beforeAll(async () => {
  browser = await launchExtension();
});
afterAll(async () => {
  await browser?.close();
});

const HEADERS = '| Model | Evidence | RL framework / system | Public RL stages and algorithms | Design intention | Current judgment |';

/** Runs the dataset CLI's validator on a file. */
function validate(file: string): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'survey.mjs'), 'validate', file], { cwd: ROOT, encoding: 'utf8' });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

function lines(text: string): Array<Record<string, any>> {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, any>);
}

function asFile(name: string, text: string, mimeType = 'application/x-ndjson') {
  return { name, mimeType, buffer: Buffer.from(text) };
}

/** Every stored claim as comparable text (sorted by id). */
async function storeSnapshot(): Promise<string> {
  const claims = await storedClaims(browser.worker);
  return JSON.stringify(claims.sort((a, b) => (a.id < b.id ? -1 : 1)));
}

describe.runIf(HAVE_SHARED)('exporting and importing again', () => {
  const pages = fixturePages().filter((p) => p.records);
  const total = () =>
    pages.reduce(
      (n, p) =>
        n +
        readFileSync(path.join(SHARED_FIXTURES, p.records!), 'utf8')
          .split('\n')
          .filter((l) => l.trim()).length,
      0,
    );
  let options: OptionsPage;
  let panelJsonl: Downloaded;

  beforeAll(async () => {
    options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    const results = await options.importFiles(pages.map((p) => path.join(SHARED_FIXTURES, p.records!)));
    expect(await results.count()).toBe(pages.length);
  });

  it('exports from the panel: valid, byte-identical twice, dated, every claim linked to its passage', async () => {
    const panel = await PanelPage.open(browser);
    await panel.rows.first().waitFor();
    panelJsonl = await panel.exportFile('jsonl');
    expect(panelJsonl.fileName).toMatch(/^recipe-lens-\d{4}-\d{2}-\d{2}\.jsonl$/);
    const check = validate(panelJsonl.path);
    expect(check.out).toMatch(/^ok: /);
    expect(check.status).toBe(0);
    const records = lines(panelJsonl.text);
    expect(records.filter((r) => r.schema === 'rl-survey.claim/1')).toHaveLength(total());
    for (const r of records) if (r.schema === 'rl-survey.claim/1') expect(r.link).toMatch(/^http:\/\/fixtures\.test\/.+#:~:text=/);
    const again = await panel.exportFile('jsonl');
    expect(again.text).toBe(panelJsonl.text);
    // Once the panel has made the file's parts ahead (in idle moments), the file put together from them is the same.
    await panel.page.locator('[data-testid=export-menu][data-export-prepared=yes]').waitFor({ timeout: 30_000 });
    expect((await panel.exportFile('jsonl')).text).toBe(panelJsonl.text);

    const md = await panel.exportFile('md-en');
    expect(md.fileName).toMatch(/^recipe-lens-table-\d{4}-\d{2}-\d{2}\.md$/);
    expect(md.text.split('\n')[0]).toBe(HEADERS);
    expect(md.text).toMatch(/slime\[\^\d+\]/);
    expect(md.text).toMatch(/^\[\^1\]: .+ <http:\/\/fixtures\.test\//m);
    const zh = await panel.exportFile('md-zh');
    expect(zh.text.split('\n')[0]).toBe('| 模型 | 证据等级 | RL 框架 / 系统 | 公开的 RL 阶段与算法 | 设计意图 | 当前判断 |');
    expect(zh.text).toContain('未公开');
    const csv = await panel.exportFile('csv');
    expect(csv.text.split('\r\n')[0]).toBe('Model,Evidence,RL framework / system,Public RL stages and algorithms,Design intention,Current judgment,Sources');
    const w3c = await panel.exportFile('w3c');
    expect(w3c.fileName).toMatch(/\.jsonld$/);
    expect(JSON.parse(w3c.text)).toMatchObject({ '@context': 'http://www.w3.org/ns/anno.jsonld', type: 'AnnotationCollection', total: total() });

    // Filtered: only what the survey shows.
    await panel.page.getByTestId('survey-search').fill('rule-based');
    await expect.poll(() => panel.rows.count()).toBe(1);
    const filtered = lines((await panel.exportFile('jsonl')).text);
    expect(new Set(filtered.map((r) => r.model))).toEqual(new Set(['Qwen3']));
    await panel.page.close();
  });

  it('exports from the options page: the same bytes as the panel, a model filter, the table headers', async () => {
    await options.page.reload();
    const all = await options.exportFile('jsonl');
    expect(all.text).toBe(panelJsonl.text);
    await options.page.locator('[data-testid=export-panel][data-export-prepared=yes]').waitFor({ timeout: 30_000 });
    expect((await options.exportFile('jsonl')).text).toBe(panelJsonl.text);
    const md = await options.exportFile('md');
    expect(md.text.split('\n')[0]).toBe(HEADERS);
    const glm = await options.exportFile('jsonl', { models: ['GLM-5'] });
    expect(validate(glm.path).status).toBe(0);
    expect(new Set(lines(glm.text).map((r) => r.model))).toEqual(new Set(['GLM-5']));
    await options.page.getByTestId('export-clear').click();
  });

  it('opens a claim’s link on its passage', async () => {
    const claim = lines(panelJsonl.text).find((r) => r.schema === 'rl-survey.claim/1' && r.source.url.includes('qwen3') && /fourth stage/.test(r.quote.exact))!;
    const page = await browser.context.newPage();
    await page.goto(claim.link);
    // Chrome scrolls a matched text fragment into view; the passage sits far down the page.
    await expect
      .poll(
        () =>
          page.evaluate((exact) => {
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              if (!n.textContent?.includes(exact.slice(0, 40))) continue;
              const box = n.parentElement!.getBoundingClientRect();
              return box.top >= 0 && box.bottom <= innerHeight && scrollY > 0;
            }
            return false;
          }, squash(claim.quote.exact)),
        { timeout: 10_000 },
      )
      .toBe(true);
    await page.close();
  });

  it('re-importing an export changes nothing: the preview shows 0 new, 0 updated, N unchanged', async () => {
    const before = await storeSnapshot();
    const n = lines(panelJsonl.text).length;
    const preview = await options.previewFiles([asFile('export.jsonl', panelJsonl.text)]);
    expect(await preview.getByTestId('preview-counts').textContent()).toBe(`0 new, 0 updated, ${n} unchanged, 0 conflicts`);
    const results = await options.confirmImport();
    expect(await results.first().textContent()).toContain(`imported: 0 new, 0 updated, ${n} unchanged`);
    expect(await storeSnapshot()).toBe(before);

    const w3c = await options.exportFile('w3c');
    const w3cPreview = await options.previewFiles([asFile(w3c.fileName, w3c.text, 'application/ld+json')]);
    expect(await w3cPreview.getByTestId('preview-counts').textContent()).toBe(`0 new, 0 updated, ${total()} unchanged, 0 conflicts`);
    await options.page.getByTestId('import-cancel').click();
    expect(await storeSnapshot()).toBe(before);
  });

  it('shows a conflicting file side by side and stores the version chosen for each conflict', async () => {
    const records = lines(panelJsonl.text).filter((r) => r.schema === 'rl-survey.claim/1');
    const [first, second] = [records[0]!, records[1]!];
    const changed = [
      { ...first, value: 'Their value', note: 'theirs' },
      { ...second, value: 'Another value' },
    ];
    const text = changed.map((r) => JSON.stringify(r)).join('\n');
    const preview = await options.previewFiles([asFile('theirs.jsonl', text)]);
    expect(await preview.getByTestId('preview-counts').textContent()).toBe('0 new, 0 updated, 0 unchanged, 2 conflicts');
    const one = preview.locator(`[data-testid=conflict][data-ref="claim:${first.id}"]`);
    expect(await one.locator('[data-field=value] [data-testid=mine]').textContent()).toBe(first.value);
    expect(await one.locator('[data-field=value] [data-testid=theirs]').textContent()).toBe('Their value');
    expect(await one.locator('[data-field=note] [data-testid=theirs]').textContent()).toBe('theirs');
    await one.getByTestId('take-theirs').check();
    const results = await options.confirmImport();
    expect(await results.first().textContent()).toContain('conflicts: kept mine for 1, took theirs for 1');
    const stored = await storedClaims(browser.worker);
    expect(stored.find((c) => c.id === first.id)).toMatchObject({ value: 'Their value', note: 'theirs' });
    expect(stored.find((c) => c.id === second.id)!.value).toBe(second.value);
  });

  it('names a bad line by file and line, in JSONL and in W3C files, and stores nothing', async () => {
    const before = await storeSnapshot();
    const good = lines(panelJsonl.text)[0]!;
    const bad = `${JSON.stringify(good)}\n${JSON.stringify({ ...good, evidence: 'Z' })}\n`;
    const results = await options.importFiles([asFile('bad.jsonl', bad)]);
    expect(await results.first().textContent()).toContain('not imported');
    expect(await results.first().getByTestId('import-errors').textContent()).toMatch(/^bad\.jsonl, line 2: evidence/);

    const w3c = JSON.parse((await options.exportFile('w3c')).text);
    w3c.first.items[1].target.selector[0].exact = '';
    const w3cText = JSON.stringify(w3c, null, 2);
    const line = w3cText.split('\n').findIndex((l) => l.includes(`"id": "${w3c.first.items[1].id}"`)); // 1-based line of the `{` above
    const w3cResults = await options.importFiles([asFile('bad.jsonld', w3cText, 'application/ld+json')]);
    expect(await w3cResults.first().getByTestId('import-errors').textContent()).toMatch(new RegExp(`^bad\\.jsonld, line ${line}: annotation 2: quote\\.exact`));
    expect(await storeSnapshot()).toBe(before);
  });

  it('refuses a file over the size limit with a clear message', async () => {
    // A sparse file on disk: the browser reads its size, and Recipe Lens refuses it before reading a byte.
    const dir = mkdtempSync(path.join(tmpdir(), 'recipe-lens-big-'));
    const big = path.join(dir, 'huge.jsonl');
    writeFileSync(big, '');
    truncateSync(big, 33 * 1024 * 1024);
    try {
      const results = await options.importFiles([big]);
      expect(await results.first().textContent()).toMatch(/huge\.jsonl — not imported, nothing was changed: the file is 33\.0 MB; the limit is 32 MB/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('backs up and restores the whole store, and reminds after many changes', async () => {
    await options.page.reload();
    const before = await storeSnapshot();
    const backup = await options.backup();
    expect(backup.fileName).toMatch(/^recipe-lens-backup-\d{4}-\d{2}-\d{2}\.json$/);
    await expect.poll(() => options.page.getByTestId('backup-last').textContent()).toMatch(/Last backup .* 0 records changed since/);
    expect(await options.page.getByTestId('backup-reminder').count()).toBe(0);

    // 60 new claims: the store has changed a lot since the backup.
    const template = lines(panelJsonl.text).find((r) => r.schema === 'rl-survey.claim/1')!;
    const extra = Array.from({ length: 60 }, (_, i) => JSON.stringify({ ...template, id: `extra_${String(i).padStart(4, '0')}`, model: 'Extra-Model' })).join(
      '\n',
    );
    await options.importFiles([asFile('extra.jsonl', extra)]);
    await expect.poll(() => options.page.getByTestId('backup-reminder').textContent()).toContain('60 records changed since the last backup');
    expect((await storedClaims(browser.worker)).length).toBe(total() + 60);

    const preview = await options.previewRestore({ name: backup.fileName, mimeType: 'application/json', buffer: Buffer.from(backup.text) });
    expect(await preview.getByTestId('restore-counts').textContent()).toBe(
      `0 new, ${total()} replaced, 60 removed (records here that the backup does not hold)`,
    );
    const result = await options.confirmRestore();
    expect(await result.textContent()).toContain(`restored: 0 new, ${total()} replaced, 60 removed`);
    expect(await storeSnapshot()).toBe(before);
    await expect.poll(() => options.page.getByTestId('backup-reminder').count()).toBe(0);
  });

  it('gives a claim saved without a link its text-fragment link', async () => {
    const template = lines(panelJsonl.text).find((r) => r.schema === 'rl-survey.claim/1')!;
    const claim = { ...template, id: 'saved_without_link', link: null };
    const reply = await options.page.evaluate(
      (c) => (globalThis as any).chrome.runtime.sendMessage({ channel: 'recipe-lens', type: 'claims.save', payload: { claims: [c] } }),
      claim,
    );
    expect(reply.ok).toBe(true);
    const stored = (await storedClaims(browser.worker)).find((c) => c.id === 'saved_without_link')!;
    expect(stored.link).toBe(template.link);
  });
});
