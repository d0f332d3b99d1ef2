/**
 * Low-level control of Chromium for the reliability and security tests: the
 * extension's service worker stopped through the DevTools protocol, the
 * content script's own (isolated) world, the store read from an extension
 * page, a held lock on the claims store, and a Chromium started by hand so
 * that a test can kill it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page, type Worker } from 'playwright-core';
import { CLAIM_SCHEMA, type ClaimRecord } from '../../lib/schema';
import { CHROMIUM_FLAGS, chromiumPath, extensionFlags } from '../../scripts/browsers.mjs';
import { EXTENSION_DIR, OWN_FIXTURES } from './harness';

/** Stops and watches the extension's service worker through a page's DevTools session. */
export class WorkerControl {
  private versionId: string | null = null;
  /** Running states seen, in order (`starting`, `running`, `stopping`, `stopped`). */
  readonly states: string[] = [];

  private constructor(
    readonly cdp: CDPSession,
    private readonly extensionId: string,
  ) {}

  /** Attaches to the service-worker domain of a page's DevTools session. */
  static async attach(context: BrowserContext, page: Page, extensionId: string): Promise<WorkerControl> {
    const control = new WorkerControl(await context.newCDPSession(page), extensionId);
    control.cdp.on('ServiceWorker.workerVersionUpdated', (event) => {
      for (const v of event.versions) {
        if (!v.scriptURL.startsWith(`chrome-extension://${extensionId}/`)) continue;
        control.versionId = v.versionId;
        control.states.push(v.runningStatus);
      }
    });
    await control.cdp.send('ServiceWorker.enable');
    const deadline = Date.now() + 10_000;
    while (control.versionId === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (control.versionId === null) throw new Error(`no service worker of ${extensionId} reported`);
    return control;
  }

  /** Stops the worker now (as Chrome does when it is idle or crashes); the next event starts it again. */
  async stop(): Promise<void> {
    await this.cdp.send('ServiceWorker.stopWorker', { versionId: this.versionId! });
  }

  /** Stops the worker at random intervals until the returned function is called; resolves to the number of stops. */
  stopRepeatedly(minMs: number, maxMs: number): () => Promise<number> {
    let running = true;
    let stops = 0;
    const loop = (async () => {
      while (running) {
        await new Promise((r) => setTimeout(r, minMs + Math.random() * (maxMs - minMs)));
        if (!running) break;
        await this.stop().then(
          () => (stops += 1),
          () => undefined,
        );
      }
    })();
    return async () => {
      running = false;
      await loop;
      return stops;
    };
  }

  /** Detaches the session. */
  async detach(): Promise<void> {
    await this.cdp.detach().catch(() => undefined);
  }
}

/** The content script's isolated world in a page's top frame: code run there speaks to the background as our content script. */
export class ContentWorld {
  private readonly contexts = new Map<number, { origin: string; frameId: string; name: string }>();
  private topFrame = '';
  /** console.log lines the content script's world printed, in order. */
  readonly logs: string[] = [];
  /** Uncaught exceptions in any world of the page (the page's own and ours). */
  readonly exceptions: string[] = [];

  private constructor(
    readonly cdp: CDPSession,
    private readonly extensionId: string,
  ) {}

  /** Opens a DevTools session on the page and finds our content script's world. */
  static async attach(context: BrowserContext, page: Page, extensionId: string): Promise<ContentWorld> {
    const world = new ContentWorld(await context.newCDPSession(page), extensionId);
    const { cdp } = world;
    cdp.on('Runtime.executionContextCreated', ({ context: c }) => {
      world.contexts.set(c.id, { origin: c.origin, frameId: (c.auxData as { frameId?: string } | undefined)?.frameId ?? '', name: c.name });
    });
    cdp.on('Runtime.executionContextDestroyed', ({ executionContextId }) => world.contexts.delete(executionContextId));
    cdp.on('Runtime.executionContextsCleared', () => world.contexts.clear());
    cdp.on('Runtime.exceptionThrown', ({ exceptionDetails: e }) => world.exceptions.push(e.exception?.description ?? e.text));
    cdp.on('Runtime.consoleAPICalled', (event) => {
      if (event.executionContextId !== world.contextId(false)) return;
      world.logs.push(event.args.map((a) => String(a.value ?? a.description ?? '')).join(' '));
    });
    const tree = await cdp.send('Page.getFrameTree');
    world.topFrame = tree.frameTree.frame.id;
    await cdp.send('Runtime.enable');
    const deadline = Date.now() + 10_000;
    while (world.contextId(false) === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    world.contextId(true);
    return world;
  }

  /** The id of our content script's context in the top frame. */
  contextId(required: true): number;
  contextId(required: false): number | null;
  contextId(required: boolean): number | null {
    const origin = `chrome-extension://${this.extensionId}`;
    const ids = [...this.contexts.entries()].filter(([, c]) => c.origin === origin && c.frameId === this.topFrame).map(([id]) => id);
    const id = ids.length ? Math.max(...ids) : null;
    if (id === null && required) throw new Error('the content script is not running in this page');
    return id;
  }

  /** Every frame id that has a context of our extension (the content script's worlds). */
  framesWithOurScript(): string[] {
    const origin = `chrome-extension://${this.extensionId}`;
    return [...new Set([...this.contexts.values()].filter((c) => c.origin === origin).map((c) => c.frameId))];
  }

  /** The page's top frame id. */
  get frameId(): string {
    return this.topFrame;
  }

  /** Runs `fn(arg)` in the content script's world and returns its (JSON) result. */
  async run<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
    const reply = await this.cdp.send('Runtime.evaluate', {
      contextId: this.contextId(true),
      expression: `(${fn.toString()})(${JSON.stringify(arg)})`,
      awaitPromise: true,
      returnByValue: true,
    });
    if (reply.exceptionDetails)
      throw new Error(`in the content script's world: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`);
    return reply.result.value as R;
  }

  /** Sends a protocol call as our content script and returns the raw reply (or the thrown error's message). */
  async call(type: string, payload: unknown): Promise<{ ok: boolean; data?: unknown; error?: string; thrown?: string }> {
    return this.run(
      async ({ type, payload }) => {
        try {
          const reply = await (globalThis as any).chrome.runtime.sendMessage({ channel: 'recipe-lens', type, payload });
          return reply ?? { ok: false, thrown: 'no answer' };
        } catch (error) {
          return { ok: false, thrown: String((error as Error).message ?? error) };
        }
      },
      { type, payload },
    );
  }

  /** Detaches the session. */
  async detach(): Promise<void> {
    await this.cdp.detach().catch(() => undefined);
  }
}

/** What the extension's IndexedDB holds. */
export interface StoreContents {
  version: number;
  claims: ClaimRecord[];
  models: Array<Record<string, unknown>>;
  sources: Array<Record<string, unknown>>;
}

/** Reads the whole store from an extension page (works while the worker is stopped); never creates the database. */
export async function readStore(extensionPage: Page): Promise<StoreContents> {
  return extensionPage.evaluate(
    () =>
      new Promise<StoreContents>((resolve, reject) => {
        const open = indexedDB.open('recipe-lens');
        let created = false;
        open.onupgradeneeded = () => {
          created = true;
          open.transaction?.abort();
        };
        open.onerror = () => (created ? resolve({ version: 0, claims: [], models: [], sources: [] }) : reject(open.error));
        open.onsuccess = () => {
          const db = open.result;
          // Version 7 on, a page's claims are one value of `pages`; before it, one value per claim in `claims`.
          const names = ['pages', 'claims', 'models', 'sources'].filter((n) => db.objectStoreNames.contains(n));
          const out: StoreContents = { version: db.version, claims: [], models: [], sources: [] };
          if (!names.length) {
            db.close();
            resolve(out);
            return;
          }
          const tx = db.transaction(names);
          for (const n of names) {
            const req = tx.objectStore(n).getAll();
            req.onsuccess = () => {
              if (n !== 'pages') (out as unknown as Record<string, unknown[]>)[n] = req.result;
              else
                out.claims = (req.result as Array<{ claims: StoreContents['claims'] }>)
                  .flatMap((p) => p.claims)
                  .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
            };
          }
          tx.oncomplete = () => {
            db.close();
            resolve(out);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

/** Holds a read-write transaction on the claims store from an extension page (the background's claim reads and writes wait); returns the release. */
export async function holdClaimsLock(extensionPage: Page): Promise<() => Promise<void>> {
  await extensionPage.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('recipe-lens');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const name = db.objectStoreNames.contains('pages') ? 'pages' : 'claims';
          const tx = db.transaction(name, 'readwrite');
          const store = tx.objectStore(name);
          const w = window as unknown as { recipeLensTestLock: boolean };
          w.recipeLensTestLock = true;
          // A transaction stays alive while it has requests: keep asking until told to stop.
          const spin = () => {
            if (w.recipeLensTestLock) store.get('\u0000lock').onsuccess = spin;
          };
          spin();
          tx.oncomplete = () => db.close();
          resolve();
        };
      }),
  );
  return async () => {
    await extensionPage.evaluate(() => {
      (window as unknown as { recipeLensTestLock: boolean }).recipeLensTestLock = false;
    });
  };
}

/** A claim record for `url`, valid for the schema; override any field. */
export function testClaim(id: string, url: string, overrides: Partial<ClaimRecord> & Record<string, unknown> = {}): ClaimRecord {
  return {
    schema: CLAIM_SCHEMA,
    id,
    model: 'Zeta-2',
    recipe: null,
    kind: 'algorithm',
    stage: 'reasoning_rl',
    value: 'GRPO',
    evidence: 'B',
    evidence_reason: null,
    quote: { exact: `Passage ${id}`, prefix: '', suffix: '' },
    position: null,
    source: { url, title: 'A test page', kind: 'official_blog', publisher: 'Test Lab', published: null, accessed: '2026-11-29' },
    link: null,
    note: '',
    curator: 'tester',
    created_at: '2026-11-29T10:00:00Z',
    updated_at: '2026-11-29T10:00:00Z',
    ...overrides,
  } as ClaimRecord;
}

/** A page with `count` numbered paragraphs, each a distinct passage to tag. */
export function paragraphsPage(title: string, count: number): { html: string; passages: string[] } {
  const passages = Array.from(
    { length: count },
    (_, i) => `Passage number ${i + 1} says the team trained the model with reinforcement learning round ${i + 1}.`,
  );
  const body = passages.map((p) => `<p>${p}</p>`).join('\n');
  return {
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
    passages,
  };
}

/** A Chromium started by hand with the extension, on a profile folder the test keeps, so the test can kill it. */
export interface OwnedChromium {
  process: ChildProcess;
  browser: Browser;
  context: BrowserContext;
  extensionId: string;
  /** Serves this HTML at a local.test URL. */
  serve(url: string, html: string): void;
  /** Kills the whole browser (its process group) at once, as a crash or power cut would; no shutdown runs. */
  kill(): Promise<void>;
  /** Closes the browser normally. */
  close(): Promise<void>;
}

/** The id Chromium gives an unpacked extension: from the SHA-256 of its folder's path, in the letters a–p. */
export function unpackedExtensionId(dir: string): string {
  const hex = createHash('sha256').update(path.resolve(dir)).digest('hex').slice(0, 32);
  return [...hex].map((h) => String.fromCharCode(97 + Number.parseInt(h, 16))).join('');
}

/** Starts Chromium with the built extension (and any `extraExtensions` folders) on `userDataDir`, connected over the DevTools protocol. */
export async function startOwnedChromium(userDataDir: string, options: { extraExtensions?: string[] } = {}): Promise<OwnedChromium> {
  if (!existsSync(path.join(EXTENSION_DIR, 'manifest.json'))) throw new Error('The extension is not built. Run `npm run build` first.');
  const child = spawn(
    chromiumPath(),
    [
      '--headless=new',
      `--user-data-dir=${userDataDir}`,
      '--remote-debugging-port=0',
      ...extensionFlags(EXTENSION_DIR, ...(options.extraExtensions ?? [])),
      ...CHROMIUM_FLAGS,
      '--no-default-browser-check',
      '--hide-crash-restore-bubble',
      'about:blank',
    ],
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start: ${text.slice(-500)}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(text);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`Chromium exited early (${code}): ${text.slice(-500)}`)));
  });
  child.stderr!.resume();
  const browser = await chromium.connectOverCDP(endpoint);
  const context = browser.contexts()[0]!;
  const served = new Map<string, string>();
  await context.route('http://local.test/**', async (route) => {
    const url = route.request().url().split('#')[0]!.split('?')[0]!;
    const html = served.get(url);
    if (html !== undefined) return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
    const file = path.join(OWN_FIXTURES, new URL(url).pathname.replace(/^\/+/, ''));
    if (!file.startsWith(OWN_FIXTURES) || !existsSync(file)) return route.fulfill({ status: 404, contentType: 'text/plain', body: 'no such page' });
    return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: readFileSync(file) });
  });
  const extensionId = unpackedExtensionId(EXTENSION_DIR);
  const ours = (w: Worker) => w.url().startsWith(`chrome-extension://${extensionId}/`);
  if (!context.serviceWorkers().some(ours)) await context.waitForEvent('serviceworker', { predicate: ours, timeout: 20_000 });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    browser,
    context,
    extensionId,
    serve: (url, html) => served.set(url, html),
    async kill() {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
      await exited;
    },
    async close() {
      await browser.close().catch(() => undefined);
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}

/** The extension's running service worker, woken by a harmless call from an extension page when it was stopped. */
export async function liveWorker(context: BrowserContext, extensionId: string, extensionPage: Page): Promise<Worker> {
  const ours = () => context.serviceWorkers().filter((w) => w.url().startsWith(`chrome-extension://${extensionId}/`));
  for (const w of ours().reverse()) {
    if (
      await w
        .evaluate(() => 1)
        .then(
          () => true,
          () => false,
        )
    )
      return w;
  }
  const next = context.waitForEvent('serviceworker', { predicate: (w) => w.url().startsWith(`chrome-extension://${extensionId}/`), timeout: 15_000 });
  await extensionPage.evaluate(() =>
    (globalThis as any).chrome.runtime.sendMessage({ channel: 'recipe-lens', type: 'settings.get', payload: {} }).catch(() => undefined),
  );
  return next;
}

/**
 * Creates the database in the extension's origin as an older (or newer) version left it: its stores, indexes and
 * records. With `replace`, the store there now is deleted first, in the same task as the open is asked for, so no
 * open by the extension can come between the two (the background's connection closes itself when asked).
 */
export async function createDatabaseAs(
  target: Page | Worker,
  spec: {
    replace?: boolean;
    version: number;
    stores: Array<{ name: string; keyPath?: string; indexes?: Array<[string, string]> }>;
    records: Record<string, Array<{ key?: string; value: unknown }>>;
  },
): Promise<void> {
  type Spec = typeof spec;
  // Page and Worker evaluate alike; one of the two signatures is enough for the compiler.
  await (target as Worker).evaluate(
    (s: Spec) =>
      new Promise<void>((resolve, reject) => {
        if (s.replace) indexedDB.deleteDatabase('recipe-lens');
        const open = indexedDB.open('recipe-lens', s.version);
        open.onupgradeneeded = () => {
          const db = open.result;
          for (const store of s.stores) {
            const os = db.createObjectStore(store.name, store.keyPath ? { keyPath: store.keyPath } : undefined);
            for (const [name, keyPath] of store.indexes ?? []) os.createIndex(name, keyPath);
          }
        };
        open.onerror = () => reject(open.error);
        open.onblocked = () => reject(new Error('blocked'));
        open.onsuccess = () => {
          const db = open.result;
          const names = Object.keys(s.records);
          if (!names.length) {
            db.close();
            resolve();
            return;
          }
          const tx = db.transaction(names, 'readwrite');
          for (const name of names) for (const r of s.records[name]!) tx.objectStore(name).put(r.value, r.key);
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    spec,
  );
}

/** Deletes the extension's database (resolves once deleted; rejects if still blocked after `timeoutMs`). */
export async function deleteDatabase(extensionPage: Page, timeoutMs = 10_000): Promise<{ blockedFirst: boolean }> {
  return extensionPage.evaluate(
    (ms) =>
      new Promise<{ blockedFirst: boolean }>((resolve, reject) => {
        let blockedFirst = false;
        const timer = setTimeout(() => reject(new Error('deleting the database stayed blocked')), ms);
        const req = indexedDB.deleteDatabase('recipe-lens');
        req.onblocked = () => (blockedFirst = true);
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          clearTimeout(timer);
          resolve({ blockedFirst });
        };
      }),
    timeoutMs,
  );
}
