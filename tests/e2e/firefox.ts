/**
 * End-to-end harness for Firefox: Debian's firefox-esr driven through WebDriver
 * BiDi by puppeteer-core, with the Firefox build (.output/firefox-mv3)
 * installed as a temporary add-on.
 *
 * - Pages: Firefox's only proxy is a Node HTTP server on 127.0.0.1 that
 *   answers http://fixtures.test/ and http://local.test/ from the fixtures
 *   (the same `FixtureResponder` as Chromium's request routing) and refuses
 *   everything else, CONNECT included: nothing leaves the machine, and pages
 *   keep the addresses Chromium sees, so both browsers store the same records.
 * - Extension pages: WebDriver BiDi will not navigate a tab to moz-extension://,
 *   so the harness asks the browser's own window (chrome scope, allowed by
 *   `--remote-allow-system-access`) to load them; once loaded, they are
 *   ordinary BiDi pages. The extension's address is fixed with the
 *   `extensions.webextensions.uuids` preference.
 * - The store and the badge are read from an extension page of ours (the
 *   options page, kept open as the harness's control page); the sidebar's
 *   document is reached from there with `extension.getViews({ type: 'sidebar' })`.
 * - A world of the test's own is a BiDi sandbox: it sees the page's DOM
 *   through Xray wrappers, never the page's overridden built-ins.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { firefoxPath } from '../../scripts/browsers.mjs';
import { badgeInExtension, inUi, readClaimsInExtension, type DownloadedFile, type ExtensionDriver, type ScenarioPage } from './driver';
import { UI_FRAME_PAGE } from './ui-frames';

/** How a scenario's selector says it is inside our capture UI (`inUi`). */
const UI_PREFIX = inUi('');
import { FIXTURE_HOSTS, FixtureResponder, ROOT } from './harness';

/** The unpacked Firefox build the tests install. */
export const FIREFOX_EXTENSION_DIR = path.join(ROOT, process.env.RECIPE_LENS_OUT ?? '.output', 'firefox-mv3');
/** The add-on id the Firefox build declares (browser_specific_settings.gecko.id). */
export const GECKO_ID = 'recipe-lens@recipe-lens.dev';
/** The moz-extension:// host the tests give the extension (any UUID works; fixed so addresses are known in advance). */
export const EXTENSION_UUID = '5e1c7a3b-0d2f-4c8e-9a61-7b3f2d9e4c10';
/** The extension's origin in Firefox. */
export const EXTENSION_ORIGIN = `moz-extension://${EXTENSION_UUID}`;

/** A loopback proxy that serves the fixture hosts and refuses every other address. */
async function startFixtureProxy(fixtures: FixtureResponder): Promise<{ port: number; refused: string[]; close(): Promise<void> }> {
  const refused: string[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    const host = /^http:\/\/([^/]+)\//.exec(url)?.[1];
    if (req.method !== 'GET' || !host || !(FIXTURE_HOSTS as readonly string[]).includes(host)) {
      refused.push(`${req.method} ${url}`);
      res.writeHead(403, { 'content-type': 'text/plain' }).end('refused: the tests serve only fixture pages');
      return;
    }
    const { status, contentType, body } = fixtures.respond(url);
    res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);
  });
  server.on('connect', (req, socket) => {
    refused.push(`CONNECT ${req.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Firefox's preferences for a test profile: the fixture proxy for every address, downloads into a folder, the extension's fixed address. */
function preferences(proxyPort: number, downloads: string): Record<string, unknown> {
  return {
    'network.proxy.type': 1,
    'network.proxy.http': '127.0.0.1',
    'network.proxy.http_port': proxyPort,
    'network.proxy.ssl': '127.0.0.1',
    'network.proxy.ssl_port': proxyPort,
    'network.proxy.no_proxies_on': '',
    'network.proxy.allow_hijacking_localhost': true,
    'network.dns.disableIPv6': true,
    'extensions.webextensions.uuids': JSON.stringify({ [GECKO_ID]: EXTENSION_UUID }),
    'browser.download.folderList': 2,
    'browser.download.dir': downloads,
    'browser.download.useDownloadDir': true,
    'browser.download.always_ask_before_handling_new_types': false,
    'browser.download.start_downloads_in_tmp_dir': false,
    'browser.download.alwaysOpenPanel': false,
    'browser.download.panel.shown': true,
    'browser.helperApps.neverAsk.saveToDisk': 'application/x-ndjson,application/json,application/ld+json,text/markdown,text/csv,text/plain',
    'intl.accept_languages': 'en-US, en',
    'intl.locale.requested': 'en-US',
  };
}

/** A Firefox with the built extension installed as a temporary add-on. */
export interface FirefoxExtensionBrowser {
  browser: Browser;
  /** What Firefox reports (`firefox/153.8.0`). */
  version: string;
  /** The options page, kept open to read the store and the badge and to reach the sidebar. */
  control: Page;
  fixtures: FixtureResponder;
  /** The folder Firefox saves downloads in. */
  downloads: string;
  /** Requests the proxy refused (addresses outside the fixtures), in order. */
  refused: string[];
  /** Runs an expression in the browser window's chrome scope and returns its JSON value. */
  chrome<R>(expression: string): Promise<R>;
  /** Loads a page of the extension (`options.html`, `sidepanel.html?window=1`) in a new tab. */
  openExtensionPage(pathAndQuery: string): Promise<Page>;
  close(): Promise<void>;
}

/** Starts firefox-esr with the Firefox build installed and the fixture proxy; `prefs` adds or changes preferences (to turn a platform feature off, say). */
export async function launchFirefox(options: { prefs?: Record<string, unknown> } = {}): Promise<FirefoxExtensionBrowser> {
  if (!existsSync(path.join(FIREFOX_EXTENSION_DIR, 'manifest.json'))) {
    throw new Error(`The Firefox build is missing (${path.relative(ROOT, FIREFOX_EXTENSION_DIR)}). Run \`npm run build:firefox\` first.`);
  }
  const executablePath = firefoxPath();
  const fixtures = new FixtureResponder();
  const proxy = await startFixtureProxy(fixtures);
  const scratch = mkdtempSync(path.join(tmpdir(), 'recipe-lens-firefox-'));
  const downloads = path.join(scratch, 'downloads');
  mkdirSync(downloads);
  const cleanUp = async () => {
    await proxy.close();
    rmSync(scratch, { recursive: true, force: true });
  };
  const browser = await puppeteer
    .launch({
      browser: 'firefox',
      executablePath,
      headless: true,
      timeout: 90_000,
      protocolTimeout: 120_000,
      defaultViewport: { width: 1280, height: 900 },
      args: ['--remote-allow-system-access'],
      extraPrefsFirefox: { ...preferences(proxy.port, downloads), ...options.prefs },
    })
    .catch(async (error: unknown) => {
      await cleanUp();
      throw error;
    });
  try {
    const version = await browser.version();
    const installed = await browser.installExtension(FIREFOX_EXTENSION_DIR);
    if (installed !== GECKO_ID) throw new Error(`installed ${installed}, expected ${GECKO_ID}`);
    const connection = (browser as unknown as { connection: BidiConnection }).connection;
    const tree = await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' });
    const chromeContext = tree.result.contexts.find((c: { url: string }) => c.url === 'chrome://browser/content/browser.xhtml')?.context;
    if (!chromeContext) throw new Error('no browser window in chrome scope (is --remote-allow-system-access honoured?)');
    const chrome = async <R>(expression: string): Promise<R> => {
      const reply = await connection.send('script.evaluate', {
        expression: `(async () => JSON.stringify(await (async () => { ${expression} })() ?? null))()`,
        target: { context: chromeContext },
        awaitPromise: true,
      });
      if (reply.result.type !== 'success') throw new Error(`in chrome scope: ${reply.result.exceptionDetails?.text ?? JSON.stringify(reply.result)}`);
      return JSON.parse(reply.result.result.value) as R;
    };
    const openExtensionPage = async (pathAndQuery: string): Promise<Page> => {
      const page = await browser.newPage();
      await page.bringToFront();
      const url = `${EXTENSION_ORIGIN}/${pathAndQuery}`;
      await chrome(`
        const w = Services.wm.getMostRecentWindow('navigator:browser');
        w.gBrowser.selectedBrowser.loadURI(Services.io.newURI(${JSON.stringify(url)}), { triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal() });`);
      await waitUntil(async () => {
        const at = await page.evaluate(() => (document.readyState === 'complete' ? location.href : '')).catch(() => '');
        return at === url;
      }, `${url} did not load`);
      return page;
    };
    const control = await openExtensionPage('options.html');
    return {
      browser,
      version,
      control,
      fixtures,
      downloads,
      refused: proxy.refused,
      chrome,
      openExtensionPage,
      async close() {
        await browser.close().catch(() => undefined);
        await cleanUp();
      },
    };
  } catch (error) {
    await browser.close().catch(() => undefined);
    await cleanUp();
    throw error;
  }
}

/** The raw WebDriver BiDi connection puppeteer keeps (for the chrome scope and sandboxes, which its API does not expose). */
interface BidiConnection {
  send(method: string, params: Record<string, unknown>): Promise<{ result: any }>;
}

/** Polls `check` every 100 ms until it is true; throws `message` after `timeout` ms. */
async function waitUntil(check: () => Promise<boolean>, message: string, timeout = 30_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The BiDi browsing-context id of a puppeteer page (its main frame's id). */
function contextOf(page: Page): string {
  const id = (page.mainFrame() as unknown as { _id?: unknown })._id;
  if (typeof id !== 'string') throw new Error('cannot tell the page’s browsing context');
  return id;
}

/** One operation on the elements a scenario selector finds, run in the test's sandbox (self-contained: it is sent as source). */
function elementOp(args: { selector: string; op: 'count' | 'text' | 'value' | 'box' | 'focus' | 'select'; value?: string }): unknown {
  let roots: Array<Document | ShadowRoot | Element> = [document];
  const parts = args.selector.split(' >>> ');
  for (let i = 0; i < parts.length; i++) {
    const next: Array<ShadowRoot | Element> = [];
    for (const root of roots) {
      for (const el of (root as ParentNode).querySelectorAll(parts[i]!)) {
        if (i === parts.length - 1) next.push(el);
        else if (el.shadowRoot) next.push(el.shadowRoot);
      }
    }
    roots = next;
  }
  const found = roots as Element[];
  const first = found[0] as HTMLElement | undefined;
  switch (args.op) {
    case 'count':
      return found.length;
    case 'text':
      return first ? (first.textContent ?? '') : null;
    case 'value':
      return first ? ((first as HTMLInputElement).value ?? '') : null;
    case 'box': {
      if (!first) return null;
      const before = first.getBoundingClientRect();
      if (before.top < 0 || before.bottom > innerHeight) first.scrollIntoView({ block: 'center', inline: 'center' });
      const rect = first.getBoundingClientRect();
      const disabled = (first as HTMLButtonElement).disabled === true;
      if (rect.width <= 0 || rect.height <= 0 || disabled) return null;
      // What a click at the centre would hit (inside our shadow root, when the element is there).
      const root = first.getRootNode() as Document | ShadowRoot;
      const hit = root.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
      if (!hit || !(hit === first || first.contains(hit))) return null;
      return { x: rect.left, y: rect.top, width: rect.width, height: rect.height };
    }
    case 'focus': {
      if (!first) return false;
      first.focus();
      (first as HTMLInputElement).select?.();
      return true;
    }
    case 'select': {
      const select = first as HTMLSelectElement | undefined;
      if (!select) return false;
      select.value = args.value!;
      select.dispatchEvent(new Event('input', { bubbles: true }));
      select.dispatchEvent(new Event('change', { bubbles: true }));
      return select.value === args.value;
    }
  }
  return null;
}

/** A puppeteer page in Firefox as the scenarios drive it; element operations run in a BiDi sandbox, input goes through BiDi input actions. */
export function firefoxPage(ff: FirefoxExtensionBrowser, page: Page): ScenarioPage {
  const connection = (ff.browser as unknown as { connection: BidiConnection }).connection;
  const inspect = async <A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> => {
    const reply = await connection.send('script.evaluate', {
      expression: `Promise.resolve((${fn.toString()})(${JSON.stringify(arg)})).then((r) => JSON.stringify(r === undefined ? null : r))`,
      target: { context: contextOf(page), sandbox: 'recipe-lens-test' },
      awaitPromise: true,
    });
    if (reply.result.type !== 'success') throw new Error(`in the test's sandbox: ${reply.result.exceptionDetails?.text ?? JSON.stringify(reply.result)}`);
    return JSON.parse(reply.result.result.value) as R;
  };
  const evaluateIn = async <A, R>(context: string, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> => {
    const reply = await connection.send('script.evaluate', {
      expression: `Promise.resolve((${fn.toString()})(${JSON.stringify(arg)})).then((r) => JSON.stringify(r === undefined ? null : r))`,
      target: { context, sandbox: 'recipe-lens-test' },
      awaitPromise: true,
    });
    if (reply.result.type !== 'success') throw new Error(`in the test's sandbox: ${reply.result.exceptionDetails?.text ?? JSON.stringify(reply.result)}`);
    return JSON.parse(reply.result.result.value) as R;
  };
  /** The capture UI's frames in this tab (one per part shown so far), as BiDi browsing contexts. */
  const uiContexts = async (): Promise<string[]> => {
    const tree = await connection.send('browsingContext.getTree', { root: contextOf(page) });
    const found: string[] = [];
    const visit = (node: { context: string; url: string; children?: unknown[] | null }) => {
      if (node.url.includes(UI_FRAME_PAGE)) found.push(node.context);
      for (const child of (node.children ?? []) as Array<typeof node>) visit(child);
    };
    for (const node of tree.result.contexts) visit(node);
    return found;
  };
  const screenOrigin = () => {
    const w = window as unknown as { mozInnerScreenX: number; mozInnerScreenY: number };
    return [w.mozInnerScreenX, w.mozInnerScreenY];
  };
  /** One element operation; a selector inside our UI (`inUi`) is looked for in the UI's frames, then in an extension page's own shadow root. */
  const op = async (selector: string, name: Parameters<typeof elementOp>[0]['op'], value?: string): Promise<unknown> => {
    if (!selector.startsWith(UI_PREFIX)) return inspect(elementOp, { selector, op: name, value });
    const inner = selector.slice(UI_PREFIX.length);
    const results: unknown[] = [];
    for (const context of await uiContexts()) {
      const result = await evaluateIn(context, elementOp, { selector: inner, op: name, value }).catch(() => null);
      if (name === 'box' && result) {
        // The frame's box is in the frame's viewport: moved by where the frame stands in the tab's.
        const [[fx, fy], [tx, ty]] = await Promise.all([evaluateIn(context, screenOrigin, null), inspect(screenOrigin, null)]);
        const box = result as { x: number; y: number; width: number; height: number };
        const placed = { ...box, x: box.x + fx! - tx!, y: box.y + fy! - ty! };
        // Clickable as a person sees it: at its centre the page shows our UI (a frame not drawn yet shows the page).
        const ours = await inspect(({ x, y }) => document.elementFromPoint(x, y)?.localName === 'recipe-lens-ui', {
          x: placed.x + placed.width / 2,
          y: placed.y + placed.height / 2,
        });
        return ours ? placed : null;
      }
      results.push(result);
    }
    results.push(await inspect(elementOp, { selector, op: name, value }));
    if (name === 'count') return results.reduce((n: number, r) => n + ((r as number) ?? 0), 0);
    return results.find((r) => r !== null && r !== false) ?? results[results.length - 1];
  };
  type Box = { x: number; y: number; width: number; height: number };
  /** The element's box once it is there, enabled, on top at its centre, and still (the same box twice, 50 ms apart), as Playwright waits before a click. */
  const boxOf = async (selector: string, timeout = 15_000): Promise<Box> => {
    let box: Box | null = null;
    const same = (a: Box | null, b: Box | null) => !!a && !!b && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
    await waitUntil(
      async () => {
        const first = (await op(selector, 'box').catch(() => null)) as Box | null;
        await new Promise((r) => setTimeout(r, 50));
        box = (await op(selector, 'box').catch(() => null)) as Box | null;
        return same(first, box);
      },
      `no clickable element: ${selector}`,
      timeout,
    );
    return box!;
  };
  return {
    goto: async (url) => void (await page.goto(url, { waitUntil: 'load' })),
    reload: async () => void (await page.reload({ waitUntil: 'load' })),
    close: () => page.close(),
    evaluate: (fn, arg) => page.evaluate(fn as never, arg) as never,
    inspect,
    async click(selector) {
      const box = await boxOf(selector);
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    },
    async fill(selector, value) {
      // Focused with its whole text selected: typing replaces it, as a curator's select-all and type would.
      await waitUntil(async () => (await op(selector, 'focus')) === true, `no field: ${selector}`);
      if (value) await page.keyboard.type(value);
      else await page.keyboard.press('Backspace');
      await waitUntil(async () => (await op(selector, 'value')) === value, `the field ${selector} did not take "${value}"`, 5000);
    },
    async selectOption(selector, value) {
      await waitUntil(async () => (await op(selector, 'select', value)) === true, `cannot choose "${value}" in ${selector}`);
    },
    value: async (selector) => ((await op(selector, 'value')) as string | null) ?? '',
    text: async (selector) => ((await op(selector, 'text')) as string | null) ?? '',
    count: async (selector) => (await op(selector, 'count')) as number,
    async waitFor(selector, options = {}) {
      const gone = options.state === 'detached';
      await waitUntil(
        async () => ((await op(selector, 'count').catch(() => 0)) as number) > 0 !== gone,
        `${selector} ${gone ? 'stayed' : 'never appeared'}`,
        options.timeout ?? 30_000,
      );
    },
    async setInputFiles(selector, files) {
      const input = await page.$(selector);
      if (!input) throw new Error(`no file input: ${selector}`);
      await (input as unknown as { uploadFile(...paths: string[]): Promise<void> }).uploadFile(...files);
    },
    async download(selector) {
      const folder = ff.downloads;
      const before = new Set(readdirSync(folder));
      await this.click(selector);
      return waitForDownload(folder, before);
    },
    press: (key) => page.keyboard.press(key as never),
    mouseAt: (x, y) => page.mouse.move(x, y, { steps: 4 }),
    async dragAcross(selector) {
      const box = await boxOf(selector);
      await page.mouse.move(box.x + 1, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
    },
  };
}

/** Waits for a new, complete file in the download folder, reads it, and removes it (so the next download gets the same name). */
async function waitForDownload(folder: string, before: Set<string>): Promise<DownloadedFile> {
  let name = '';
  await waitUntil(
    async () => {
      const fresh = readdirSync(folder).filter((f) => !before.has(f) && !f.endsWith('.part'));
      // Firefox writes the file beside a .part file and renames; a complete file has no .part left beside it.
      const done = fresh.find((f) => !existsSync(path.join(folder, `${f}.part`)) && statSync(path.join(folder, f)).size > 0);
      name = done ?? '';
      return !!done;
    },
    'no download arrived',
    30_000,
  );
  const file = path.join(folder, name);
  const bytes = readFileSync(file);
  rmSync(file);
  return { fileName: name, bytes, text: bytes.toString('utf8') };
}

/** The browser-neutral driver of the shared scenarios, over Firefox. */
export function firefoxDriver(ff: FirefoxExtensionBrowser): ExtensionDriver {
  return {
    name: 'firefox',
    newPage: async () => firefoxPage(ff, await ff.browser.newPage()),
    openExtensionPage: async (pathAndQuery) => firefoxPage(ff, await ff.openExtensionPage(pathAndQuery)),
    storedClaims: () => ff.control.evaluate(readClaimsInExtension),
    badgeFor: (url) => ff.control.evaluate(badgeInExtension, url),
    panelModels: (atLeast) => sidebarModels(ff, atLeast),
    override: (url, html) => ff.fixtures.override(url, html),
    close: () => ff.close(),
  };
}

/** The sidebar's id in Firefox's window: the add-on id made a widget id, and `-sidebar-action`. */
export const SIDEBAR_ID = `${GECKO_ID.toLowerCase().replace(/[^a-z0-9_-]/g, '_')}-sidebar-action`;

/** Opens the extension's sidebar in the browser window when it is not showing (Firefox opens it once at install). */
export async function showSidebar(ff: FirefoxExtensionBrowser): Promise<void> {
  await ff.chrome(`
    const w = Services.wm.getMostRecentWindow('navigator:browser');
    const sidebar = w.SidebarController ?? w.SidebarUI;
    if (!sidebar.isOpen || sidebar.currentID !== ${JSON.stringify(SIDEBAR_ID)}) await sidebar.show(${JSON.stringify(SIDEBAR_ID)});
    return sidebar.currentID;`);
}

/** The survey models the extension's sidebar lists, read from the sidebar's own document (after at least `atLeast` rows show). */
export async function sidebarModels(ff: FirefoxExtensionBrowser, atLeast: number): Promise<string[]> {
  await showSidebar(ff);
  let models: string[] | null = null;
  await waitUntil(async () => {
    models = await ff.control.evaluate(() => {
      const [view] = (globalThis as any).browser.extension.getViews({ type: 'sidebar' }) as Window[];
      if (!view) return null;
      return [...view.document.querySelectorAll('[data-testid=survey-row]')].map((row) => row.getAttribute('data-model') ?? '');
    });
    return (models?.length ?? 0) >= atLeast;
  }, `the sidebar did not list ${atLeast} models`);
  return models!;
}
