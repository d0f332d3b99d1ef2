/**
 * The PDF viewer on real technical reports as their labs publish them (`../shared/fixtures/pdfs`): LaTeX layouts
 * with running headers, page numbers, figures, author lists and references, where a text layer has many line ends.
 * Passages are tagged by mouse drag, as a curator does, and their stored quotes compared with the ground truth written
 * by hand (tests/unit/fixtures/pdf-reports.json): the body text, without page numbers or line-end hyphen artefacts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL } from '../../lib/messages/channel';
import type { EngineStatus } from '../../lib/pdf/engine-keeper';
import { askEngine, engineQuery } from './engine';
import { EXTENSION_DIR, HAVE_SHARED, SHARED_FIXTURES, launchExtension, paintedTexts, storedClaims, type ExtensionBrowser } from './harness';
import { PdfViewer } from './pages/pdf-viewer';
import { pdfPageTexts } from './pdf-fixtures';

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

/** The shared workers running the engine, by target id (the browser's own list, over the DevTools protocol). */
async function engineTargets(page: Page): Promise<string[]> {
  const session = await browser.context.newCDPSession(page);
  try {
    const { targetInfos } = await session.send('Target.getTargets');
    return targetInfos.filter((t) => t.type === 'shared_worker' && t.url.includes('/assets/engine.worker')).map((t) => t.targetId);
  } finally {
    await session.detach();
  }
}

/** Asks the engine, from an extension page, how many documents are open in it. */
async function engineStatus(page: Page): Promise<EngineStatus> {
  return page.evaluate(askEngine, engineQuery(EXTENSION_DIR));
}

/** The engine's keeper documents open (offscreen documents), as the service worker sees them. */
async function keepers(): Promise<number> {
  return browser.worker.evaluate(async () => {
    const api = (globalThis as unknown as { chrome: { runtime: { getContexts(filter: object): Promise<unknown[]> } } }).chrome;
    return (await api.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] })).length;
  });
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

/** Drags the mouse from a point `dx` pixels to the right along its line, as a curator selects; returns the selected text. */
async function dragRight(page: Page, at: { x: number; y: number }, dx: number, steps: number): Promise<string> {
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  await page.mouse.move(at.x + dx, at.y, { steps });
  await page.mouse.up();
  return page.evaluate(() => getSelection()?.toString() ?? '');
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
    await dragRight(v.page, await spanAt(v.page, 9, 5), 60, 4);
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
    const selected = await dragRight(v.page, line, 120, 6);
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

/**
 * Holds back the canvases that replace a page's first, quick canvas (the sharp redraw), keeping the quick pixels on
 * show, until `window.releaseSharpCanvases()`: the test decides when the page sharpens.
 */
function holdSharpCanvases(): void {
  const replace = Element.prototype.replaceWith;
  const held: Array<() => void> = [];
  let holding = true;
  Element.prototype.replaceWith = function (this: Element, ...nodes: Array<Node | string>) {
    if (!holding || !(this instanceof HTMLCanvasElement) || !this.classList.contains('pdf-canvas')) return replace.apply(this, nodes);
    // The viewer lets the old canvas go right after: show a copy of its pixels meanwhile.
    const copy = document.createElement('canvas');
    copy.className = this.className;
    copy.width = this.width;
    copy.height = this.height;
    copy.getContext('2d')!.drawImage(this, 0, 0);
    replace.call(this, copy);
    held.push(() => replace.apply(copy, nodes));
  };
  (window as unknown as { releaseSharpCanvases: () => number }).releaseSharpCanvases = () => {
    holding = false;
    const swaps = held.splice(0);
    for (const swap of swaps) swap();
    return swaps.length;
  };
}

/** Page 1's canvas on show: its width in pixels, its page box's width in device pixels, and whether it is a quick one. */
async function firstCanvas(page: Page): Promise<{ pixels: number; box: number; quick: boolean }> {
  return page.evaluate(() => {
    const box = document.querySelector<HTMLElement>('.pdf-page[data-page="1"]')!;
    const canvases = box.querySelectorAll<HTMLCanvasElement>('canvas.pdf-canvas');
    const pixels = canvases.length === 1 ? canvases[0]!.width : -1;
    const width = box.getBoundingClientRect().width * devicePixelRatio;
    return { pixels, box: width, quick: pixels > 0 && pixels <= Math.ceil(width / 2) };
  });
}

describe.runIf(HAVE_SHARED)('a real report: the first page is shown quickly, then sharpened', () => {
  it('keeps the text layer on its glyphs while the quick first canvas is replaced, and a selection made meanwhile tags the line seen', async () => {
    const v = await viewer();
    await v.page.addInitScript(holdSharpCanvases);
    await v.open(QWEN3_URL);
    await v.waitForTextLayer(1);
    // The first canvas is the quick one: half the density, stretched over the whole page box.
    expect((await firstCanvas(v.page)).quick).toBe(true);
    const before = await layerGeometry(v.page, 1);
    expect(before.offsets.length).toBeGreaterThan(20);

    // A curator drags over a line of the abstract while the page is still the quick draw.
    const line = await spanAt(v.page, 1, 8);
    const selected = (await dragRight(v.page, line, 120, 6)).replace(/\s+/g, ' ').trim();
    expect(selected.length).toBeGreaterThan(3);
    expect(line.text.replace(/\s+/g, ' ')).toContain(selected.slice(0, 12));
    expect((await firstCanvas(v.page)).quick).toBe(true);

    // The page sharpens: the sharp canvas takes the quick one's place; the text layer and the selection stay.
    await v.page.evaluate(() => (window as unknown as { releaseSharpCanvases: () => number }).releaseSharpCanvases());
    await v.waitFor('pdfFirstPageSharpMs');
    const sharp = await firstCanvas(v.page);
    expect(sharp.quick).toBe(false);
    expect(sharp.pixels).toBeGreaterThanOrEqual(Math.floor(sharp.box) - 1);
    const after = await layerGeometry(v.page, 1);
    expect(after.scrollTop).toBe(0);
    expect(after.offsets).toEqual(before.offsets);
    expect((await v.page.evaluate(() => getSelection()?.toString() ?? '')).replace(/\s+/g, ' ').trim()).toBe(selected);

    await v.capture.tagButton.click();
    await v.capture.form.waitFor();
    expect((await v.capture.form.textContent())?.replace(/\s+/g, ' ')).toContain(selected.slice(0, 12));
    await v.page.keyboard.press('Escape');
    await v.page.close();
  });
});

interface Passage {
  page: number;
  kind: string;
  value: string;
  text: string;
  hyphen?: string;
  crossesPage?: boolean;
}

const TRUTH = JSON.parse(readFileSync(path.join(__dirname, '..', 'unit', 'fixtures', 'pdf-reports.json'), 'utf8')) as {
  reports: Array<{ file: string; passages: Passage[] }>;
};

/** The ground-truth passage of a report that starts with `opening`. */
function passage(file: string, opening: string): Passage {
  const found = TRUTH.reports.find((r) => r.file === file)!.passages.find((p) => p.text.startsWith(opening));
  if (!found) throw new Error(`no passage starts with ${opening}`);
  return found;
}

/** What is dragged over for a passage: its first and last words as the text layer shows them, and its pages. */
interface Drag {
  passage: Passage;
  from: string;
  to: string;
}

const bare = (s: string) => s.replace(/\s+/g, '');

/**
 * Tags each passage by mouse drag (first word to last word), saving it under `model`; then checks the stored quotes
 * are the body text of the ground truth, and that a reload paints them all again.
 */
async function tagAndReload(url: string, model: string, drags: Drag[]): Promise<void> {
  const v = await viewer();
  await v.open(url);
  await v.waitForAnchored();
  for (const { passage: p, from, to } of drags) {
    const selected = await v.dragSelect(from, to, p.crossesPage ? [p.page, p.page + 1] : [p.page]);
    expect(selected.length, p.text).toBeGreaterThan(p.text.length * 0.8);
    await v.capture.tagButton.click();
    await v.capture.form.waitFor();
    await v.capture.fill({ model, value: p.value });
    await v.capture.save();
  }
  const stored = (await storedClaims(browser.worker)).filter((c) => c.model === model);
  expect(stored.map((c) => c.quote.exact).sort()).toEqual(drags.map((d) => d.passage.text).sort());
  for (const c of stored) {
    const p = drags.find((d) => d.passage.text === c.quote.exact)!.passage;
    expect(c.pdf.page).toBe(p.page);
    expect(c.link).toMatch(new RegExp(`#page=${p.page}$`));
  }

  await v.page.reload();
  await v.waitFor('pdfFirstPageMs');
  await v.waitForAnchored();
  expect(await v.counts()).toMatchObject({ claims: drags.length, orphans: 0 });
  for (const { passage: p, from } of drags) {
    await v.goToPage(p.page);
    // Painted on its own glyphs: the painted text begins with the words dragged from (the layer's own spelling).
    await expect
      .poll(async () => (await paintedTexts(v.page)).map(bare).some((t) => t.toLowerCase().startsWith(bare(from).toLowerCase())), { timeout: 15_000 })
      .toBe(true);
  }
  await v.page.close();
}

describe.runIf(HAVE_SHARED)('real reports: passages tagged by mouse drag are stored as the body text and painted again', () => {
  it('the Qwen3 report: a plain passage, a word joined over its line-end hyphen, a hyphen kept, and a sentence across a page break', {
    timeout: 240_000,
  }, async () => {
    const file = 'qwen3-technical-report.pdf';
    await tagAndReload(QWEN3_URL, 'Qwen3-e2e', [
      { passage: passage(file, 'In the first two stages'), from: 'In the first two stages', to: 'coding tasks.' },
      { passage: passage(file, 'The Strong-to-Weak Distillation pipeline'), from: 'The Strong-to-Weak Distillation pipeline', to: 'model (Qwen3-30B-A3B).' },
      { passage: passage(file, 'we then apply general-domain'), from: 'we then apply', to: 'downstream tasks' },
      { passage: passage(file, 'both starting from the same'), from: 'both starting from the same', to: 'this comparison.' },
    ]);
  });

  it('the AReaL paper: a sentence across a page break, words joined and kept over line-end hyphens, and small capitals', { timeout: 240_000 }, async () => {
    const file = 'areal-paper.pdf';
    await tagAndReload(AREAL_URL, 'AReaL-e2e', [
      { passage: passage(file, 'Our interruptible generation technique'), from: 'Our interruptible generation technique', to: 'stability of PPO.' },
      { passage: passage(file, 'In asynchronous RL training for LRMs'), from: 'In asyn', to: 'extended decoding time.' },
      { passage: passage(file, 'We apply a decoupled PPO objective'), from: 'We apply a decoupled PPO objective', to: 'the proximal policy.' },
      { passage: passage(file, 'For AReaL, we maintain'), from: 'For AREAL, we maintain', to: 'devices for inference.' },
    ]);
  });
});

describe.runIf(HAVE_SHARED)('real reports: claims stored before the body text left furniture and hyphens out', () => {
  it('paints a claim whose quote holds the page number between two pages, and one with a line-end hyphen, on their passages', {
    timeout: 120_000,
  }, async () => {
    // The earlier form of the text: every run, line ends and page breaks as spaces (what claims were described over).
    const texts = await pdfPageTexts(readFileSync(path.join(SHARED_FIXTURES, 'pdfs', 'areal-paper.pdf')));
    const across = `${texts[1]!.slice(texts[1]!.lastIndexOf('Instead of'))} ${texts[2]!.slice(0, 'setting a fixed length budget'.length)}`;
    expect(across).toBe('Instead of 2 setting a fixed length budget');
    const hyphen = texts[4]!.slice(texts[4]!.indexOf('In asyn-'), texts[4]!.indexOf('for LRMs') + 'for LRMs'.length);
    expect(hyphen).toBe('In asyn- chronous RL training for LRMs');
    const record = (id: string, exact: string) =>
      JSON.stringify({
        schema: 'rl-survey.claim/1',
        id,
        model: 'AReaL-earlier',
        recipe: null,
        kind: 'system',
        stage: null,
        value: 'asynchronous RL',
        evidence: 'A',
        evidence_reason: null,
        quote: { exact, prefix: '', suffix: '' },
        position: null,
        source: { url: AREAL_URL, title: 'AReaL', kind: 'technical_report', publisher: null, published: '2025-11-24', accessed: '2026-11-20' },
        link: null,
        note: '',
        curator: 'e2e',
        created_at: '2026-11-20T10:00:00Z',
        updated_at: '2026-11-20T10:00:00Z',
      });
    const v = await viewer();
    await v.open(AREAL_URL);
    await v.waitForAnchored();
    // Other tests of this file may have tagged this report already: this one counts the claims it adds.
    const before = await v.counts();
    expect(await v.importRecords(`${record('areal_earlier_1', across)}\n${record('areal_earlier_2', hyphen)}\n`)).toMatchObject({ stored: true, added: 2 });
    await v.page.reload();
    await v.waitFor('pdfFirstPageMs');
    await v.waitForAnchored();
    expect(await v.counts()).toMatchObject({ claims: before.claims + 2, orphans: 0 });
    await v.goToPage(2);
    await v.waitForTextLayer(3);
    // Painted in two pieces, the page number between them left unpainted.
    await expect.poll(async () => (await paintedTexts(v.page)).map(bare)).toEqual(expect.arrayContaining(['Insteadof', 'settingafixedlengthbudget']));
    await v.goToPage(5);
    await expect.poll(async () => (await paintedTexts(v.page)).map(bare)).toContain('Inasyn-chronousRLtrainingforLRMs');
    await v.page.close();
  });
});

describe.runIf(HAVE_SHARED)("pdf.js's engine, shared by the viewers and kept between reports", () => {
  it("runs one engine for every viewer, closes a viewer's document when its tab closes (or, failing that, once its page is gone), keeps the engine warm for the next report, and lets it go when asked", async () => {
    const first = await viewer();
    await first.open(AREAL_URL);
    await first.waitFor('pdfFirstPageSharpMs');
    // Once the first report is sharp, the viewer opens the engine's keeper.
    await expect.poll(keepers, { timeout: 10_000 }).toBe(1);
    const second = await viewer();
    await second.open(QWEN3_URL);
    // Two viewers, one engine: both documents are open in it.
    const engines = await engineTargets(second.page);
    expect(engines).toHaveLength(1);
    const options = await browser.context.newPage();
    await options.goto(`chrome-extension://${browser.extensionId}/options.html`);
    expect((await engineStatus(options)).documents).toBe(2);

    // Closing a viewer closes its document in the engine; the engine stays (the keeper holds it).
    await first.page.close();
    await expect.poll(async () => (await engineStatus(options)).documents, { timeout: 10_000 }).toBe(1);
    await second.page.close();
    await expect.poll(async () => (await engineStatus(options)).documents, { timeout: 10_000 }).toBe(0);
    expect(await engineTargets(options)).toEqual(engines);

    // The next report is opened in the same engine, and drawn and tagged as before.
    const third = await viewer();
    await third.open(AREAL_URL);
    expect(await engineTargets(third.page)).toEqual(engines);
    expect((await engineStatus(options)).documents).toBe(1);
    expect(await third.counts()).toMatchObject({ orphans: 0 });
    await third.page.close();
    await expect.poll(async () => (await engineStatus(options)).documents, { timeout: 10_000 }).toBe(0);

    // A viewer gone without closing its document (a tab closed while the document was still opening, a page that
    // crashed): here the page's last word, pdf.js's "Terminate", never reaches the engine. The engine, which waits on
    // the lock the page held while it lived, closes the document all the same.
    const fourth = await viewer();
    await fourth.open(QWEN3_URL);
    await fourth.page.evaluate(() => {
      const post = MessagePort.prototype.postMessage as (this: MessagePort, message: unknown, transfer?: Transferable[]) => void;
      MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown, transfer?: Transferable[]) {
        if ((message as { action?: unknown } | null)?.action === 'Terminate') return;
        post.call(this, message, transfer);
      } as typeof MessagePort.prototype.postMessage;
    });
    expect((await engineStatus(options)).documents).toBe(1);
    await fourth.page.close();
    await expect.poll(async () => (await engineStatus(options)).documents, { timeout: 10_000 }).toBe(0);

    // Let go (what the keeper asks once no viewer has been open for ten minutes): the keeper closes, and the engine
    // ends with the last page connected to it.
    const answer = await options.evaluate(
      ([channel]) => (globalThis as any).chrome.runtime.sendMessage({ channel, type: 'pdf.engine', payload: { keep: false } }),
      [CHANNEL] as const,
    );
    expect(answer).toMatchObject({ ok: true, data: { kept: false } });
    await expect.poll(keepers, { timeout: 10_000 }).toBe(0);
    await options.close();
    const blank = await browser.context.newPage();
    await expect.poll(() => engineTargets(blank), { timeout: 10_000 }).toEqual([]);
    await blank.close();
  });
});
