// What Firefox has and does not have of the platform Recipe Lens uses, checked in the real browser (docs/firefox.md
// says how each difference is handled): the temporary add-on, the CSS Custom Highlight API, the Navigation API
// (and its absence), no service worker, unlimitedStorage, sidebar_action instead of the side panel,
// tabs.sendMessage to extension pages, site access the curator can take away, and the PDF viewer's shared engine
// (no offscreen documents: it lives while a viewer is open).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOW, inUi, type ExtensionDriver } from './driver';
import { FIREFOX_EXTENSION_DIR, GECKO_ID, SIDEBAR_ID, firefoxDriver, firefoxPage, launchFirefox, type FirefoxExtensionBrowser } from './firefox';
import { askEngine, engineQuery } from './engine';
import { HAVE_SHARED, SHARED_FIXTURES } from './harness';
import { paintsAcrossInPageNavigation } from './scenarios/navigation';
import { fillAndSave, openFormFromToolbar, selectText, waitForPainted } from './scenarios/steps';

/** The major version of a Firefox version string (`153.8.0` → 153). */
const major = (version: string) => Number(version.split('.')[0]);

describe('Firefox as it ships', () => {
  let ff: FirefoxExtensionBrowser;
  let driver: ExtensionDriver;
  beforeAll(async () => {
    ff = await launchFirefox();
    driver = firefoxDriver(ff);
  });
  afterAll(async () => {
    await ff?.close();
  });

  it('runs the Firefox build as a temporary add-on, in a Firefox at least as new as the manifest asks (ESR 140 or later)', async () => {
    const state = await ff.chrome<{ app: string; temporary: boolean; active: boolean }>(`
      const { AddonManager } = ChromeUtils.importESModule('resource://gre/modules/AddonManager.sys.mjs');
      const addon = await AddonManager.getAddonByID(${JSON.stringify(GECKO_ID)});
      return { app: Services.appinfo.version, temporary: addon.temporarilyInstalled, active: addon.isActive };`);
    expect(state).toMatchObject({ temporary: true, active: true });
    expect(major(state.app)).toBeGreaterThanOrEqual(140);
    expect(ff.version).toBe(`firefox/${state.app}`);
    const manifest = JSON.parse(readFileSync(path.join(FIREFOX_EXTENSION_DIR, 'manifest.json'), 'utf8'));
    expect(major(manifest.browser_specific_settings.gecko.strict_min_version)).toBeLessThanOrEqual(140);
    // Nothing left the machine: whatever Firefox asked for beyond the fixture hosts, the proxy refused.
    expect(ff.refused.filter((r) => /fixtures\.test|local\.test/.test(r))).toEqual([]);
  });

  it('paints with the CSS Custom Highlight API: the registry holds the passage, and its pixels change', async () => {
    const raw = await ff.browser.newPage();
    const page = firefoxPage(ff, raw);
    await page.goto('http://local.test/drift.html');
    expect(await page.evaluate(() => [typeof Highlight, typeof CSS.highlights, CSS.supports('selector(::highlight(x))')], null)).toEqual([
      'function',
      'object',
      true,
    ]);
    const passage = 'We optimise the Nova-3 policy with GRPO and a rule-based reward on verifiable tasks.';
    await selectText(page, passage);
    await openFormFromToolbar(page);
    await fillAndSave(page, { model: 'Nova-3', value: 'GRPO' });
    await waitForPainted(page, 1);
    await page.inspect(() => getSelection()?.removeAllRanges(), null);
    const box = await page.inspect(() => {
      const rects: DOMRect[] = [];
      CSS.highlights.forEach((highlight, name) => {
        if (name === 'recipe-lens-algorithm') highlight.forEach((range) => void rects.push((range as Range).getBoundingClientRect()));
      });
      const [rect] = rects;
      return rect ? { x: Math.floor(rect.x), y: Math.floor(rect.y), width: Math.ceil(rect.width), height: Math.ceil(rect.height) } : null;
    }, null);
    expect(box).not.toBeNull();
    const painted = await raw.screenshot({ clip: box!, type: 'png' });
    // The same pixels once our highlights are taken out of the page's registry.
    await page.inspect(() => CSS.highlights.clear(), null);
    await expect.poll(() => page.inspect(() => CSS.highlights.size, null), SLOW).toBe(0);
    const plain = await raw.screenshot({ clip: box!, type: 'png' });
    expect(Buffer.from(painted).equals(Buffer.from(plain))).toBe(false);
    await page.close();
  });

  it('finds the claim under the pointer (caretPositionFromPoint): a click on the painted passage opens its card', async () => {
    const raw = await ff.browser.newPage();
    const page = firefoxPage(ff, raw);
    await page.goto('http://local.test/drift.html');
    await waitForPainted(page, 1);
    const point = await page.inspect(() => {
      const rects: DOMRect[] = [];
      CSS.highlights.forEach((highlight, name) => {
        if (name === 'recipe-lens-algorithm') highlight.forEach((range) => void rects.push((range as Range).getClientRects()[0]!));
      });
      const [rect] = rects;
      return rect ? { x: rect.left + Math.min(12, rect.width / 2), y: rect.top + rect.height / 2 } : null;
    }, null);
    expect(point).not.toBeNull();
    await raw.mouse.click(point!.x, point!.y);
    await page.waitFor(inUi('[data-testid=claim-card]'), { timeout: 15_000 });
    expect(await page.text(inUi('[data-testid=claim-card]'))).toContain('GRPO');
    await page.close();
  });

  it('has no service worker, an event page instead: imports hand the file over inside the message; unlimitedStorage makes the store persistent', async () => {
    const facts = await ff.control.evaluate(async () => {
      const api = (globalThis as any).browser;
      return {
        serviceWorker: typeof navigator.serviceWorker,
        background: api.extension.getBackgroundPage()?.location.pathname ?? null,
        persisted: await navigator.storage.persisted(),
        sessionStorage: typeof api.storage?.session,
        offscreen: typeof api.offscreen,
      };
    });
    expect(facts).toEqual({
      serviceWorker: 'undefined',
      background: '/_generated_background_page.html',
      persisted: true,
      // `storage` is asked for (the dataset's connection and token live in storage.local), so its session area is there
      // too, unused; Chrome's `offscreen` is not used.
      sessionStorage: 'object',
      offscreen: 'undefined',
    });
  });

  it('has no side panel but a sidebar: Alt+Shift+E opens it (a user action), and sidebarAction.open refuses without one', async () => {
    const keyOpens = await ff.chrome<{ before: boolean; after: boolean; id: string | null }>(`
      const w = Services.wm.getMostRecentWindow('navigator:browser');
      const sidebar = w.SidebarController ?? w.SidebarUI;
      sidebar.hide();
      const before = sidebar.isOpen;
      // The command's key as the browser registered it from the manifest (Alt+Shift+E): what the keyboard triggers.
      const keyset = w.document.getElementById('ext-keyset-id-recipe-lens_recipe-lens_dev');
      [...keyset.children].find((k) => k.getAttribute('key') === 'E' && /alt/.test(k.getAttribute('modifiers'))).doCommand();
      for (let i = 0; i < 100 && !sidebar.isOpen; i++) await new Promise((r) => w.setTimeout(r, 100));
      return { before, after: sidebar.isOpen, id: sidebar.currentID };`);
    expect(keyOpens).toEqual({ before: false, after: true, id: SIDEBAR_ID });
    const api = await ff.control.evaluate(async () => {
      const b = (globalThis as any).browser;
      const refusal = await b.sidebarAction.open().then(
        () => 'opened',
        (e: Error) => e.message,
      );
      return { sidePanel: typeof b.sidePanel, refusal };
    });
    expect(api.sidePanel).toBe('undefined');
    expect(api.refusal).toMatch(/user input/);
  });

  it('delivers tabs.sendMessage to an extension page in a tab (the PDF viewer answers the background’s calls that way)', async () => {
    const other = await ff.openExtensionPage('popup.html');
    await other.evaluate(() => {
      (globalThis as any).browser.runtime.onMessage.addListener((m: unknown) => (m === 'recipe-lens-test-ping' ? Promise.resolve('pong') : undefined));
    });
    const reply = await ff.control.evaluate(async () => {
      const b = (globalThis as any).browser;
      const tab = (await b.tabs.query({})).find((t: { url?: string }) => t.url?.endsWith('/popup.html'));
      return b.tabs.sendMessage(tab.id, 'recipe-lens-test-ping', { frameId: 0 });
    });
    expect(reply).toBe('pong');
    await other.close();
  });

  it.runIf(HAVE_SHARED)(
    "draws a real report's first page in the PDF viewer with pdf.js's shared engine: two viewers, one engine; a closed viewer's document is closed in it",
    async () => {
      const reports = ['qwen3-technical-report.pdf', 'areal-paper.pdf'];
      for (const file of reports) ff.fixtures.overrideBinary(`http://fixtures.test/reports/${file}`, readFileSync(path.join(SHARED_FIXTURES, 'pdfs', file)));
      const viewers = [];
      for (const file of reports) {
        const viewer = await ff.openExtensionPage(`pdf-viewer.html?file=${encodeURIComponent(`http://fixtures.test/reports/${file}`)}`);
        await viewer.waitForFunction(() => document.documentElement.dataset.pdfFirstPageSharpMs !== undefined, { timeout: 30_000 });
        viewers.push(viewer);
      }
      // The page drew pixels on its canvas, and its text layer reads the report's title.
      const first = viewers[0]!;
      expect(await first.evaluate(() => document.querySelector('.pdf-page[data-page="1"] .pdf-text')?.textContent ?? '')).toContain('Qwen3 Technical Report');
      const inked = await first.evaluate(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('.pdf-page[data-page="1"] canvas')!;
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 3]! > 0) dark++;
        return dark;
      });
      expect(inked).toBeGreaterThan(1000);
      const status = () => ff.control.evaluate(askEngine, engineQuery(FIREFOX_EXTENSION_DIR));
      // Both documents are open in one engine, which the control page reaches too.
      expect((await status()).documents).toBe(2);
      await viewers[1]!.close();
      await expect.poll(async () => (await status()).documents, SLOW).toBe(1);
      // Firefox has no offscreen documents: the background says the engine is not kept beyond the viewers.
      const kept = await ff.control.evaluate(() =>
        (globalThis as any).browser.runtime.sendMessage({ channel: 'recipe-lens', type: 'pdf.engine', payload: { keep: true } }),
      );
      expect(kept).toMatchObject({ ok: true, data: { kept: false } });
      await first.close();
    },
  );

  it('says so when the curator took site access away (the page script cannot run there), instead of asking for a reload', async () => {
    const url = 'http://local.test/blank.html';
    const page = await driver.newPage();
    await page.goto(url);
    const ask = () =>
      ff.control.evaluate(async (address) => {
        const b = (globalThis as any).browser;
        const [tab] = await b.tabs.query({ url: address });
        await b.tabs.update(tab.id, { active: true });
        const reply = await b.runtime.sendMessage({ channel: 'recipe-lens', type: 'tab.page', payload: { windowId: tab.windowId } });
        return reply.data as { report: unknown; reason: string | null };
      }, url);
    expect((await ask()).report).not.toBeNull();
    // What "Recipe Lens › Don't allow on this site" (extensions menu) or about:addons › Permissions does.
    expect(await ff.control.evaluate(() => (globalThis as any).browser.permissions.remove({ origins: ['http://*/*'] }), null)).toBe(true);
    try {
      await page.reload();
      const answer = await ask();
      expect(answer.report).toBeNull();
      expect(answer.reason).toMatch(/not allowed to read this site/);
      expect(await page.count('recipe-lens-ui')).toBe(0);
    } finally {
      // Giving it back needs a user action (permissions.request); the add-on manager does it for the test.
      await ff.chrome(`
        const { ExtensionPermissions } = ChromeUtils.importESModule('resource://gre/modules/ExtensionPermissions.sys.mjs');
        const { AddonManager } = ChromeUtils.importESModule('resource://gre/modules/AddonManager.sys.mjs');
        const addon = await AddonManager.getAddonByID(${JSON.stringify(GECKO_ID)});
        const policy = WebExtensionPolicy.getByID(${JSON.stringify(GECKO_ID)});
        await ExtensionPermissions.add(${JSON.stringify(GECKO_ID)}, { permissions: [], origins: ['http://*/*'] }, policy.extension);
        return addon.isActive;`);
      await page.close();
    }
    const again = await driver.newPage();
    await again.goto(url);
    await expect.poll(async () => (await ask()).report !== null, SLOW).toBe(true);
    await again.close();
  });
});

describe('Firefox without the Navigation API (as in releases before it shipped; turned off by preference)', () => {
  let ff: FirefoxExtensionBrowser;
  beforeAll(async () => {
    ff = await launchFirefox({ prefs: { 'dom.navigation.webidl.enabled': false } });
  });
  afterAll(async () => {
    await ff?.close();
  });

  it('follows a single-page app’s navigation all the same (the address is polled), painting each address’s claims', async () => {
    const driver = firefoxDriver(ff);
    const page = await driver.newPage();
    await page.goto('http://local.test/blank.html');
    expect(await page.evaluate(() => typeof (window as unknown as { navigation?: unknown }).navigation, null)).toBe('undefined');
    await page.close();
    await paintsAcrossInPageNavigation(driver);
  });
});
