// Issue 6, "Nothing lost": every claim the UI reported as saved is still there, once, unchanged —
// through service-worker stops, extension reloads, concurrent tabs, old databases, a full disk and a killed browser.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimRecord } from '../../lib/schema';
import { DB_VERSION } from '../../lib/db/migrations';
import { V2_CLAIMS, V2_FINGERPRINT, V2_MODELS } from '../unit/fixtures/db/v2';
import {
  ContentWorld,
  WorkerControl,
  createDatabaseAs,
  deleteDatabase,
  holdClaimsLock,
  liveWorker,
  paragraphsPage,
  readStore,
  startOwnedChromium,
  testClaim,
  type OwnedChromium,
} from './control';
import { launchExtension, paintedTexts, waitForPainted, type ExtensionBrowser } from './harness';
import { CaptureUi } from './pages/capture-ui';
import { OptionsPage } from './pages/options-page';

let browser: ExtensionBrowser;
/** An extension document that runs none of our code (the manifest), to read the store while the worker is stopped. */
let storePage: Page;
beforeAll(async () => {
  browser = await launchExtension();
  // The worker opens the database as it starts, so the store it made is replaced by a version-2 store, as the previous
  // release left it (delete and open asked for in one task: nothing the worker does can come between them).
  storePage = await browser.context.newPage();
  await storePage.goto(`chrome-extension://${browser.extensionId}/manifest.json`);
  await createDatabaseAs(browser.worker, {
    replace: true,
    version: 2,
    stores: [
      {
        name: 'claims',
        keyPath: 'id',
        indexes: [
          ['by-url', 'source.url'],
          ['by-model', 'model'],
          ['by-updated', 'updated_at'],
        ],
      },
      { name: 'models', keyPath: 'key', indexes: [['by-updated', 'updated_at']] },
      { name: 'sources', keyPath: 'url' },
      { name: 'meta' },
    ],
    records: {
      claims: V2_CLAIMS.map((value) => ({ value })),
      models: V2_MODELS.map((m) => ({ value: { ...m, key: m.model } })),
      meta: [{ key: 'opened', value: 1 }],
    },
  });
});
afterAll(async () => {
  await browser?.close();
});

/** A protocol call from an extension page (the sender the background accepts for page calls). */
async function pageCall(type: string, payload: unknown): Promise<{ ok: boolean; data?: any; error?: string }> {
  return storePage.evaluate(({ type, payload }) => (globalThis as any).chrome.runtime.sendMessage({ channel: 'recipe-lens', type, payload }), {
    type,
    payload,
  });
}

/** Claims stored for one page URL. */
async function claimsOn(url: string): Promise<ClaimRecord[]> {
  return (await readStore(storePage)).claims.filter((c) => c.source.url === url);
}

/** Tags `passage` through the toolbar and the form; on a final error the curator presses save again. Returns the saves pressed. */
async function tagThroughUi(ui: CaptureUi, passage: string, values: { model: string; value: string }): Promise<number> {
  await ui.select(passage);
  await ui.tagButton.click();
  await ui.form.waitFor();
  await ui.fill(values);
  const save = ui.form.getByTestId('form-save');
  for (let pressed = 1; pressed <= 6; pressed++) {
    await save.click();
    // Wait until the form is gone (saved) or shows an error with saving over (the button enabled again).
    let outcome: 'saved' | 'error' | null = null;
    const deadline = Date.now() + 45_000;
    while (!outcome) {
      if (Date.now() > deadline) throw new Error(`"${passage}": the form neither closed nor showed an error`);
      if ((await ui.form.count()) === 0) outcome = 'saved';
      else if ((await ui.form.getByTestId('form-error').count()) > 0 && (await save.isEnabled().catch(() => false))) outcome = 'error';
      else await ui.page.waitForTimeout(50);
    }
    if (outcome === 'saved') return pressed;
  }
  throw new Error(`"${passage}" was never saved`);
}

/** Asserts that the stored claims on `url` are exactly one valid, unchanged record per passage. */
function expectOncePerPassage(stored: ClaimRecord[], passages: string[], values: { model: string; value: string }): void {
  for (const record of stored) expect(ClaimRecord.safeParse(record).success, `record ${record.id} is whole`).toBe(true);
  expect(stored.map((c) => c.quote.exact).sort()).toEqual([...passages].sort());
  expect(new Set(stored.map((c) => c.id)).size).toBe(stored.length);
  for (const record of stored) expect(record).toMatchObject({ model: values.model, value: values.value });
}

describe('4. a database of the previous schema version (unit tests: tests/unit/db/migrations.test.ts, tests/unit/messages/reliability.test.ts)', () => {
  it('opens the version-2 fixture, made in the extension origin before the extension opened it, with every record migrated', async () => {
    const options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    await expect.poll(() => options.claimCount(), { timeout: 15_000 }).toBe(V2_CLAIMS.length);
    const store = await readStore(storePage);
    expect(store.version).toBe(DB_VERSION);
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect([...store.claims].sort(byId)).toEqual([...V2_CLAIMS].sort(byId));
    expect(store.models).toEqual(V2_MODELS.map((m) => ({ ...m, key: m.model })));
    // The version-3 indexes find the migrated PDF claims.
    // Asked as the PDF viewer asks (a document's call): the viewer page without a file is the sender.
    const viewer = await browser.context.newPage();
    await viewer.goto(`chrome-extension://${browser.extensionId}/pdf-viewer.html`);
    const pdf = await viewer.evaluate(
      (payload) => (globalThis as any).chrome.runtime.sendMessage({ channel: 'recipe-lens', type: 'document.claims', payload }),
      { url: null, pdf: { fingerprint: V2_FINGERPRINT, arxiv: null } },
    );
    expect(pdf.ok).toBe(true);
    expect(pdf.data.claims.map((c: ClaimRecord) => c.id).sort()).toEqual(['clm_v2_pdf_0001', 'clm_v2_pdf_0002']);
    await viewer.close();
    await options.page.close();
  });

  it("the background's open connection does not block a newer version (blocking closes it); then, older than the store, it answers an error and changes nothing", async () => {
    expect((await pageCall('store.summary', {})).ok).toBe(true); // the background holds an open connection now
    const upgraded = await storePage.evaluate(
      (version) =>
        new Promise<{ version: number; blocked: boolean; ms: number }>((resolve, reject) => {
          const t0 = performance.now();
          let blocked = false;
          const timer = setTimeout(() => reject(new Error('the upgrade stayed blocked')), 10_000);
          const open = indexedDB.open('recipe-lens', version);
          open.onblocked = () => (blocked = true);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            clearTimeout(timer);
            open.result.close();
            resolve({ version: open.result.version, blocked, ms: performance.now() - t0 });
          };
        }),
      DB_VERSION + 1,
    );
    expect(upgraded.version).toBe(DB_VERSION + 1);
    expect(upgraded.blocked).toBe(false);
    const reply = await pageCall('store.summary', {});
    expect(reply.ok).toBe(false);
    expect(reply.error).toMatch(/version/i);
    const store = await readStore(storePage);
    expect(store.version).toBe(DB_VERSION + 1);
    expect(store.claims).toHaveLength(V2_CLAIMS.length);
    // Start the other tests from an empty store the extension creates itself.
    await deleteDatabase(storePage);
    await expect.poll(async () => (await pageCall('store.summary', {})).data?.claims, { timeout: 10_000 }).toBe(0);
  });
});

describe('1. the service worker stops under a save', () => {
  it('stopped between the click on save and the write: the save completes once, with the same id', async () => {
    const url = 'http://local.test/sw-mid-save.html';
    const { html, passages } = paragraphsPage('Stopped mid-save', 1);
    browser.override(url, html);
    const page = await browser.context.newPage();
    await page.goto(url);
    const control = await WorkerControl.attach(browser.context, page, browser.extensionId);
    const ui = new CaptureUi(page);
    await ui.select(passages[0]!);
    await ui.tagButton.click();
    await ui.form.waitFor();
    await ui.fill({ model: 'Mid-1', value: 'GRPO' });
    // The background's read before its write waits behind this lock: the save is in flight, nothing written.
    const release = await holdClaimsLock(storePage);
    await ui.form.getByTestId('form-save').click();
    await page.waitForTimeout(1000);
    expect(await ui.form.count()).toBe(1);
    await control.stop();
    await page.waitForTimeout(300);
    await release();
    // The form closes once the retried save is answered; while it is open it says why (shown if this fails).
    await expect
      .poll(
        async () =>
          (await ui.form.count())
            ? `open: ${await ui.form
                .getByTestId('form-error')
                .textContent({ timeout: 500 })
                .catch(() => 'saving…')}`
            : 'saved',
        { timeout: 30_000 },
      )
      .toBe('saved');
    expect(await ui.toasts.first().textContent()).toMatch(/Saved/i);
    expectOncePerPassage(await claimsOn(url), passages, { model: 'Mid-1', value: 'GRPO' });
    await control.detach();
    await page.close();
  });

  it('stopped while idle: the next save wakes it and completes once', async () => {
    const url = 'http://local.test/sw-idle.html';
    const { html, passages } = paragraphsPage('Stopped while idle', 2);
    browser.override(url, html);
    const page = await browser.context.newPage();
    await page.goto(url);
    const control = await WorkerControl.attach(browser.context, page, browser.extensionId);
    const ui = new CaptureUi(page);
    for (const passage of passages) {
      await control.stop();
      await expect.poll(() => control.states.at(-1), { timeout: 10_000 }).toBe('stopped');
      await tagThroughUi(ui, passage, { model: 'Idle-1', value: 'PPO' });
    }
    expectOncePerPassage(await claimsOn(url), passages, { model: 'Idle-1', value: 'PPO' });
    await control.detach();
    await page.close();
  });

  it('stopped again and again while a batch is saved through the form: each claim stored once, whole', async () => {
    const url = 'http://local.test/sw-batch.html';
    const { html, passages } = paragraphsPage('Stopped during a batch', 4);
    browser.override(url, html);
    const page = await browser.context.newPage();
    await page.goto(url);
    const control = await WorkerControl.attach(browser.context, page, browser.extensionId);
    const ui = new CaptureUi(page);
    const halt = control.stopRepeatedly(150, 600);
    let pressed = 0;
    try {
      for (const passage of passages) pressed += await tagThroughUi(ui, passage, { model: 'Batch-1', value: 'DAPO' });
    } finally {
      const stops = await halt();
      // The scenario happened: the worker was stopped while the batch was being saved (how often depends on the machine's speed).
      expect(stops).toBeGreaterThan(0);
    }
    expect(pressed).toBeGreaterThanOrEqual(passages.length);
    expectOncePerPassage(await claimsOn(url), passages, { model: 'Batch-1', value: 'DAPO' });
    await control.detach();
    await page.close();
  });

  it('a protocol batch sent as the content script while the worker is stopped repeatedly: retried with the same ids, no duplicate, no partial record', async () => {
    const url = 'http://local.test/sw-protocol.html';
    browser.override(url, paragraphsPage('Protocol batch', 1).html);
    const page = await browser.context.newPage();
    await page.goto(url);
    const control = await WorkerControl.attach(browser.context, page, browser.extensionId);
    const world = await ContentWorld.attach(browser.context, page, browser.extensionId);
    const claims = Array.from({ length: 24 }, (_, i) => testClaim(`clm_swbatch_${String(i).padStart(4, '0')}`, url, { note: `batch ${i}` }));
    const halt = control.stopRepeatedly(100, 400);
    // The content script's own retry rule, in its world: channel failures are retried with the same record.
    const acked = await world.run(async (records) => {
      const done: string[] = [];
      for (const record of records) {
        for (let attempt = 0; attempt < 40; attempt++) {
          const reply = await Promise.race([
            (globalThis as any).chrome.runtime
              .sendMessage({ channel: 'recipe-lens', type: 'claims.save', payload: { claims: [record] } })
              .catch((e: Error) => ({ thrown: e.message })),
            new Promise((r) => setTimeout(() => r({ thrown: 'no answer in 5 s' }), 5000)),
          ]);
          if ((reply as { ok?: boolean })?.ok) {
            done.push(record.id);
            break;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      return done;
    }, claims);
    await halt();
    expect(acked).toEqual(claims.map((c) => c.id));
    const stored = await claimsOn(url);
    expect(stored.map((c) => c.id).sort()).toEqual(claims.map((c) => c.id).sort());
    for (const record of stored) {
      const sent = claims.find((c) => c.id === record.id)!;
      const { updated_at: _u, link: _l, ...rest } = record;
      const { updated_at: _su, link: _sl, ...sentRest } = sent;
      expect(rest).toEqual(sentRest);
    }
    await world.detach();
    await control.detach();
    await page.close();
  });
});

describe('3. two tabs save at the same moment', () => {
  it('200 times each, through the content scripts: all 400 stored', async () => {
    const urls = ['http://local.test/tab-a.html', 'http://local.test/tab-b.html'];
    const worlds: ContentWorld[] = [];
    for (const url of urls) {
      browser.override(url, paragraphsPage(url, 1).html);
      const page = await browser.context.newPage();
      await page.goto(url);
      worlds.push(await ContentWorld.attach(browser.context, page, browser.extensionId));
    }
    const start = Date.now() + 1500;
    const results = await Promise.all(
      worlds.map((world, t) =>
        world.run(
          async ({ records, start }) => {
            await new Promise((r) => setTimeout(r, Math.max(0, start - Date.now())));
            const out: string[] = [];
            for (const record of records) {
              const reply = await (globalThis as any).chrome.runtime
                .sendMessage({ channel: 'recipe-lens', type: 'claims.save', payload: { claims: [record] } })
                .catch((e: Error) => ({ ok: false, error: e.message }));
              out.push(reply?.ok ? 'ok' : String(reply?.error));
            }
            return out;
          },
          {
            records: Array.from({ length: 200 }, (_, i) => testClaim(`clm_tab${t}_${String(i).padStart(5, '0')}`, urls[t]!, { note: `tab ${t} save ${i}` })),
            start,
          },
        ),
      ),
    );
    for (const out of results) expect(out.filter((r) => r !== 'ok')).toEqual([]);
    const worker = await liveWorker(browser.context, browser.extensionId, storePage);
    const counted = await worker.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('recipe-lens');
          open.onsuccess = () => {
            // Every claim id, from the pages' index of them.
            const req = open.result.transaction('pages').objectStore('pages').getAll();
            req.onsuccess = () => {
              open.result.close();
              const ids = (req.result as Array<{ ids: string[] }>).flatMap((p) => p.ids);
              resolve(ids.filter((k) => /^clm_tab[01]_/.test(k)).length);
            };
            req.onerror = () => reject(req.error);
          };
          open.onerror = () => reject(open.error);
        }),
    );
    expect(counted).toBe(400);
    for (const url of urls) expect(await claimsOn(url)).toHaveLength(200);
    for (const world of worlds) await world.detach();
  });
});

describe('5. the disk is full on save', () => {
  it('a tiny quota does not stop saves: the store is unlimited (unlimitedStorage), and the browser says the override is active', async () => {
    const url = 'http://local.test/quota.html';
    browser.override(url, paragraphsPage('Quota', 1).html);
    const page = await browser.context.newPage();
    await page.goto(url);
    const world = await ContentWorld.attach(browser.context, page, browser.extensionId);
    const origin = `chrome-extension://${browser.extensionId}`;
    await world.cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1024 });
    const usage = await world.cdp.send('Storage.getUsageAndQuota', { origin });
    expect(usage.overrideActive).toBe(true);
    expect(usage.usage).toBeGreaterThan(usage.quota);
    const record = testClaim('clm_quota_000001', url, { note: 'x'.repeat(20_000) });
    expect(await world.call('claims.save', { claims: [record] })).toMatchObject({ ok: true });
    expect((await claimsOn(url)).map((c) => c.id)).toEqual([record.id]);
    await world.cdp.send('Storage.overrideQuotaForOrigin', { origin });
    await world.detach();
    await page.close();
  });

  it('a save the disk cannot hold: a clear error, the claim kept in the form, nothing earlier touched; saving again later stores it once', async () => {
    const url = 'http://local.test/disk-full.html';
    const { html, passages } = paragraphsPage('Disk full', 2);
    browser.override(url, html);
    const page = await browser.context.newPage();
    await page.goto(url);
    const ui = new CaptureUi(page);
    await tagThroughUi(ui, passages[0]!, { model: 'Full-1', value: 'GRPO' });
    const before = await readStore(storePage);
    // Chrome reports a full disk when the write transaction commits: its requests succeed, then it aborts with
    // QuotaExceededError. Make the worker's next write end exactly so (the patch dies with the worker).
    const worker = await liveWorker(browser.context, browser.extensionId, storePage);
    await worker.evaluate(() => {
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: [unknown, IDBValidKey?]) {
        const request = put.apply(this, args);
        const tx = this.transaction as IDBTransaction & { full?: boolean };
        const w = globalThis as unknown as { rlAttempted?: string[][] };
        // A page's claims are one value: note the claim ids the value carries.
        const value = args[0] as { id?: string; ids?: string[] };
        (w.rlAttempted ??= []).push(value?.ids ?? [String(value?.id)]);
        if (!tx.full) {
          tx.full = true;
          Object.defineProperty(tx, 'error', { get: () => new DOMException('The disk is full.', 'QuotaExceededError') });
          request.addEventListener('success', () => tx.abort());
        }
        return request;
      };
    });
    await ui.select(passages[1]!);
    await ui.tagButton.click();
    await ui.form.waitFor();
    await ui.fill({ model: 'Full-2', value: 'PPO', note: 'Kept through a full disk.' });
    await ui.form.getByTestId('form-save').click();
    await expect
      .poll(
        () =>
          ui.form
            .getByTestId('form-error')
            .textContent()
            .catch(() => ''),
        { timeout: 20_000 },
      )
      .toMatch(/no room left.*save again/i);
    expect(await ui.field('model').inputValue()).toBe('Full-2');
    expect(await ui.field('note').inputValue()).toBe('Kept through a full disk.');
    expect(await ui.form.getByTestId('form-save').isEnabled()).toBe(true);
    expect(await readStore(storePage)).toEqual(before);
    const attempted = await worker.evaluate(() => (globalThis as unknown as { rlAttempted: string[][] }).rlAttempted);
    expect(attempted).toHaveLength(1);
    // Space is back (a fresh worker): the same form saves, once, under the id its first attempt carried.
    const control = await WorkerControl.attach(browser.context, page, browser.extensionId);
    await control.stop();
    await control.detach();
    await ui.form.getByTestId('form-save').click();
    await ui.form.waitFor({ state: 'detached', timeout: 20_000 });
    const after = await claimsOn(url);
    expect(after.map((c) => c.model).sort()).toEqual(['Full-1', 'Full-2']);
    expect(after.find((c) => c.model === 'Full-1')).toEqual(before.claims.find((c) => c.model === 'Full-1'));
    // The one value the first attempt wrote was the page's: the claim already there and the new one, under the id it carried then.
    const fullOne = before.claims.find((c) => c.model === 'Full-1')!.id;
    expect(attempted[0]!.filter((id) => id !== fullOne)).toEqual([after.find((c) => c.model === 'Full-2')!.id]);
    await page.close();
  });

  it('the options page shows whether storage is persistent', async () => {
    const options = await new OptionsPage(await browser.context.newPage(), browser.extensionId).open();
    const status = options.page.getByTestId('persistence');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).not.toMatch(/Checking/);
    const persisted = await options.page.evaluate(() => navigator.storage.persisted());
    expect(await status.textContent()).toMatch(persisted ? /Storage is persistent/ : /not marked persistent.*backups/);
    await options.page.close();
  });
});

describe('on a profile kept across browser runs', () => {
  const profile = mkdtempSync(path.join(tmpdir(), 'recipe-lens-profile-'));
  const crashUrl = 'http://local.test/crash.html';
  const records = Array.from({ length: 400 }, (_, i) =>
    testClaim(`clm_crash_${String(i).padStart(5, '0')}`, crashUrl, { note: `written before the crash ${i}` }),
  );
  let acked: string[] = [];
  /** The browser the next test continues in (the second run, after the kill). */
  let running: OwnedChromium | null = null;
  afterAll(async () => {
    await running?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  /** Reads the store in `owned` from an extension document. */
  async function storeOf(owned: OwnedChromium) {
    const reader = await owned.context.newPage();
    await reader.goto(`chrome-extension://${owned.extensionId}/manifest.json`);
    const store = await readStore(reader);
    await reader.close();
    return store;
  }

  /** Every claim acknowledged before the kill is in `stored`, whole and as sent. */
  function expectAcknowledged(stored: ClaimRecord[]): void {
    const byId = new Map(stored.map((c) => [c.id, c]));
    expect(new Set(stored.map((c) => c.id)).size).toBe(stored.length);
    for (const id of acked) {
      const record = byId.get(id);
      expect(record, `${id} was acknowledged before the kill`).toBeDefined();
      const { updated_at: _u, link: _l, ...kept } = record!;
      const { updated_at: _su, link: _sl, ...sent } = records.find((r) => r.id === id)!;
      expect(kept).toEqual(sent);
    }
    for (const record of stored) expect(ClaimRecord.safeParse(record).success).toBe(true);
  }

  it('11. the browser is killed while claims are being written: on restart, every claim acknowledged before the kill is there, whole and once', async () => {
    const first = await startOwnedChromium(profile);
    first.serve(crashUrl, paragraphsPage('Crash', 1).html);
    const page = await first.context.newPage();
    await page.goto(crashUrl);
    const world = await ContentWorld.attach(first.context, page, first.extensionId);
    // Writes run on in the content script; each acknowledgement is printed as it arrives.
    void world
      .run(async (all) => {
        for (const record of all) {
          const reply = await (globalThis as any).chrome.runtime
            .sendMessage({ channel: 'recipe-lens', type: 'claims.save', payload: { claims: [record] } })
            .catch(() => null);
          if (reply?.ok) console.log(`ack ${record.id}`);
        }
      }, records)
      .catch(() => undefined);
    await expect.poll(() => world.logs.length, { timeout: 30_000, interval: 20 }).toBeGreaterThanOrEqual(25);
    acked = world.logs.filter((l) => l.startsWith('ack ')).map((l) => l.slice(4));
    await first.kill();
    expect(acked.length).toBeGreaterThanOrEqual(25);
    expect(acked.length).toBeLessThan(records.length);

    running = await startOwnedChromium(profile);
    expect(running.extensionId).toBe(first.extensionId);
    expectAcknowledged((await storeOf(running)).claims);
  });

  it('2. the extension is reloaded under open pages: the content script stops cleanly, tells the curator to reload, throws nothing into the page; nothing is lost', async () => {
    running ??= await startOwnedChromium(profile);
    const owned = running;
    const painted = 'http://local.test/reload-painted.html';
    const idle = 'http://local.test/reload-idle.html';
    const { html, passages } = paragraphsPage('Reloaded under me', 2);
    owned.serve(painted, html);
    owned.serve(idle, html);
    const pages: Page[] = [];
    const errors: string[] = [];
    for (const url of [painted, idle]) {
      const page = await owned.context.newPage();
      page.on('pageerror', (e) => errors.push(`${url}: ${e.message}`));
      page.on('dialog', (d) => errors.push(`${url}: dialog ${d.message()}`));
      await page.goto(url);
      pages.push(page);
    }
    const [paintedPage, idlePage] = pages as [Page, Page];
    await tagThroughUi(new CaptureUi(paintedPage), passages[0]!, { model: 'Reload-1', value: 'GRPO' });
    await waitForPainted(paintedPage, 1);
    const worlds = [
      await ContentWorld.attach(owned.context, paintedPage, owned.extensionId),
      await ContentWorld.attach(owned.context, idlePage, owned.extensionId),
    ];
    const before = await storeOf(owned);
    expect(before.claims.filter((c) => c.source.url === painted)).toHaveLength(1);

    const worker = owned.context.serviceWorkers().find((w) => w.url().includes(owned.extensionId)) ?? (await owned.context.waitForEvent('serviceworker'));
    await worker.evaluate(() => (globalThis as any).chrome.runtime.reload()).catch(() => undefined);
    await expect.poll(() => worlds[0]!.run(() => (globalThis as any).chrome?.runtime?.id ?? null, null), { timeout: 10_000 }).toBeNull();

    // The curator goes on working in both pages: moving over the painted passage, selecting text to tag.
    await paintedPage.mouse.move(5, 5);
    await paintedPage.mouse.move(200, 120);
    await new CaptureUi(paintedPage).select(passages[1]!);
    await new CaptureUi(idlePage).select(passages[1]!);
    for (const page of pages) {
      await page.locator('recipe-lens-notice').waitFor({ state: 'attached', timeout: 10_000 });
      expect(await page.locator('recipe-lens-notice').count()).toBe(1);
      expect(await page.locator('recipe-lens-ui').count()).toBe(0);
    }
    expect(await paintedTexts(paintedPage)).toEqual([]);
    await idlePage.waitForTimeout(300);
    expect(errors).toEqual([]);
    for (const world of worlds) {
      expect(world.exceptions).toEqual([]);
      await world.detach();
    }

    // Nothing was lost: the next run of the extension (this Chromium does not bring back an extension loaded
    // from the command line after runtime.reload, so the browser is started again) has every claim, painted again.
    await owned.close();
    running = await startOwnedChromium(profile);
    running.serve(painted, html);
    const after = await storeOf(running);
    expect(after.claims).toEqual(before.claims);
    expectAcknowledged(after.claims);
    const again = await running.context.newPage();
    await again.goto(painted);
    await waitForPainted(again, 1);
  });
});
