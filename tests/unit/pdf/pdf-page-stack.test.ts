/**
 * The viewer's page stack decides which pages get a text layer (where claims are painted). Which pages are on
 * screen comes from an intersection observer, which reports at a frame; these tests give the stack an observer
 * that reports only when told, and boxes with real places, to check that the pages on screen get their text
 * whatever the observer last said.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PageStack, type PageStackHooks } from '../../../components/pdf/pages';
import type { PDFPageProxy } from '../../../components/pdf/pdfjs';

/** An intersection observer that reports only what the test tells it to. */
class StillObserver {
  static last: StillObserver | null = null;
  readonly targets: Element[] = [];
  constructor(readonly callback: (entries: IntersectionObserverEntry[]) => void) {
    StillObserver.last = this;
  }
  observe(target: Element): void {
    this.targets.push(target);
  }
  disconnect(): void {}
  /** Reports every page as `intersecting`. */
  report(intersecting: (page: number) => boolean): void {
    this.callback(
      this.targets.map((target) => ({ target, isIntersecting: intersecting(Number((target as HTMLElement).dataset.page)) }) as IntersectionObserverEntry),
    );
  }
}

const PAGE_HEIGHT = 1000;
const VIEW_HEIGHT = 800;

function fakePage(n: number): PDFPageProxy {
  return {
    pageNumber: n,
    getViewport: ({ scale }: { scale: number }) => ({ width: 612 * scale, height: 792 * scale, transform: [scale, 0, 0, -scale, 0, 792 * scale] }),
    render: () => ({ promise: Promise.resolve(), cancel() {} }),
  } as unknown as PDFPageProxy;
}

/** A stack of `count` pages, each PAGE_HEIGHT tall, in a scroller VIEW_HEIGHT tall at `scrollTop`. */
function stackOf(count: number, scrollTop = 0) {
  const scroller = document.createElement('div');
  const host = document.createElement('div');
  scroller.append(host);
  document.body.append(scroller);
  Object.defineProperty(scroller, 'clientHeight', { value: VIEW_HEIGHT });
  scroller.scrollTop = scrollTop;
  const layers: number[] = [];
  const asked: number[] = [];
  const hooks: PageStackHooks = {
    getPage: async (n) => fakePage(n),
    getText: async (n) => {
      asked.push(n);
      return {
        runs: [{ str: `Text of page ${n}`, hasEOL: false, transform: [10, 0, 0, 10, 72, 700], width: 80, height: 10, fontName: 'f1' }],
        styles: { f1: { fontFamily: 'sans-serif', ascent: 0.8, descent: -0.2, vertical: false } },
      };
    },
    onTextLayer: (n) => layers.push(n),
    onPageChange: () => {},
  };
  const stack = new PageStack(scroller, host, count, { width: 816, height: 1056 }, hooks);
  // happy-dom lays nothing out: each page box gets its place by hand.
  for (const el of host.querySelectorAll<HTMLElement>('.pdf-page')) {
    Object.defineProperty(el, 'offsetTop', { value: (Number(el.dataset.page) - 1) * PAGE_HEIGHT });
    Object.defineProperty(el, 'offsetHeight', { value: PAGE_HEIGHT });
  }
  return { stack, scroller, layers, asked };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('the page stack builds the text of the pages on screen', () => {
  const original = globalThis.IntersectionObserver;
  beforeEach(() => {
    globalThis.IntersectionObserver = StillObserver as unknown as typeof IntersectionObserver;
  });
  afterEach(() => {
    globalThis.IntersectionObserver = original;
    document.body.replaceChildren();
  });

  it('builds the pages within a screen of the view, and no farther, when text layers are allowed', async () => {
    const { stack, layers } = stackOf(6);
    stack.start();
    stack.allowTextLayers();
    await settle();
    // The view shows 0–800; a screen below it ends at 1600: pages 1 and 2 (page 3 starts at 2000).
    expect([...layers].sort()).toEqual([1, 2]);
    expect(stack.hasTextLayer(3)).toBe(false);
    stack.destroy();
  });

  it('builds them although the observer last reported them away (a report it owes comes with a frame that may not come)', async () => {
    const { stack, layers } = stackOf(6);
    stack.start();
    // A report made before the boxes were in place: nothing intersecting. No later report comes.
    StillObserver.last!.report(() => false);
    stack.allowTextLayers();
    await settle();
    expect(layers).toContain(1);
    expect(stack.hasTextLayer(1)).toBe(true);
    expect(stack.textNode(1, 0)?.data).toBe('Text of page 1');
    stack.destroy();
  });

  it('builds them although the idle moments it waits for never come (a timer backs them up)', async () => {
    const g = globalThis as { requestIdleCallback?: unknown; cancelIdleCallback?: unknown };
    const saved = { request: g.requestIdleCallback, cancel: g.cancelIdleCallback };
    const asked: number[] = [];
    let cancelled = 0;
    g.requestIdleCallback = () => asked.push(1);
    g.cancelIdleCallback = () => cancelled++;
    try {
      const { stack, layers } = stackOf(4);
      stack.start();
      stack.allowTextLayers();
      for (let i = 0; i < 100 && layers.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(asked.length).toBeGreaterThan(0);
      expect([...layers].sort()).toEqual([1, 2]);
      // The next build is already waiting (each build queues the next): closing the viewer calls it off, its
      // idle callback and its timer both.
      const before = cancelled;
      stack.destroy();
      expect(cancelled).toBe(before + 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect([...layers].sort()).toEqual([1, 2]);
    } finally {
      g.requestIdleCallback = saved.request;
      g.cancelIdleCallback = saved.cancel;
    }
  });

  it('builds the pages the view was scrolled to, nearest first, and a page asked for explicitly at once', async () => {
    const { stack, layers, scroller } = stackOf(10);
    stack.start();
    stack.allowTextLayers();
    await settle();
    layers.length = 0;
    // The top of the view at page 7: pages 6 (a screen above) to 8 (a screen below).
    scroller.scrollTop = 6 * PAGE_HEIGHT;
    scroller.dispatchEvent(new Event('scroll'));
    StillObserver.last!.report((n) => n >= 6 && n <= 8);
    await settle();
    expect(stack.currentPage).toBe(7);
    expect(layers[0]).toBe(7);
    expect([...layers].sort()).toEqual([6, 7, 8]);
    await stack.whenTextLayer(10);
    expect(stack.hasTextLayer(10)).toBe(true);
    expect(stack.hasTextLayer(5)).toBe(false);
    stack.destroy();
  });
});
