/** Page object for the in-page capture UI (toolbar, claim form, claim card) inside our shadow root. */
import type { Locator, Page } from 'playwright-core';
import { selectTextInPage } from '../driver';
import { uiFrames, uiLocator } from '../ui-frames';

/** Drives the capture UI on one page. */
export class CaptureUi {
  constructor(readonly page: Page) {}

  /** The capture UI's root: its frames on a web page, its shadow root in the PDF viewer. */
  private get host(): { locator(selector: string): Locator } {
    return { locator: (selector) => uiLocator(this.page, selector) };
  }

  /** Selects the first occurrence of `text` on the page (by script, as a drag would) and releases the pointer. */
  async select(text: string): Promise<void> {
    // The keyboard back on the page, as the curator's click on it would bring it (a frame of our UI may hold it).
    for (const frame of uiFrames(this.page)) await (await frame.frameElement()).evaluate((el) => (el as HTMLElement).blur()).catch(() => undefined);
    if (!(await this.page.evaluate(selectTextInPage, text))) throw new Error(`text not on the page: ${text}`);
    // Ended by the curator's own key: a script's events are not the curator's.
    await this.page.keyboard.press('Shift');
  }

  /** The toolbar's tag button. */
  get tagButton(): Locator {
    return this.host.locator('[data-testid=toolbar-tag]');
  }

  /** The claim form. */
  get form(): Locator {
    return this.host.locator('[data-testid=claim-form]');
  }

  /** A form field by name. */
  field(name: string): Locator {
    return this.form.locator(`[name=${name}]`);
  }

  /** Fills the form's text fields given. */
  async fill(values: Partial<Record<'model' | 'recipe' | 'value' | 'note' | 'evidenceReason', string>>): Promise<void> {
    for (const [name, value] of Object.entries(values)) await this.field(name).fill(value!);
  }

  /** Clicks save and waits for the form to close. */
  async save(): Promise<void> {
    await this.form.locator('[data-testid=form-save]').click();
    await this.form.waitFor({ state: 'detached', timeout: 10000 });
  }

  /** The claim card shown over a painted passage. */
  get card(): Locator {
    return this.host.locator('[data-testid=claim-card]');
  }

  /** Notices at the bottom of the page. */
  get toasts(): Locator {
    return this.host.locator('[data-testid=toast]');
  }

  /** Clicks the start of the first painted passage containing `text` (scrolled into view first). */
  async clickPainted(text: string): Promise<void> {
    const point = await this.page.evaluate((needle) => {
      let target: Range | null = null;
      CSS.highlights.forEach((h, name) => {
        if (!/^recipe-lens-(stage|algorithm|framework|reward|system|intention|undisclosed)$/.test(name) || target) return;
        for (const r of h) {
          if ((r as Range).toString().replace(/\s+/g, ' ').includes(needle)) {
            target = r as Range;
            break;
          }
        }
      });
      if (!target) return null;
      const range = target as Range;
      (range.startContainer.parentElement ?? document.body).scrollIntoView({ block: 'center' });
      const box = range.getClientRects()[0];
      return box ? { x: box.left + Math.min(12, box.width / 2), y: box.top + box.height / 2 } : null;
    }, text);
    if (!point) throw new Error(`no painted passage contains: ${text}`);
    await this.page.mouse.click(point.x, point.y);
  }
}
