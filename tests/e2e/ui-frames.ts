/**
 * The capture UI as a person reaches it: on a web page each part is an extension frame in a closed shadow root
 * (components/capture/frame-host.ts), which no selector of the page can reach; in the PDF viewer (an extension page)
 * it is an open shadow root. `uiLocator` finds an element in whichever of those holds it, as a Playwright locator:
 * chained calls (`locator`, `getByTestId`, `first`, …) are replayed in that frame, and actions (click, fill, …) go
 * through the automation protocol's trusted input, as Playwright's do.
 */
import type { Frame, Locator, Page } from 'playwright-core';

/** The address of the UI's frame page, as every part's frame shows it (`capture-ui.html#part=…`). */
export const UI_FRAME_PAGE = '/capture-ui.html#part=';

/** The frames of the capture UI on a page, one per part shown so far. */
export function uiFrames(page: Page): Frame[] {
  return page.frames().filter((frame) => frame.url().includes(UI_FRAME_PAGE));
}

/** Calls that return another locator: recorded, then replayed on the frame that holds the element. */
const CHAINED = new Set(['locator', 'getByTestId', 'getByRole', 'getByText', 'getByLabel', 'getByPlaceholder', 'getByTitle', 'first', 'last', 'nth', 'filter']);

type Step = { method: string; args: unknown[] };

/** Calls that act on an element the way a person does: they wait until it is drawn. */
const ACTIONS = new Set(['click', 'dblclick', 'fill', 'press', 'pressSequentially', 'type', 'check', 'uncheck', 'selectOption', 'hover', 'tap', 'focus']);

/** A locator of `selector` inside the capture UI, wherever it is shown. */
export function uiLocator(page: Page, selector: string, steps: Step[] = []): Locator {
  const roots = (): Array<Page | Frame | Locator> => [...uiFrames(page), page.locator('recipe-lens-ui')];
  const build = (root: Page | Frame | Locator): Locator =>
    steps.reduce((loc: Locator, step) => (loc as unknown as Record<string, (...a: unknown[]) => Locator>)[step.method]!(...step.args), root.locator(selector));
  const count = async (): Promise<number> => {
    let n = 0;
    for (const root of roots())
      n += await build(root)
        .count()
        .catch(() => 0);
    return n;
  };
  /** The frame the last `resolve` found the element in (null: the PDF viewer's shadow root). */
  let foundIn: Frame | null = null;
  /** The locator in the first root that has a match, waiting up to `timeout` ms for one (null: none came). */
  const resolve = async (timeout: number): Promise<Locator | null> => {
    const deadline = Date.now() + timeout;
    for (;;) {
      for (const root of roots()) {
        const loc = build(root);
        if ((await loc.count().catch(() => 0)) > 0) {
          foundIn = 'goto' in root && root !== page ? (root as Frame) : null;
          return loc;
        }
      }
      if (Date.now() > deadline) return null;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  /** Waits until the frame the element was found in is drawn on the page (its box, read through the protocol). */
  const frameShown = async (deadline: number): Promise<void> => {
    if (!foundIn) return;
    const element = await foundIn.frameElement();
    while (!((await element.boundingBox())?.height ?? 0)) {
      if (Date.now() > deadline) throw new Error(`${describe}: its frame was never shown`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const describe = [selector, ...steps.map((s) => `${s.method}(${s.args.map((a) => JSON.stringify(a)).join(', ')})`)].join('.');
  return new Proxy({} as Locator, {
    get(_target, prop) {
      if (typeof prop !== 'string' || prop === 'then') return undefined;
      if (CHAINED.has(prop)) return (...args: unknown[]) => uiLocator(page, selector, [...steps, { method: prop, args }]);
      if (prop === 'count') return count;
      if (prop === 'toString') return () => `uiLocator(${describe})`;
      if (prop === 'allTextContents' || prop === 'allInnerTexts' || prop === 'all') {
        return async () => {
          const loc = (await resolve(0)) as unknown as Record<string, () => Promise<unknown>> | null;
          return loc ? loc[prop]!() : [];
        };
      }
      // Over every match, none included: nothing to wait for.
      if (prop === 'evaluateAll') {
        return async (fn: (elements: Element[], arg: unknown) => unknown, arg?: unknown) => {
          const loc = await resolve(0);
          return loc ? loc.evaluateAll(fn as never, arg) : fn([], arg);
        };
      }
      if (prop === 'isVisible') return async () => ((await resolve(0)) ? (await resolve(0))!.isVisible() : false);
      if (prop === 'waitFor') {
        return async (options: { state?: 'attached' | 'detached' | 'visible' | 'hidden'; timeout?: number } = {}) => {
          const state = options.state ?? 'visible';
          const timeout = options.timeout ?? 30_000;
          if (state === 'detached' || state === 'hidden') {
            const deadline = Date.now() + timeout;
            while ((await count()) > 0) {
              if (Date.now() > deadline) throw new Error(`${describe} stayed in the capture UI`);
              await new Promise((r) => setTimeout(r, 50));
            }
            return;
          }
          const loc = await resolve(timeout);
          if (!loc) throw new Error(`${describe} never appeared in the capture UI`);
          await loc.first().waitFor({ state, timeout });
          if (state !== 'visible') return;
          // Visible to a person: its frame too is drawn on the page (a frame is shown once it has told its size).
          await frameShown(Date.now() + timeout);
        };
      }
      return async (...args: unknown[]) => {
        // An action's own `timeout` (its last argument's) bounds the wait for the element too.
        const last = args[args.length - 1] as { timeout?: unknown } | undefined;
        const loc = await resolve(typeof last?.timeout === 'number' ? last.timeout : 30_000);
        if (!loc) throw new Error(`no ${describe} in the capture UI`);
        // A person acts on what is drawn: an element of a frame not shown yet is not under the pointer.
        if (ACTIONS.has(prop)) await frameShown(Date.now() + 30_000);
        return (loc as unknown as Record<string, (...a: unknown[]) => unknown>)[prop]!(...args);
      };
    },
  });
}
