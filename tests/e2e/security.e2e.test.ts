// Issue 6, "Nothing let in": hostile import files, markup in every field, pages and other extensions that try to
// reach the store, pages that break the platform, and the permissions and code the build ships.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_SCHEMA } from '../../lib/schema';
import { ContentWorld, readStore, startOwnedChromium, testClaim } from './control';
import { EXTENSION_DIR, OWN_FIXTURES, ROOT, badgeFor, launchExtension, waitForPainted, type ExtensionBrowser } from './harness';
import { CaptureUi } from './pages/capture-ui';
import { OptionsPage } from './pages/options-page';
import { PanelPage } from './pages/panel-page';
import { forgeCallsInPage } from './scenarios/hostile';

let browser: ExtensionBrowser;
/** An extension document that runs none of our code (the manifest), to read the store. */
let storePage: Page;
const scratch = mkdtempSync(path.join(tmpdir(), 'recipe-lens-hostile-'));
beforeAll(async () => {
  browser = await launchExtension();
  storePage = await browser.context.newPage();
  await storePage.goto(`chrome-extension://${browser.extensionId}/manifest.json`);
});
afterAll(async () => {
  await browser?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const jsonl = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const file = (name: string, text: string) => ({ name, mimeType: 'application/x-ndjson', buffer: Buffer.from(text) });
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Elements a payload would create, anywhere in a document and in its open shadow roots (ours included). */
async function payloadElements(target: Page | Frame): Promise<string[]> {
  return target.evaluate(() => {
    const found: string[] = [];
    const visit = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll(
        'img[src="x"], script:not([src]), iframe[src^="javascript"], [onerror], [onload], [data-rl-payload], a[href^="javascript"]',
      ))
        found.push(el.outerHTML.slice(0, 80));
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
    };
    visit(document);
    return found;
  });
}

describe('6. import of hostile files (parsing: tests/unit/messages/reliability-import.test.ts)', () => {
  const good = jsonl([
    testClaim('clm_existing_0001', 'https://example.org/report', { quote: { exact: 'An existing passage.', prefix: '', suffix: '' } }),
    { schema: MODEL_SCHEMA, model: 'Zeta-2', recipe: null, vendor: 'Zeta Lab', updated_at: '2026-11-29T10:05:00Z' },
  ]);

  it('refuses broken JSON, wrong types, unknown schema, deep nesting and 50 MB, naming the lines; existing data untouched', async () => {
    const options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    expect(await (await options.importFiles([file('good.jsonl', good)])).first().textContent()).toMatch(/imported/i);
    const before = await readStore(storePage);
    expect(before.claims).toHaveLength(1);
    const broken = [
      JSON.stringify({ schema: MODEL_SCHEMA, model: 'Fine', updated_at: '2026-11-29T10:05:00Z' }),
      '{"schema":"rl-survey.claim/1", "id": ',
      JSON.stringify({ ...testClaim('clm_wrongtypes01', 'https://example.org/a'), evidence: 5, model: ['x'] }),
      JSON.stringify({ schema: 'rl-survey.claim/99', id: 'clm_future00001' }),
    ].join('\n');
    const deep = JSON.stringify({ schema: MODEL_SCHEMA, model: 'Deep', updated_at: '2026-11-29T10:05:00Z' }).replace(
      /}$/,
      `,"extra":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
    );
    const big = path.join(scratch, 'fifty-megabytes.jsonl');
    writeFileSync(big, Buffer.alloc(50 * 1024 * 1024, 0x20));
    const onDisk = (name: string, text: string) => {
      const full = path.join(scratch, name);
      writeFileSync(full, text);
      return full;
    };
    const results = await options.importFiles([onDisk('broken.jsonl', broken), onDisk('deep.jsonl', `${good}${deep}\n`), big]);
    await expect.poll(() => results.count()).toBe(3);
    const [b, d, f] = await results.allTextContents();
    expect(b).toMatch(/not imported/i);
    expect(b).toMatch(/line 2: not valid JSON/);
    expect(b).toMatch(/line 3: .*model/);
    expect(b).toMatch(/line 4: unknown schema "rl-survey.claim\/99"/);
    expect(d).toMatch(/not imported/i);
    expect(d).toMatch(/line 3: .*nested more than 64 levels/);
    expect(f).toMatch(/50\.0 MB; the limit is 32 MB/);
    expect(await readStore(storePage)).toEqual(before);
    await options.page.close();
  });

  it('refuses a 100,000-line file by its one bad line while the page stays responsive', async () => {
    const lines = Array.from({ length: 100_000 }, (_, i) =>
      JSON.stringify({ schema: MODEL_SCHEMA, model: `Model-${i}`, recipe: null, updated_at: '2026-11-29T10:05:00Z' }),
    );
    lines[99_996] = lines[99_996]!.replace('"recipe":null', '"recipe":17');
    const many = path.join(scratch, 'hundred-thousand.jsonl');
    writeFileSync(many, `${lines.join('\n')}\n`);
    const before = await readStore(storePage);
    const options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    // The longest the page goes without painting a frame while the file is read and checked.
    await options.page.evaluate(() => {
      const w = window as unknown as { rlGap: number; rlLast: number };
      w.rlGap = 0;
      w.rlLast = performance.now();
      const tick = (now: number) => {
        w.rlGap = Math.max(w.rlGap, now - w.rlLast);
        w.rlLast = now;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const results = await options.importFiles([many]);
    const text = (await results.first().textContent()) ?? '';
    expect(text).toMatch(/not imported/i);
    expect(text).toMatch(/line 99997: recipe/);
    expect(text).not.toMatch(/line 99996|line 99998/);
    const gap = await options.page.evaluate(() => (window as unknown as { rlGap: number }).rlGap);
    expect(gap).toBeLessThan(3000);
    expect(await readStore(storePage)).toEqual(before);
    await options.page.close();
  });

  it('imports a file with __proto__ and constructor keys whole, without those keys, polluting no prototype', async () => {
    const options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    const text = [
      `{"__proto__":{"rlPolluted":"yes"},${JSON.stringify({ schema: MODEL_SCHEMA, model: 'Proto-1', updated_at: '2026-11-29T10:05:00Z' }).slice(1)}`,
      `{"constructor":{"prototype":{"rlPolluted":"yes"}},${JSON.stringify(testClaim('clm_proto_000001', 'https://example.org/proto')).slice(1)}`,
    ].join('\n');
    const result = await options.importFiles([file('proto.jsonl', text)]);
    expect(await result.first().textContent()).toMatch(/imported: 2 new/);
    const store = await readStore(storePage);
    const claim = store.claims.find((c) => c.id === 'clm_proto_000001')!;
    const model = store.models.find((m) => m.model === 'Proto-1')!;
    for (const record of [claim, model]) {
      expect(Object.keys(record)).not.toContain('__proto__');
      expect(Object.keys(record)).not.toContain('constructor');
    }
    expect(await options.page.evaluate(() => (({}) as Record<string, unknown>).rlPolluted)).toBeUndefined();
    expect(await storePage.evaluate(() => (({}) as Record<string, unknown>).rlPolluted)).toBeUndefined();
    await options.page.close();
  });
});

describe('7. markup and script in every field are shown as text everywhere', () => {
  const img = '<img src=x onerror="window.rlXss=(window.rlXss||0)+1" data-rl-payload>';
  const script = '<script data-rl-payload>window.rlXss=1</script>';
  const url = 'http://local.test/xss.html';
  const passage = `${img} was trained with GRPO ${script}`;
  const model = `Evil ${img}`;

  it('refuses javascript: URLs in a source and a link', async () => {
    const options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    const text = jsonl([
      testClaim('clm_jsurl_000001', 'https://example.org/a', { source: { ...testClaim('x', 'https://example.org/a').source, url: 'javascript:alert(1)' } }),
      testClaim('clm_jslink_00001', 'https://example.org/a', { link: 'javascript:alert(document.cookie)' }),
    ]);
    const result = (await (await options.importFiles([file('js-urls.jsonl', text)])).first().textContent()) ?? '';
    expect(result).toMatch(/line 1: source\.url: must be an absolute http\(s\) URL/);
    expect(result).toMatch(/line 2: link: must be an absolute http\(s\) URL/);
    expect((await readStore(storePage)).claims.map((c) => c.id)).not.toContain('clm_jslink_00001');
    await options.page.close();
  });

  it('imports records with payloads in model, value, note, quote, source title, reason, curator and judgment, and no element of theirs appears in the page, the card, the panel, the options page or the exports', async () => {
    const dialogs: string[] = [];
    const errors: string[] = [];
    const watch = (page: Page) => {
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      page.on('pageerror', (e) => errors.push(e.message));
    };
    browser.override(
      url,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(img)}</title></head><body><main><h1>Model card</h1><p>${escapeHtml(passage)}</p></main></body></html>`,
    );
    const claim = testClaim('clm_xss_00000001', url, {
      model,
      value: script,
      recipe: `recipe ${img}`,
      note: `note ${img} ${script}`,
      evidence: 'C',
      evidence_reason: `reason ${img}`,
      curator: `curator ${img}`,
      quote: { exact: passage, prefix: '', suffix: '' },
      source: { url, title: `title ${img}`, kind: 'third_party', publisher: `publisher ${img}`, published: null, accessed: '2026-11-29' },
    });
    const modelRecord = {
      schema: MODEL_SCHEMA,
      model,
      recipe: null,
      vendor: `vendor ${img}`,
      based_on: `base ${script}`,
      judgment: `judgment ${img} ${script}`,
      updated_at: '2026-11-29T10:05:00Z',
    };
    const options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    watch(options.page);
    expect(await (await options.importFiles([file('payloads.jsonl', jsonl([claim, modelRecord]))])).first().textContent()).toMatch(/imported: 2 new/);
    expect(await payloadElements(options.page)).toEqual([]);

    // The page: painted, the card over the passage, the toolbar over a selection, the edit form.
    const page = await browser.context.newPage();
    watch(page);
    await page.goto(url);
    await waitForPainted(page, 1);
    const ui = new CaptureUi(page);
    await ui.clickPainted('was trained with GRPO');
    await ui.card.waitFor();
    const card = (await ui.card.textContent()) ?? '';
    for (const shown of [model, script, `note ${img} ${script}`]) expect(card).toContain(shown);
    expect(await payloadElements(page)).toEqual([]);
    await ui.card.getByTestId('card-edit').click();
    await ui.form.waitFor();
    expect(await ui.field('model').inputValue()).toBe(model);
    expect(await payloadElements(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await ui.select('was trained with GRPO');
    await ui.tagButton.waitFor();
    expect(await payloadElements(page)).toEqual([]);

    // The panel: survey, the model's view, this page's view.
    const panel = await PanelPage.open(browser, page);
    watch(panel.page);
    await panel.rows.first().waitFor();
    // One row for the model record, one for the claim's (model, recipe): open each.
    const rows = panel.page.locator('[data-testid=survey-row]', { hasText: model });
    expect(await rows.count()).toBe(2);
    let shown = '';
    for (let i = 0; i < 2; i++) {
      await rows.nth(i).getByTestId('open-model').click();
      const view = panel.page.getByTestId('model-view');
      await view.waitFor();
      shown += (await view.textContent()) ?? '';
      expect(await payloadElements(panel.page)).toEqual([]);
      await view.getByTestId('back').click();
      await rows.first().waitFor();
    }
    for (const text of [`note ${img} ${script}`, `judgment ${img} ${script}`, `vendor ${img}`]) expect(shown).toContain(text);
    await panel.tab('page');
    await panel.page.getByTestId('page-view').waitFor();
    expect(await payloadElements(panel.page)).toEqual([]);

    // The exports: Markdown escapes markup; CSV and JSONL carry it as data.
    await options.page.reload();
    const md = await options.exportFile('md');
    expect(md.text).toContain('&lt;img src=x onerror=');
    expect(md.text).not.toMatch(/<img|<script/);
    const jsonlOut = await options.exportFile('jsonl');
    expect(
      jsonlOut.text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .find((r) => r.id === claim.id)?.note,
    ).toBe(claim.note);

    for (const p of [page, panel.page, options.page]) expect(await p.evaluate(() => (window as unknown as { rlXss?: number }).rlXss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    for (const p of [page, panel.page, options.page]) await p.close();
  });
});

describe('8. a page cannot reach the store', () => {
  it('window.postMessage and DOM events from the page create nothing; the page has no extension API', async () => {
    const url = 'http://local.test/blank.html';
    const page = await browser.context.newPage();
    await page.goto(url);
    await page.waitForTimeout(300);
    const before = await readStore(storePage);
    const forged = testClaim('clm_forged_000001', url);
    const reached = await page.evaluate(forgeCallsInPage, forged);
    expect(reached).toEqual(['undefined', 'undefined']);
    await page.waitForTimeout(1000);
    expect(await readStore(storePage)).toEqual(before);
    expect(await page.locator('recipe-lens-ui').count()).toBe(0);
    await page.close();
  });

  it("a page hears no message from us, and cannot stop the content scripts by forging WXT's 'newer copy started' event", async () => {
    const url = 'http://local.test/forge.html';
    browser.override(
      url,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Forge</title><script>window.heard = []; addEventListener('message', (e) => window.heard.push(e.data));</script></head><body><main><p id="target">Forge-1 was trained with GRPO on math.</p></main></body></html>`,
    );
    const page = await browser.context.newPage();
    await page.goto(url);
    const world = await ContentWorld.attach(browser.context, page, browser.extensionId);
    expect(
      (
        await world.call('claims.save', {
          claims: [testClaim('clm_forge_000001', url, { quote: { exact: 'Forge-1 was trained with GRPO on math.', prefix: '', suffix: '' } })],
        })
      ).ok,
    ).toBe(true);
    await world.detach();
    await page.reload();
    await waitForPainted(page, 1);
    // Nothing we run posts to the page's window (WXT's "script started" postMessage is turned off).
    expect(await page.evaluate(() => (window as unknown as { heard: unknown[] }).heard)).toEqual([]);
    // A page that knows the extension's id (it is public for a store extension) can still build the event's name.
    const forged = await page.evaluate((id) => {
      const names: string[] = [];
      for (const script of ['claims', 'capture']) {
        const type = `${id}:${script}:wxt:content-script-started`;
        names.push(type);
        for (const target of [document, window]) target.dispatchEvent(new CustomEvent(type, { detail: { contentScriptName: script, messageId: 'forged' } }));
      }
      return names;
    }, browser.extensionId);
    expect(forged).toHaveLength(2);
    await page.waitForTimeout(500);
    expect(await waitForPainted(page, 1)).toHaveLength(1);
    const ui = new CaptureUi(page);
    await ui.select('Forge-1 was trained');
    await ui.tagButton.waitFor({ timeout: 5000 });
    expect(await page.locator('recipe-lens-notice').count()).toBe(0);
    await page.close();
  });

  it("the page's own storage holds none of our data, and our UI puts no claim into the page's DOM", async () => {
    const url = 'http://local.test/leak.html';
    browser.override(
      url,
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Leak</title></head><body><main><p>Leak-1 was trained with GRPO on code.</p></main></body></html>',
    );
    const secret = 'note-only-shown-in-our-card-4711';
    const page = await browser.context.newPage();
    await page.goto(url);
    const world = await ContentWorld.attach(browser.context, page, browser.extensionId);
    const saved = await world.call('claims.save', {
      claims: [
        testClaim('clm_leak_00000001', url, {
          model: 'Leak-1',
          note: secret,
          quote: { exact: 'Leak-1 was trained with GRPO on code.', prefix: '', suffix: '' },
        }),
      ],
    });
    expect(saved.ok).toBe(true);
    await world.detach();
    await page.reload();
    await waitForPainted(page, 1);
    const ui = new CaptureUi(page);
    await ui.clickPainted('trained with GRPO');
    await ui.card.waitFor();
    expect(await ui.card.textContent()).toContain(secret);
    const seen = await page.evaluate(async () => ({
      databases: (await indexedDB.databases()).map((d) => d.name),
      local: Object.keys(localStorage),
      session: Object.keys(sessionStorage),
      cookie: document.cookie,
      lightDom: document.documentElement.outerHTML,
      text: document.body.innerText,
      htmlAttributes: [...document.documentElement.attributes].map((a) => `${a.name}=${a.value}`),
      added: [...document.querySelectorAll('body ~ *, html > :not(head):not(body)')].map((e) => e.tagName.toLowerCase()),
    }));
    expect(seen.databases).toEqual([]);
    expect(seen.local).toEqual([]);
    expect(seen.session).toEqual([]);
    expect(seen.cookie).toBe('');
    expect(seen.lightDom).not.toContain(secret);
    expect(seen.text).not.toContain(secret);
    // What the page can see of us: our host element, nothing on <html>, no claim.
    expect(seen.added).toEqual(['recipe-lens-ui']);
    expect(seen.htmlAttributes.filter((a) => !a.startsWith('lang='))).toEqual([]);
    await page.close();
  });

  it('messages from another extension are refused and store nothing', async () => {
    const other = path.join(scratch, 'other-extension');
    const profile = path.join(scratch, 'other-profile');
    mkdirSync(other, { recursive: true });
    writeFileSync(
      path.join(other, 'manifest.json'),
      JSON.stringify({ manifest_version: 3, name: 'Another extension', version: '1.0', background: { service_worker: 'bg.js' } }),
    );
    writeFileSync(
      path.join(other, 'bg.js'),
      `self.probe = async (target, record) => {
  const out = {};
  const message = { channel: 'recipe-lens', type: 'claims.save', payload: { claims: [record] } };
  try { out.send = await chrome.runtime.sendMessage(target, message); } catch (e) { out.send = 'refused: ' + e.message; }
  out.port = await new Promise((resolve) => {
    const port = chrome.runtime.connect(target);
    port.onDisconnect.addListener(() => resolve('disconnected: ' + (chrome.runtime.lastError ? chrome.runtime.lastError.message : '')));
    port.onMessage.addListener((m) => resolve('answered: ' + JSON.stringify(m)));
    try { port.postMessage(message); } catch (e) { resolve('refused: ' + e.message); }
  });
  return out;
};`,
    );
    const owned = await startOwnedChromium(profile, { extraExtensions: [other] });
    try {
      const theirs =
        owned.context.serviceWorkers().find((w) => !w.url().includes(owned.extensionId)) ??
        (await owned.context.waitForEvent('serviceworker', { predicate: (w) => !w.url().includes(owned.extensionId) }));
      const record = testClaim('clm_other_ext_001', 'https://example.org/other');
      const result = await theirs.evaluate(({ id, record }) => (self as unknown as { probe: (id: string, r: unknown) => Promise<unknown> }).probe(id, record), {
        id: owned.extensionId,
        record,
      });
      expect(result).toEqual({ send: expect.stringMatching(/^refused: .*Receiving end does not exist/), port: expect.stringMatching(/^disconnected: /) });
      const reader = await owned.context.newPage();
      await reader.goto(`chrome-extension://${owned.extensionId}/manifest.json`);
      expect((await readStore(reader)).claims).toEqual([]);
    } finally {
      await owned.close();
    }
  });
});

describe('9. the content script survives hostile pages', () => {
  /** Selects a block's text with the mouse, as a curator would (no script in the page is involved). */
  async function dragSelect(page: Page, selector: string): Promise<void> {
    const box = (await page.locator(selector).boundingBox())!;
    await page.mouse.move(box.x + 1, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
  }

  /** How many passages are painted, read from our own world (the page's own may be broken). */
  const paintedIn = (world: ContentWorld) =>
    world.run(() => {
      let n = 0;
      CSS.highlights.forEach((h, name) => {
        if (name.startsWith('recipe-lens-') && name !== 'recipe-lens-pending' && name !== 'recipe-lens-active') n += h.size;
      });
      return n;
    }, null);

  it('a page that overrides Array.prototype, JSON, Range, getSelection, addEventListener and more: tag, save, paint again', async () => {
    const url = 'http://local.test/hostile/prototypes.html';
    const page = await browser.context.newPage();
    await page.goto(url);
    let world = await ContentWorld.attach(browser.context, page, browser.extensionId);
    await dragSelect(page, '#target');
    const ui = new CaptureUi(page);
    await ui.tagButton.click();
    await ui.form.waitFor();
    await ui.fill({ model: 'Hostile-1', value: 'GRPO' });
    await ui.save();
    await expect.poll(() => paintedIn(world)).toBe(1);
    const stored = (await readStore(storePage)).claims.filter((c) => c.source.url === url);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.quote.exact).toContain('used GRPO with rule-based rewards on math problems');
    const ours = world.exceptions.filter((e) => !/hostile page|hostile Range/.test(e));
    expect(ours).toEqual([]);
    await world.detach();
    await page.reload();
    world = await ContentWorld.attach(browser.context, page, browser.extensionId);
    await expect.poll(() => paintedIn(world), { timeout: 10_000 }).toBe(1);
    await world.detach();
    await page.close();
  });

  it('a page with 100,000 text nodes: its claim is painted and a new one is tagged', async () => {
    const url = 'http://local.test/hostile/many-nodes.html';
    const page = await browser.context.newPage();
    await page.goto(url);
    expect(
      await page.evaluate(() => {
        let n = 0;
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) n += 1;
        return n;
      }),
    ).toBeGreaterThan(100_000);
    const world = await ContentWorld.attach(browser.context, page, browser.extensionId);
    const target = 'At the very end, Long-1 was trained with PPO and a learned reward model.';
    expect(
      (
        await world.call('claims.save', {
          claims: [testClaim('clm_longpage_0001', url, { model: 'Long-1', value: 'PPO', quote: { exact: target, prefix: '', suffix: '' } })],
        })
      ).ok,
    ).toBe(true);
    await world.detach();
    const t0 = Date.now();
    await page.reload();
    const painted = await waitForPainted(page, 1, 30_000);
    expect(painted).toEqual([target]);
    expect(Date.now() - t0).toBeLessThan(30_000);
    const ui = new CaptureUi(page);
    await page.locator('#middle').scrollIntoViewIfNeeded();
    await dragSelect(page, '#middle');
    await ui.tagButton.click();
    await ui.form.waitFor();
    await ui.fill({ model: 'Long-1', value: 'GRPO' });
    // The whole form is reachable within the viewport (it scrolls when taller than the room below the passage).
    const box = (await ui.form.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    await ui.save();
    expect((await waitForPainted(page, 2)).sort()).toEqual(['Halfway through, Long-1 switched to GRPO for the reasoning stage.', target].sort());
    await page.close();
  });

  it('a page whose content security policy forbids inline styles and scripts: the UI is styled and works', async () => {
    const url = 'http://local.test/hostile/csp.html';
    const policy = "default-src 'none'; style-src 'self'; script-src 'none'; img-src 'none'";
    await browser.context.route(url, (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': policy },
        body: readFileSync(path.join(OWN_FIXTURES, 'hostile/csp.html')),
      }),
    );
    const page = await browser.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    expect(await page.evaluate(() => document.head.querySelector('style') === null)).toBe(true);
    const ui = new CaptureUi(page);
    await ui.select('Strict-1 was post-trained with DPO');
    await ui.tagButton.waitFor();
    // Our stylesheet applied in the UI's frame (an extension page: the page's policy does not govern it).
    expect(await ui.tagButton.evaluate((el) => getComputedStyle(el.closest('.rl-toolbar')!).backgroundColor)).toBe('rgb(31, 41, 55)');
    await ui.tagButton.click();
    await ui.form.waitFor();
    expect(await ui.form.evaluate((el) => getComputedStyle(el).borderRadius)).toBe('12px');
    await ui.fill({ model: 'Strict-1', value: 'DPO' });
    await ui.save();
    expect(await waitForPainted(page, 1)).toEqual(['Strict-1 was post-trained with DPO']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('frames: the content script runs in the top frame only (and says so); a passage inside a frame is never tagged or painted there', async () => {
    const url = 'http://local.test/hostile/frames.html';
    const page = await browser.context.newPage();
    await page.goto(url);
    const world = await ContentWorld.attach(browser.context, page, browser.extensionId);
    await page.frameLocator('#same').locator('#inner').waitFor();
    expect(world.framesWithOurScript()).toEqual([world.frameId]);
    const inner = page.frames().find((f) => f.url().endsWith('/hostile/frame-inner.html'))!;
    await inner.evaluate(() => {
      const range = document.createRange();
      range.selectNodeContents(document.getElementById('inner')!);
      getSelection()!.addRange(range);
      document.dispatchEvent(new PointerEvent('pointerup', { bubbles: true }));
    });
    await page.waitForTimeout(500);
    expect(await page.locator('recipe-lens-ui').count()).toBe(0);
    expect(await inner.locator('recipe-lens-ui').count()).toBe(0);
    // A claim whose passage is only inside a frame stays an orphan of the top page, never painted in the frame.
    const quote = 'Inside the frame, Framed-1 used DAPO with a verifier reward.';
    expect((await world.call('claims.save', { claims: [testClaim('clm_framed_00001', url, { quote: { exact: quote, prefix: '', suffix: '' } })] })).ok).toBe(
      true,
    );
    await world.detach();
    await page.reload();
    await expect.poll(() => badgeFor(browser.worker, url), { timeout: 10_000 }).toBe('1!');
    const paintedInFrame = await page
      .frames()
      .find((f) => f.url().endsWith('/hostile/frame-inner.html'))!
      .evaluate(() => [...CSS.highlights.keys()].filter((k) => String(k).startsWith('recipe-lens-')).length);
    expect(paintedInFrame).toBe(0);
    const manifest = JSON.parse(readFileSync(path.join(EXTENSION_DIR, 'manifest.json'), 'utf8'));
    for (const script of manifest.content_scripts) expect(script.all_frames ?? false).toBe(false);
    expect(readFileSync(path.join(ROOT, 'docs/permissions.md'), 'utf8')).toMatch(/top frame only/);
    await page.close();
  });
});

describe('10. permissions are the minimum, each explained; no remote code', () => {
  const manifest = JSON.parse(readFileSync(path.join(EXTENSION_DIR, 'manifest.json'), 'utf8')) as Record<string, any>;
  const doc = readFileSync(path.join(ROOT, 'docs/permissions.md'), 'utf8');
  const documented = doc.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| permission') && !l.startsWith('|---'));

  it('every permission and host permission the manifest asks for has a row in docs/permissions.md saying what uses it', () => {
    const asked = [...(manifest.permissions ?? []), ...(manifest.optional_permissions ?? []), ...(manifest.host_permissions ?? [])] as string[];
    expect(asked.length).toBeGreaterThan(0);
    for (const permission of asked) {
      const row = documented.find((l) => l.split('|')[1]!.includes(`\`${permission}\``));
      expect(row, `docs/permissions.md explains ${permission}`).toBeDefined();
      const [, , usedBy, why] = row!.split('|');
      expect(usedBy!.trim().length, `${permission}: used by`).toBeGreaterThan(3);
      expect(why!.trim().length, `${permission}: why`).toBeGreaterThan(20);
    }
    // Nothing the doc says is not requested is requested.
    const notRequested = /Not requested:([^]*?)\n\n/.exec(doc)![1]!;
    for (const name of [...notRequested.matchAll(/`([\w.]+)`/g)].map((m) => m[1]!)) expect(asked).not.toContain(name);
    for (const dangerous of ['<all_urls>', 'debugger', 'nativeMessaging', 'proxy', 'management', 'cookies', 'history']) expect(asked).not.toContain(dangerous);
    expect(manifest.externally_connectable).toBeUndefined();
    // One page a web page may embed: the capture UI's frame (no data in it until our script hands it a port).
    expect(manifest.web_accessible_resources).toEqual([{ resources: ['capture-ui.html'], matches: ['http://*/*', 'https://*/*'] }]);
    expect(doc).toContain('`capture-ui.html`');
  });

  it("the manifest's content security policy is the MV3 default or stricter", () => {
    const csp = manifest.content_security_policy as { extension_pages?: string; sandbox?: string } | undefined;
    if (csp?.extension_pages !== undefined) {
      const scriptSrc = /script-src([^;]*)/.exec(csp.extension_pages)?.[1]?.trim().split(/\s+/) ?? [];
      expect(scriptSrc.every((s) => s === "'self'" || s === "'wasm-unsafe-eval'")).toBe(true);
      expect(csp.extension_pages).not.toMatch(/unsafe-eval|unsafe-inline|https?:|\*/);
    } else {
      expect(csp).toBeUndefined();
    }
  });

  it('the build loads no remote script: every script and stylesheet is a file of the build, and no code fetches or imports code from the network', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else files.push(full);
      }
    };
    walk(EXTENSION_DIR);
    const offending: string[] = [];
    for (const full of files.filter((f) => /\.(html|js|mjs|css)$/.test(f))) {
      const text = readFileSync(full, 'utf8');
      const rel = path.relative(EXTENSION_DIR, full);
      for (const m of text.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)=["']([^"']+)["']/g)) {
        const target = m[1]!;
        if (/^(https?:)?\/\//.test(target)) offending.push(`${rel}: loads ${target}`);
        else expect(files, `${rel} refers to ${target}`).toContain(path.join(EXTENSION_DIR, target.replace(/^\//, '')));
      }
      for (const m of text.matchAll(/\b(?:importScripts|import)\s*\(\s*["'`](https?:)?\/\/[^"'`]*/g)) offending.push(`${rel}: ${m[0]}`);
      for (const m of text.matchAll(/@import\s+(?:url\()?["']?https?:/g)) offending.push(`${rel}: ${m[0]}`);
    }
    expect(offending).toEqual([]);
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(3);
  });

  it('`scripting` injects files of the build, the painting and the capture scripts, and never a function or code from elsewhere', () => {
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.(ts|tsx)$/.test(name)) sources.push(full);
      }
    };
    for (const dir of ['entrypoints', 'lib', 'components']) walk(path.join(ROOT, dir));
    const calls = sources.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/scripting\.(\w+)\(([^;]*)/g)].map((m) => ({ file: path.relative(ROOT, file), api: m[1]!, args: m[2]! })),
    );
    expect(calls.map((c) => `${c.file} ${c.api}`)).toEqual([
      'entrypoints/background/documents.ts insertCSS',
      'entrypoints/background/documents.ts executeScript',
    ]);
    expect(calls[0]!.args).toMatch(/files: \[HIGHLIGHT_STYLES\]/);
    expect(calls[1]!.args).toMatch(/files: \[file\]/);
    for (const call of calls) expect(call.args).not.toMatch(/func|args|world|css:/);
    const background = readFileSync(path.join(ROOT, 'entrypoints/background/documents.ts'), 'utf8');
    // The one call takes one of two constants (its parameter's type admits nothing else).
    expect(background).toMatch(/file: typeof CAPTURE_SCRIPT \| typeof PAINT_SCRIPT/);
    for (const name of ['CAPTURE_SCRIPT', 'PAINT_SCRIPT']) {
      const injected = new RegExp(`const ${name} = '([^']+)'`).exec(background)![1]!;
      expect(statSync(path.join(EXTENSION_DIR, injected)).isFile()).toBe(true);
    }
    const styles = /const HIGHLIGHT_STYLES = '([^']+)'/.exec(background)![1]!;
    expect(statSync(path.join(EXTENSION_DIR, styles)).isFile()).toBe(true);
    // Neither is listed in the manifest: pages without claims never load them. The one stylesheet every page gets (on
    // Chromium) is the page script's highlight styles on the root element, which no element matches but the root.
    expect(JSON.stringify(manifest.content_scripts)).not.toMatch(/capture|paint/);
    expect(manifest.content_scripts.flatMap((c: { css?: string[] }) => c.css ?? [])).toEqual(['content-scripts/claims.css']);
    const rules = readFileSync(path.join(EXTENSION_DIR, 'content-scripts/claims.css'), 'utf8').match(/[^{}]+\{[^}]*\}/g) ?? [];
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) expect(rule.trim()).toMatch(/^:root::highlight\(recipe-lens-[a-z]+\)\{/);
  });
});
