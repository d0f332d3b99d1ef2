/**
 * The PDF viewer on real technical reports as their labs publish them (`../shared/fixtures/pdfs`): LaTeX layouts
 * with running headers, page numbers, figures, author lists and references, where a text layer has many line ends.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_SHARED, SHARED_FIXTURES, launchExtension, type ExtensionBrowser } from './harness';
import { PdfViewer } from './pages/pdf-viewer';

const QWEN3_URL = 'http://fixtures.test/reports/qwen3-technical-report.pdf';
const AREAL_URL = 'http://fixtures.test/reports/areal-paper.pdf';

let browser: ExtensionBrowser;
beforeAll(async () => {
  browser = await launchExtension();
  browser.overrideBinary(QWEN3_URL, readFileSync(path.join(SHARED_FIXTURES, 'pdfs', 'qwen3-technical-report.pdf')));
  browser.overrideBinary(AREAL_URL, readFileSync(path.join(SHARED_FIXTURES, 'pdfs', 'areal-paper.pdf')));
});
afterAll(async () => {
  await browser?.close();
});

async function viewer(): Promise<PdfViewer> {
  return new PdfViewer(await browser.context.newPage(), browser.extensionId);
}

/** Where a page's text layer sits: how far it is scrolled, and each span's offset from its page box (first 400 spans). */
async function layerGeometry(page: Page, n: number): Promise<{ scrollTop: number; scrollLeft: number; offsets: number[] }> {
  return page.evaluate((pageNumber) => {
    const box = document.querySelector<HTMLElement>(`.pdf-page[data-page="${pageNumber}"]`)!;
    const layer = box.querySelector<HTMLElement>('.pdf-text')!;
    const top = box.getBoundingClientRect().top;
    const offsets = [...layer.querySelectorAll('span')].slice(0, 400).map((s) => Math.round(s.getBoundingClientRect().top - top));
    return { scrollTop: layer.scrollTop + box.scrollTop, scrollLeft: layer.scrollLeft + box.scrollLeft, offsets };
  }, n);
}

/** A point near the start of the `index`-th span (with some text) of a page's text layer now in view, with the span's text. */
async function spanAt(page: Page, n: number, index: number): Promise<{ x: number; y: number; text: string }> {
  return page.evaluate(
    ([pageNumber, i]) => {
      const spans = [...document.querySelectorAll<HTMLElement>(`.pdf-page[data-page="${pageNumber}"] .pdf-text span`)].filter((s) => {
        const r = s.getBoundingClientRect();
        return (s.textContent ?? '').trim().length > 5 && r.top > 60 && r.bottom < innerHeight - 20;
      });
      const span = spans[i]!;
      const r = span.getBoundingClientRect();
      return { x: r.left + Math.min(8, r.width / 4), y: r.top + r.height / 2, text: span.textContent ?? '' };
    },
    [n, index] as const,
  );
}

describe.runIf(HAVE_SHARED)('a real report: the text layer stays on its glyphs', () => {
  it('keeps every page text layer in place while a selection is extended with the keyboard across many line ends, so a later drag tags the line under the pointer', async () => {
    const v = await viewer();
    await v.open(AREAL_URL);
    // Page 9 of the AReaL paper: a figure, a table and 95 line ends.
    await v.goToPage(9);
    const before = await layerGeometry(v.page, 9);
    expect(before.offsets.length).toBeGreaterThan(50);

    // Click into a line near the top, then extend the selection downwards with Shift+↓, as a curator does.
    const start = await spanAt(v.page, 9, 5);
    await v.page.mouse.move(start.x, start.y);
    await v.page.mouse.down();
    await v.page.mouse.move(start.x + 60, start.y, { steps: 4 });
    await v.page.mouse.up();
    let moved = 0;
    for (let i = 0; i < 80; i++) {
      await v.page.keyboard.press('Shift+ArrowDown');
      moved = Math.max(moved, (await layerGeometry(v.page, 9)).scrollTop);
    }
    expect(moved).toBe(0);
    expect((await v.page.evaluate(() => getSelection()?.toString() ?? '')).length).toBeGreaterThan(200);
    const after = await layerGeometry(v.page, 9);
    expect(after.scrollTop).toBe(0);
    expect(after.scrollLeft).toBe(0);
    expect(after.offsets).toEqual(before.offsets);

    // A drag over a visible line now selects that line's own text, and the form quotes it.
    await v.page.keyboard.press('Escape');
    // Click in the page's margin to drop the selection, as a curator does before a new drag.
    const margin = await v.page.evaluate((n) => document.querySelector(`.pdf-page[data-page="${n}"]`)!.getBoundingClientRect(), 9);
    await v.page.mouse.click(margin.left + 6, margin.top + 6);
    expect(await v.page.evaluate(() => getSelection()?.isCollapsed ?? true)).toBe(true);
    const line = await spanAt(v.page, 9, 6);
    await v.page.mouse.move(line.x, line.y);
    await v.page.mouse.down();
    await v.page.mouse.move(line.x + 120, line.y, { steps: 6 });
    await v.page.mouse.up();
    const selected = await v.page.evaluate(() => getSelection()?.toString() ?? '');
    expect(selected.length).toBeGreaterThan(3);
    expect(line.text.replace(/\s+/g, ' ')).toContain(selected.replace(/\s+/g, ' ').trim().slice(0, 12));
    await v.capture.tagButton.click();
    await v.capture.form.waitFor();
    expect((await v.capture.form.textContent())?.replace(/\s+/g, ' ')).toContain(selected.replace(/\s+/g, ' ').trim().slice(0, 12));
    await v.page.keyboard.press('Escape');
    await v.page.close();
  });

  it('does not move a text layer when a passage on it is scrolled into view', async () => {
    const v = await viewer();
    await v.open(QWEN3_URL);
    // Page 18 of the Qwen3 report: a table and 88 line ends.
    await v.goToPage(18);
    const before = await layerGeometry(v.page, 18);
    await v.page.evaluate(() => {
      const spans = document.querySelectorAll<HTMLElement>('.pdf-page[data-page="18"] .pdf-text span');
      for (const span of [...spans].slice(-5)) span.scrollIntoView({ block: 'center' });
      const brs = document.querySelectorAll<HTMLElement>('.pdf-page[data-page="18"] .pdf-text br');
      brs[brs.length - 1]?.scrollIntoView({ block: 'end' });
    });
    const after = await layerGeometry(v.page, 18);
    expect(after.scrollTop).toBe(0);
    expect(after.offsets).toEqual(before.offsets);
    await v.page.close();
  });
});
