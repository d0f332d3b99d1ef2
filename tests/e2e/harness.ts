/**
 * End-to-end harness: real Chromium (Debian's, through playwright-core) with
 * the built extension loaded, pages served from fixtures by request routing
 * (no server, no network), and handles on the extension's service worker.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';

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

/** The path of the Chromium to drive, or an error saying how to get one. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      'No Chromium found for the end-to-end tests. Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu) or set CHROMIUM_PATH to a Chromium or Chrome binary.',
    );
  }
  return found;
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
    args: [
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const overrides = new Map<string, string>();
  const binaries = new Map<string, { body: Buffer; contentType: string }>();
  const binaryFor = (url: string) => binaries.get(url) ?? binaries.get(url.split('?')[0]!);
  const pages = fixturePages();
  await context.route('http://fixtures.test/**', async (route) => {
    const url = route.request().url().split('#')[0]!;
    const bare = url.split('?')[0]!;
    const binary = binaryFor(url);
    if (binary) return route.fulfill({ status: 200, contentType: binary.contentType, body: binary.body });
    const html = overrides.get(url) ?? overrides.get(bare);
    if (html !== undefined) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
    const page = pages.find((p) => p.url === bare || p.url === `${bare}/` || p.url.replace(/\/$/, '') === bare);
    if (!page) return route.fulfill({ status: 404, contentType: 'text/plain', body: 'no such fixture' });
    return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: readFileSync(path.join(SHARED_FIXTURES, page.file)) });
  });
  await context.route('http://local.test/**', async (route) => {
    const url = route.request().url().split('#')[0]!.split('?')[0]!;
    const binary = binaryFor(url);
    if (binary) return route.fulfill({ status: 200, contentType: binary.contentType, body: binary.body });
    const html = overrides.get(url);
    if (html !== undefined) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
    const file = path.join(OWN_FIXTURES, new URL(url).pathname.replace(/^\/+/, '') || 'index.html');
    if (!file.startsWith(OWN_FIXTURES) || !existsSync(file)) return route.fulfill({ status: 404, contentType: 'text/plain', body: 'no such page' });
    return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: readFileSync(file) });
  });
  let worker = context.serviceWorkers()[0];
  worker ??= await context.waitForEvent('serviceworker', { timeout: 15000 });
  const extensionId = new URL(worker.url()).host;
  return {
    context,
    extensionId,
    worker,
    override(url, html) {
      if (html === null) overrides.delete(url);
      else overrides.set(url, html);
    },
    overrideBinary(url, body, contentType = 'application/pdf') {
      if (body === null) binaries.delete(url);
      else binaries.set(url, { body, contentType });
    },
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Reads every claim the curator has straight from the extension's IndexedDB (in its service worker); tombstones of deleted claims are left out. */
export async function storedClaims(worker: Worker): Promise<Array<Record<string, any>>> {
  return worker.evaluate(
    () =>
      new Promise<any[]>((resolve, reject) => {
        const open = indexedDB.open('recipe-lens');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('claims')) {
            db.close();
            resolve([]);
            return;
          }
          const req = db.transaction('claims').objectStore('claims').getAll();
          req.onsuccess = () => {
            db.close();
            resolve(req.result.filter((c: { deleted_at?: string }) => !c.deleted_at));
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );
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
  return worker.evaluate(async (u) => {
    const api = (globalThis as any).chrome;
    const tabs: Array<{ id?: number; url?: string }> = await api.tabs.query({});
    const tab = tabs.find((t) => t.url === u);
    if (!tab?.id) return '<no tab>';
    return api.action.getBadgeText({ tabId: tab.id }) as Promise<string>;
  }, url);
}

/** The browser-neutral driver of the shared scenarios (tests/e2e/scenarios), over Chromium. */
export function chromiumDriver(browser: ExtensionBrowser): import('./scenarios/capture').ExtensionDriver {
  return {
    newPage: () => browser.context.newPage(),
    storedClaims: () => storedClaims(browser.worker),
    badgeFor: (url) => badgeFor(browser.worker, url),
  };
}

/** Normalises white space the way the tests compare passages. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
