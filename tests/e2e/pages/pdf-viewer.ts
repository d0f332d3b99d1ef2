/** Page object for Recipe Lens's PDF viewer (`pdf-viewer.html`): opening, pages, selection, find, and the capture UI over it. */
import type { Locator, Page } from 'playwright-core';
import { CaptureUi } from './capture-ui';

/** Drives the PDF viewer in one tab. */
export class PdfViewer {
  /** The capture UI (toolbar, form, card, notices): the same component and page object as on HTML pages. */
  readonly capture: CaptureUi;

  /** The tab's last console warnings and errors, for a failure's message. */
  private readonly console: string[] = [];

  constructor(
    readonly page: Page,
    readonly extensionId: string,
  ) {
    this.capture = new CaptureUi(page);
    page.on('console', (message) => {
      if (message.type() !== 'warning' && message.type() !== 'error') return;
      this.console.push(`${message.type()}: ${message.text()}`.slice(0, 300));
      if (this.console.length > 20) this.console.shift();
    });
  }

  /** The viewer's address for a PDF (with an optional `#page=` / `#claim=`). */
  url(file: string, hash = ''): string {
    return `chrome-extension://${this.extensionId}/pdf-viewer.html?file=${encodeURIComponent(file)}${hash ? `#${hash}` : ''}`;
  }

  /** Opens a PDF and waits for its first page to be drawn. */
  async open(file: string, hash = ''): Promise<this> {
    await this.page.goto(this.url(file, hash));
    await this.waitFor('pdfFirstPageMs');
    return this;
  }

  /** Waits for one of the viewer's marks on `<html>` (pdfFirstPageMs, pdfTextMs, pdfAnchoredAt, pdfErrorMs…). */
  async waitFor(mark: string, timeout = 30000): Promise<number> {
    // Polled by time, not by frame: a tab in the background makes no frames.
    await this.page
      .waitForFunction((m) => document.documentElement.dataset[m] !== undefined, mark, { timeout, polling: 100 })
      .catch(async (error) => {
        // What the viewer had reached, so that a failure says where it stopped.
        throw new Error(`the viewer never marked ${mark}: ${JSON.stringify(await this.state())}`, { cause: error });
      });
    return Number(await this.page.evaluate((m) => document.documentElement.dataset[m], mark));
  }

  /** Waits until the whole text is read and the document's claims are anchored. */
  async waitForAnchored(timeout = 30000): Promise<void> {
    await this.waitFor('pdfTextMs', timeout);
    await this.waitFor('pdfAnchoredAt', timeout);
  }

  /**
   * Where the viewer stands, for a failure's message: visibility, its marks, the pages with a text layer and a
   * canvas, the scroll, whether the tab still makes frames and idle moments, and its last console warnings.
   */
  async state(): Promise<unknown> {
    const inPage = await this.page
      .evaluate(async () => {
        const within = (start: (done: () => void) => void) =>
          Promise.race([
            new Promise<boolean>((resolve) => start(() => resolve(true))),
            new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000)),
          ]);
        const scroller = document.querySelector<HTMLElement>('[data-testid=pdf-scroll]');
        const pages = [...document.querySelectorAll<HTMLElement>('.pdf-page')];
        return {
          url: location.href,
          visibility: document.visibilityState,
          focus: document.hasFocus(),
          marks: { ...document.documentElement.dataset },
          textLayers: pages.filter((p) => p.querySelector('.pdf-text span')).map((p) => p.dataset.page),
          canvases: pages.filter((p) => p.querySelector('canvas')).map((p) => `${p.dataset.page}${p.classList.contains('pdf-quick') ? ' quick' : ''}`),
          scroll: scroller ? { top: scroller.scrollTop, height: scroller.clientHeight, pages: pages.length, firstPageTop: pages[0]?.offsetTop } : null,
          frames: await within((done) => requestAnimationFrame(done)),
          idle: await within((done) => requestIdleCallback(done)),
        };
      })
      .catch((error: unknown) => String(error));
    return { inPage, console: this.console };
  }

  /** Claims painted somewhere / orphans, as the viewer reports them. */
  async counts(): Promise<{ claims: number; orphans: number; painted: number }> {
    return this.page.evaluate(() => ({
      claims: Number(document.documentElement.dataset.recipeLensClaims ?? 0),
      orphans: Number(document.documentElement.dataset.recipeLensOrphans ?? 0),
      painted: Number(document.documentElement.dataset.recipeLensPainted ?? 0),
    }));
  }

  /** The page number shown in the header. */
  async currentPage(): Promise<number> {
    return Number(await this.page.getByTestId('pdf-page-input').inputValue());
  }

  /** The page count shown in the header. */
  async pageCount(): Promise<number> {
    return Number((await this.page.getByTestId('pdf-page-count').textContent())?.replace(/\D/g, ''));
  }

  /** Goes to a page through the header's page field. */
  async goToPage(n: number): Promise<void> {
    const input = this.page.getByTestId('pdf-page-input');
    await input.click();
    await input.fill(String(n));
    await input.press('Enter');
    await this.waitForTextLayer(n);
  }

  /** Scrolls the pages so that page `n` is at the top (as a curator scrolling would), and waits for its text layer. */
  async scrollToPage(n: number): Promise<void> {
    await this.page.evaluate((page) => {
      const scroller = document.querySelector<HTMLElement>('[data-testid=pdf-scroll]')!;
      const el = document.querySelector<HTMLElement>(`.pdf-page[data-page="${page}"]`)!;
      scroller.scrollTop = el.offsetTop;
    }, n);
    await this.waitForTextLayer(n);
  }

  /** Waits for a page's text layer. */
  async waitForTextLayer(n: number, timeout = 15000): Promise<void> {
    await this.page.waitForFunction((page) => !!document.querySelector(`.pdf-page[data-page="${page}"] .pdf-text span`), n, { timeout });
  }

  /** Whether a page has its canvas drawn. */
  async isDrawn(n: number): Promise<boolean> {
    return this.page.evaluate((page) => !!document.querySelector(`.pdf-page[data-page="${page}"] canvas.pdf-canvas`), n);
  }

  /** Pages with a text layer now. */
  async pagesWithText(): Promise<number[]> {
    return this.page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.pdf-page')].filter((p) => p.querySelector('.pdf-text')).map((p) => Number(p.dataset.page)),
    );
  }

  /**
   * Selects the first occurrence of `text` in the pages' text layers (white space compared collapsed, line ends as
   * spaces), scrolling its start into view, and releases the pointer as a drag would.
   */
  async select(text: string, timeout = 15000): Promise<void> {
    // A page's text layer is built when the page comes near the view and rebuilt when it is redrawn, so the passage
    // may not be in a layer yet at the first look: look again until it is, or until the time is up.
    const until = Date.now() + timeout;
    while (!(await this.trySelect(text))) {
      if (Date.now() > until) throw new Error(`text not in any rendered page: ${text}`);
      await this.page.waitForTimeout(100);
    }
  }

  /** One attempt of {@link select}: selects `text` if a built text layer holds it, and says whether one did. */
  private async trySelect(text: string): Promise<boolean> {
    const found = await this.page.evaluate((needle) => {
      const spans: Text[] = [];
      let flat = '';
      const map: Array<{ node: Text; offset: number }> = [];
      const layers = document.querySelectorAll('.pdf-text');
      for (const layer of layers) {
        for (const child of layer.childNodes) {
          if (child instanceof HTMLElement && child.tagName === 'SPAN' && child.firstChild instanceof Text) {
            const node = child.firstChild;
            spans.push(node);
            for (let i = 0; i < node.data.length; i++) {
              const ch = /\s/.test(node.data[i]!) ? ' ' : node.data[i]!;
              if (ch === ' ' && flat.endsWith(' ')) continue;
              flat += ch;
              map.push({ node, offset: i });
            }
          } else if (child instanceof HTMLElement && child.tagName === 'BR' && !flat.endsWith(' ')) {
            flat += ' ';
            map.push({ node: spans[spans.length - 1]!, offset: spans[spans.length - 1]!.data.length });
          }
        }
        if (!flat.endsWith(' ')) {
          flat += ' ';
          map.push({ node: spans[spans.length - 1]!, offset: spans[spans.length - 1]!.data.length });
        }
      }
      const at = flat.indexOf(needle);
      if (at < 0) return false;
      const a = map[at]!;
      const b = map[at + needle.length - 1]!;
      a.node.parentElement!.scrollIntoView({ block: 'center' });
      const range = document.createRange();
      range.setStart(a.node, a.offset);
      range.setEnd(b.node, Math.min(b.node.data.length, b.offset + 1));
      const selection = getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      return true;
    }, text);
    // Ended by the curator's own key: a script's events are not the curator's.
    if (found) await this.page.keyboard.press('Shift');
    return found;
  }

  /**
   * Selects by mouse, as a curator drags: presses on the first character of `from` and releases on the last character
   * of the first `to` after it, in the text layers of pages `pages` (their layers built, the view scrolled so both ends
   * show). Text is compared case-insensitively with white space collapsed and line ends as spaces — the layers hold the
   * glyphs' own text (a line-end hyphen, a page number, capitals set as small capitals). Returns the selected text.
   */
  async dragSelect(from: string, to: string, pages: number[]): Promise<string> {
    await this.goToPage(pages[0]!);
    for (const n of pages) await this.waitForTextLayer(n);
    const locate = () =>
      this.page.evaluate(
        ([a, b, numbers]) => {
          const chars: Array<{ node: Text; offset: number }> = [];
          let flat = '';
          for (const n of numbers) {
            const layer = document.querySelector(`.pdf-page[data-page="${n}"] .pdf-text`);
            for (const child of layer?.childNodes ?? []) {
              if (child instanceof HTMLElement && child.tagName === 'SPAN' && child.firstChild instanceof Text) {
                const node = child.firstChild;
                for (let i = 0; i < node.data.length; i++) {
                  const ch = /\s/.test(node.data[i]!) ? ' ' : node.data[i]!.toLowerCase();
                  if (ch === ' ' && flat.endsWith(' ')) continue;
                  flat += ch;
                  chars.push({ node, offset: i });
                }
              } else if (child instanceof HTMLElement && child.tagName === 'BR' && !flat.endsWith(' ') && chars.length) {
                flat += ' ';
                chars.push(chars[chars.length - 1]!);
              }
            }
            if (!flat.endsWith(' ') && chars.length) {
              flat += ' ';
              chars.push(chars[chars.length - 1]!);
            }
          }
          const start = flat.indexOf(a.toLowerCase());
          const end = start < 0 ? -1 : flat.indexOf(b.toLowerCase(), start) + b.length - 1;
          if (start < 0 || end < start) return null;
          const box = (c: { node: Text; offset: number }) => {
            const range = document.createRange();
            range.setStart(c.node, c.offset);
            range.setEnd(c.node, c.offset + 1);
            return range.getBoundingClientRect();
          };
          const first = box(chars[start]!);
          const last = box(chars[end]!);
          return {
            from: { x: first.left + first.width * 0.25, y: first.top + first.height / 2 },
            to: { x: last.left + last.width * 0.75, y: last.top + last.height / 2 },
          };
        },
        [from, to, pages] as const,
      );
    let points = await locate();
    if (!points) throw new Error(`not in the text layers of pages ${pages.join(', ')}: ${from} … ${to}`);
    // Bring both ends into view: the middle of the passage at the middle of the scroller.
    await this.page.evaluate(
      ([top, bottom]) => {
        const scroller = document.querySelector<HTMLElement>('[data-testid=pdf-scroll]')!;
        const box = scroller.getBoundingClientRect();
        scroller.scrollTop += (top + bottom) / 2 - (box.top + box.height / 2);
      },
      [points.from.y, points.to.y] as const,
    );
    points = (await locate())!;
    await this.page.mouse.move(points.from.x, points.from.y);
    await this.page.mouse.down();
    await this.page.mouse.move((points.from.x + points.to.x) / 2, (points.from.y + points.to.y) / 2, { steps: 8 });
    await this.page.mouse.move(points.to.x, points.to.y, { steps: 8 });
    await this.page.mouse.up();
    return this.page.evaluate(() => getSelection()?.toString() ?? '');
  }

  /** Selects `text` and tags it through the toolbar, filling the form and saving. */
  async tag(text: string, values: Partial<Record<'model' | 'value' | 'note' | 'evidenceReason', string>>): Promise<void> {
    await this.select(text);
    await this.capture.tagButton.click();
    await this.capture.form.waitFor();
    await this.capture.fill(values);
    await this.capture.save();
  }

  /** Opens the find bar, searches, and returns the count text ("2 of 5"). */
  async find(query: string): Promise<string> {
    await this.page.keyboard.press('Control+f');
    const input = this.page.getByTestId('pdf-find-input');
    await input.fill(query);
    await input.press('Enter');
    const count = this.page.getByTestId('pdf-find-count');
    await this.page.waitForFunction(() => /of|no matches/.test(document.querySelector('[data-testid=pdf-find-count]')?.textContent ?? ''));
    return (await count.textContent()) ?? '';
  }

  /** The zoom shown in the header, in percent. */
  async zoom(): Promise<number> {
    return Number((await this.page.getByTestId('pdf-zoom').textContent())?.replace('%', ''));
  }

  /** The sidebar (outline and claims), opened. */
  async sidebar(): Promise<Locator> {
    const sidebar = this.page.getByTestId('pdf-sidebar');
    if (!(await sidebar.isVisible())) await this.page.getByTestId('pdf-sidebar-toggle').click();
    return sidebar;
  }

  /** Imports survey-record JSONL through the background, as the options page does (all or nothing); resolves with how many were added. */
  async importRecords(jsonl: string): Promise<{ stored: boolean; added: number }> {
    return this.page.evaluate(async (text) => {
      const api = (globalThis as any).chrome;
      const call = async (type: string, payload: unknown) => {
        const reply = await api.runtime.sendMessage({ channel: 'recipe-lens', type, payload });
        if (!reply) throw new Error(`no answer to ${type}`);
        return reply as { ok: boolean; data?: any; error?: string };
      };
      const base = { fileName: 'pdf.jsonl', format: 'jsonl', mode: 'merge' };
      const preview = await call('import.preview', { ...base, text });
      if (!preview.ok && /unknown call/.test(preview.error ?? '')) {
        // The protocol before previews: one call stores everything.
        const done = await call('records.import', { text, fileName: base.fileName });
        if (!done.ok) throw new Error(done.error);
        return { stored: !!done.data.stored, added: done.data.added as number };
      }
      if (!preview.ok || !preview.data.token) throw new Error(preview.error ?? JSON.stringify(preview.data?.errors ?? preview.data));
      const commit = await call('import.commit', { ...base, token: preview.data.token, resolutions: [], rest: 'theirs' });
      if (!commit.ok) throw new Error(commit.error);
      return { stored: commit.data.status === 'stored', added: commit.data.added as number };
    }, jsonl);
  }
}
