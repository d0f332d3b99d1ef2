/**
 * End-to-end harness: real Chromium (Debian's, through playwright-core) with
 * the built extension loaded, pages served from fixtures by request routing
 * (no server, no network), and handles on the extension's service worker.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { CHROMIUM_FLAGS, chromiumPath, extensionFlags } from '../../scripts/browsers.mjs';
import { badgeInExtension, inUi, readClaimsInExtension, squash, type ExtensionDriver, type ScenarioPage } from './driver';
import { uiLocator } from './ui-frames';
import { PanelPage } from './pages/panel-page';

/** The repository root. */
export const ROOT = path.resolve(__dirname, '../..');
/** The unpacked Chrome build the tests load. */
export const EXTENSION_DIR = path.join(ROOT, process.env.RECIPE_LENS_OUT ?? '.output', 'chrome-mv3');
/** The shared real-page fixtures beside the repository, when present. */
export const SHARED_FIXTURES = path.resolve(ROOT, '..', 'shared', 'fixtures');
/** Whether the shared fixtures exist on this machine. */
export const HAVE_SHARED = existsSync(path.join(SHARED_FIXTURES, 'pages.json'));
/** Our own test pages, served at http://local.test/<file>. */
export const OWN_FIXTURES = path.join(__dirname, 'fixtures');

/** One entry of the shared `pages.json`. */
export interface FixturePage {
  file: string;
  url: string;
  source_kind: string;
  publisher: string;
  title: string;
  records: string | null;
}

/** The shared fixture pages (empty when the folder is absent). */
export function fixturePages(): FixturePage[] {
  if (!HAVE_SHARED) return [];
  return JSON.parse(readFileSync(path.join(SHARED_FIXTURES, 'pages.json'), 'utf8')) as FixturePage[];
}

/** The hosts whose pages the test process serves (nothing is fetched from the network); the neighbours on shared public suffixes serve only pages a test puts there. */
export const FIXTURE_HOSTS = ['fixtures.test', 'local.test', 'a.github.io', 'b.github.io', 'a.readthedocs.io', 'b.readthedocs.io'] as const;

/** A response the test process gives for a fixture address. */
export interface FixtureResponse {
  status: number;
  contentType: string;
  body: Buffer | string;
}

/**
 * Answers requests for http://fixtures.test/ (the shared real pages, by their original address) and
 * http://local.test/ (our own test pages), with edited variants and generated files put in by tests.
 */
export class FixtureResponder {
  private readonly overrides = new Map<string, string>();
  private readonly binaries = new Map<string, { body: Buffer; contentType: string }>();
  private readonly pages = fixturePages();

  /** Replaces a page's HTML (for edited variants); null restores the original. */
  override(url: string, html: string | null): void {
    if (html === null) this.overrides.delete(url);
    else this.overrides.set(url, html);
  }

  /** Serves bytes (a generated PDF, say) at an address; null stops serving them. */
  overrideBinary(url: string, body: Buffer | null, contentType = 'application/pdf'): void {
    if (body === null) this.binaries.delete(url);
    else this.binaries.set(url, { body, contentType });
  }

  /** The response for a request to one of the fixture hosts (a 404 for anything else). */
  respond(requestUrl: string): FixtureResponse {
    const url = requestUrl.split('#')[0]!;
    const bare = url.split('?')[0]!;
    const binary = this.binaries.get(url) ?? this.binaries.get(bare);
    if (binary) return { status: 200, contentType: binary.contentType, body: binary.body };
    const host = new URL(url).host;
    const html = host === 'local.test' ? this.overrides.get(bare) : (this.overrides.get(url) ?? this.overrides.get(bare));
    if (html !== undefined) return { status: 200, contentType: 'text/html; charset=utf-8', body: html };
    if (host === 'fixtures.test') {
      const page = this.pages.find((p) => p.url === bare || p.url === `${bare}/` || p.url.replace(/\/$/, '') === bare);
      if (!page) return { status: 404, contentType: 'text/plain', body: 'no such fixture' };
      return { status: 200, contentType: 'text/html; charset=utf-8', body: readFileSync(path.join(SHARED_FIXTURES, page.file)) };
    }
    if (host === 'local.test') {
      const file = path.join(OWN_FIXTURES, new URL(bare).pathname.replace(/^\/+/, '') || 'index.html');
      if (!file.startsWith(OWN_FIXTURES) || !existsSync(file)) return { status: 404, contentType: 'text/plain', body: 'no such page' };
      return { status: 200, contentType: 'text/html; charset=utf-8', body: readFileSync(file) };
    }
    return { status: 404, contentType: 'text/plain', body: 'not a fixture host' };
  }
}

/** A browser with the extension loaded. */
export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  worker: Worker;
  /** Replaces a served page's HTML (for edited variants); null restores the original. */
  override(url: string, html: string | null): void;
  /** Serves bytes (a generated PDF, say) at a fixtures.test or local.test URL; null stops serving them. */
  overrideBinary(url: string, body: Buffer | null, contentType?: string): void;
  close(): Promise<void>;
}

/** Starts Chromium with the built extension and fixture routing. */
export async function launchExtension(): Promise<ExtensionBrowser> {
  if (!existsSync(path.join(EXTENSION_DIR, 'manifest.json'))) {
    throw new Error(`The extension is not built (${path.relative(ROOT, EXTENSION_DIR)} is missing). Run \`npm run build\` first.`);
  }
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'recipe-lens-e2e-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [...extensionFlags(EXTENSION_DIR), ...CHROMIUM_FLAGS],
  });
  const fixtures = new FixtureResponder();
  for (const host of FIXTURE_HOSTS) {
    await context.route(`http://${host}/**`, async (route) => {
      const { status, contentType, body } = fixtures.respond(route.request().url());
      return route.fulfill({ status, contentType, body });
    });
  }
  let worker = context.serviceWorkers()[0];
  worker ??= await context.waitForEvent('serviceworker', { timeout: 15000 });
  const extensionId = new URL(worker.url()).host;
  return {
    context,
    extensionId,
    worker,
    override: (url, html) => fixtures.override(url, html),
    overrideBinary: (url, body, contentType) => fixtures.overrideBinary(url, body, contentType),
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Reads every claim the curator has straight from the extension's IndexedDB (in its service worker); tombstones of deleted claims are left out. */
export async function storedClaims(worker: Worker): Promise<Array<Record<string, any>>> {
  return worker.evaluate(readClaimsInExtension);
}

/** The painted passages on a page: per highlight name, the text of each range (read from CSS.highlights). */
export async function paintedPassages(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(() => {
    const out: Record<string, string[]> = {};
    CSS.highlights.forEach((highlight, name) => {
      if (!/^recipe-lens-(stage|algorithm|framework|reward|system|intention|undisclosed)$/.test(name)) return;
      out[name] = [...highlight].map((r) => (r as Range).toString().replace(/\s+/g, ' ').trim());
    });
    return out;
  });
}

/** All painted passage texts on a page, flattened. */
export async function paintedTexts(page: Page): Promise<string[]> {
  return Object.values(await paintedPassages(page)).flat();
}

/** Waits until the page shows at least `count` painted passages. */
export async function waitForPainted(page: Page, count: number, timeout = 10000): Promise<string[]> {
  await page.waitForFunction(
    (n) => {
      let total = 0;
      CSS.highlights.forEach((h, name) => {
        if (/^recipe-lens-(stage|algorithm|framework|reward|system|intention|undisclosed)$/.test(name)) total += h.size;
      });
      return total >= n;
    },
    count,
    { timeout },
  );
  return paintedTexts(page);
}

/** The badge text the extension set for the tab showing `url`. */
export async function badgeFor(worker: Worker, url: string): Promise<string> {
  return worker.evaluate(badgeInExtension, url);
}

/** Runs `fn(arg)` in a world of the test's own in the page's top frame (through the DevTools protocol), so the page's overridden built-ins are not seen. */
export async function inIsolatedWorld<A, R>(context: BrowserContext, page: Page, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
  const cdp = await context.newCDPSession(page);
  try {
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const { executionContextId } = await cdp.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: 'recipe-lens-test' });
    const reply = await cdp.send('Runtime.evaluate', {
      contextId: executionContextId,
      expression: `(${fn.toString()})(${JSON.stringify(arg)})`,
      awaitPromise: true,
      returnByValue: true,
    });
    if (reply.exceptionDetails) throw new Error(`in the test's world: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`);
    return reply.result.value as R;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** A Playwright locator for a scenario selector (`a >>> b`: `b` inside `a`'s shadow root, which Playwright's CSS pierces). */
function locate(page: Page, selector: string) {
  // Our capture UI: its frames on a web page, its shadow root in the PDF viewer (./ui-frames.ts).
  if (selector.startsWith(UI_PREFIX)) return uiLocator(page, selector.slice(UI_PREFIX.length));
  return selector.split(' >>> ').reduce((loc: ReturnType<Page['locator']> | Page, part) => loc.locator(part), page) as ReturnType<Page['locator']>;
}
const UI_PREFIX = inUi('');

/** A Playwright page as the scenarios drive it. */
export function chromiumPage(context: BrowserContext, page: Page): ScenarioPage {
  return {
    goto: async (url) => void (await page.goto(url)),
    reload: async () => void (await page.reload()),
    close: () => page.close(),
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    inspect: (fn, arg) => inIsolatedWorld(context, page, fn, arg),
    click: (selector) => locate(page, selector).click(),
    fill: (selector, value) => locate(page, selector).fill(value),
    selectOption: async (selector, value) => void (await locate(page, selector).selectOption(value)),
    value: (selector) => locate(page, selector).inputValue(),
    text: async (selector) => (await locate(page, selector).textContent()) ?? '',
    count: (selector) => locate(page, selector).count(),
    waitFor: (selector, options = {}) =>
      locate(page, selector)
        .first()
        .waitFor({ state: options.state ?? 'attached', timeout: options.timeout }),
    setInputFiles: (selector, files) => locate(page, selector).setInputFiles(files),
    async download(selector) {
      const [download] = await Promise.all([page.waitForEvent('download'), locate(page, selector).click()]);
      const bytes = readFileSync(await download.path());
      return { fileName: download.suggestedFilename(), bytes, text: bytes.toString('utf8') };
    },
    press: (key) => page.keyboard.press(key),
    mouseAt: (x, y) => page.mouse.move(x, y, { steps: 4 }),
    async dragAcross(selector) {
      const box = (await locate(page, selector).boundingBox())!;
      await page.mouse.move(box.x + 1, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
    },
  };
}

/** The browser-neutral driver of the shared scenarios (tests/e2e/scenarios), over Chromium. */
export function chromiumDriver(browser: ExtensionBrowser): ExtensionDriver {
  const { context, extensionId } = browser;
  return {
    name: 'chromium',
    newPage: async () => chromiumPage(context, await context.newPage()),
    async openExtensionPage(pathAndQuery) {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/${pathAndQuery}`);
      return chromiumPage(context, page);
    },
    storedClaims: () => storedClaims(browser.worker),
    badgeFor: (url) => badgeFor(browser.worker, url),
    async panelModels(atLeast) {
      // The side panel page in a window of its own, following the first window (as PanelPage opens it).
      const panel = await PanelPage.open(browser);
      try {
        await panel.page.waitForFunction((n) => document.querySelectorAll('[data-testid=survey-row]').length >= n, atLeast, { timeout: 15_000 });
        return await panel.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-model') ?? ''));
      } finally {
        await panel.page.close();
      }
    },
    override: (url, html) => browser.override(url, html),
    close: () => browser.close(),
  };
}

export { squash };
