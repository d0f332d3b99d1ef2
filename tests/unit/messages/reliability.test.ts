// Issue 6 (unit parts): the background validates every request and answers errors as values; it keeps no state
// in globals that a worker restart would lose; channel failures are retried with the same ids; old databases
// open (the migration tests themselves are in tests/unit/db/migrations.test.ts). End-to-end: tests/e2e/reliability.e2e.test.ts.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deleteDB } from 'idb';
import { browser } from 'wxt/browser';
import {
  CHANNEL,
  CallError,
  dispatch as dispatchCall,
  isTransient,
  protocol,
  routes,
  withRetry,
  type CallName,
  type Reply,
  type Routes,
} from '../../../lib/messages';
import { DB_NAME, MIGRATIONS, openRecipeDb } from '../../../lib/db';
import { createV2Database, V2_CLAIMS } from '../fixtures/db/v2';
import { storedClaims } from '../fixtures/db/stored';
import { claim } from '../fixtures/records';

type HandlersModule = typeof import('../../../entrypoints/background/index');

const ROOT = path.resolve(__dirname, '../../..');
const id = browser.runtime.id;
const tabSender = { id, tab: { id: 7 } as never, frameId: 0, url: 'https://example.org/zeta-2-report' };
const pageSender = { id, url: browser.runtime.getURL('/options.html') };
const msg = (type: string, payload: unknown) => ({ channel: CHANNEL, type, payload });
const SELF = { id, origin: browser.runtime.getURL('/') };
const dispatch = (table: Routes, message: unknown, sender: Parameters<typeof dispatchCall>[2]) => dispatchCall(table, message, sender, SELF);

/** A fresh copy of the background's handlers, as a worker that just started has them. */
async function startWorker(): Promise<{ handlers: HandlersModule; table: ReturnType<typeof routes> }> {
  vi.resetModules();
  const handlers = (await import('../../../entrypoints/background/index')) as HandlersModule;
  const table = routes(handlers.handlers);
  return { handlers, table };
}

/** Closes a worker's connection the way a newer version would (versionchange → blocking → close). */
async function stopWorker(handlers: HandlersModule): Promise<void> {
  (await handlers.db()).close();
}

beforeEach(async () => {
  await deleteDB(DB_NAME);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('every message handler validates its input and answers errors as values', () => {
  const calls = (Object.keys(protocol) as CallName[]).filter((type) => protocol[type].from !== 'background');
  const senderFor = (type: CallName) => (protocol[type].from === 'page' ? pageSender : tabSender);
  const garbage: unknown[] = [
    undefined,
    null,
    42,
    'claims',
    [],
    [{}],
    { claims: 'all' },
    { url: 'javascript:alert(1)', id: '../../../etc', ids: [null], text: 7, record: { schema: 'x' } },
  ];

  it.each(calls)('%s refuses malformed requests with an error value, before its handler runs', async (type) => {
    const { table } = await startWorker();
    let refused = 0;
    for (const payload of garbage) {
      const reply = await dispatch(table, msg(type, payload), senderFor(type) as never);
      // Calls that take no arguments accept any object (unknown keys are dropped, the handler gets `{}`).
      if (protocol[type].request.safeParse(payload).success) {
        expect(payload).toBeTypeOf('object');
        continue;
      }
      refused += 1;
      expect(reply, `${type} with ${JSON.stringify(payload)}`).toMatchObject({ ok: false, error: expect.stringMatching(/^invalid ".+" request: /) });
    }
    expect(refused).toBeGreaterThanOrEqual(5);
  });

  it.each(calls)('%s answers, whatever happens inside, with an ok or an error value (never a thrown exception)', async (type) => {
    const { table } = await startWorker();
    const payloads: Record<string, unknown> = {
      'document.claims': { url: 'https://example.org/zeta-2-report' },
      'document.status': { anchored: 1, orphans: 0 },
      'claims.save': { claims: [claim()] },
      'claims.delete': { ids: ['clm_nothere001'] },
      'claims.restore': { claims: [claim()] },
      'source.correct': { source: { url: 'https://example.org/zeta-2-report', title: 'T', kind: 'official_blog' } },
      'import.preview': { text: '{broken', fileName: 'x.jsonl', format: 'jsonl', mode: 'merge' },
      'import.commit': { token: 'gone', fileName: 'x.jsonl', format: 'jsonl', mode: 'merge', resolutions: [], rest: 'mine' },
      'survey.head': { models: 3 },
      'model.save': { record: { schema: 'rl-survey.model/1', model: 'Zeta-2', updated_at: '2026-11-29T10:05:00Z' } },
      'claims.reveal': { id: 'clm_nothere001', link: null },
      'tab.page': { windowId: 1 },
      'tab.passage': { tabId: 99, id: 'clm_nothere001', action: 'confirm' },
      'pdf.open': { url: 'https://example.org/a.pdf', tabId: null, page: null },
      'tab.pdf': { windowId: 1 },
      'settings.set': { pdfAutoOpen: true },
      'tab.finder': { tabId: 99, action: 'run' },
      'dismissals.get': { url: 'https://example.org/zeta-2-report' },
      'dismissals.add': { url: 'https://example.org/zeta-2-report', key: '0123456789abcdef', sentence: 'We use GRPO.' },
    };
    const reply = await dispatch(table, msg(type, payloads[type] ?? {}), senderFor(type) as never);
    expect(reply).toBeDefined();
    expect(typeof reply!.ok).toBe('boolean');
    if (!reply!.ok) expect(typeof reply!.error).toBe('string');
  });

  it('turns a missing claim into a sentence, not an exception', async () => {
    const { table } = await startWorker();
    expect(await dispatch(table, msg('claims.reveal', { id: 'clm_nothere001', link: null }), pageSender as never)).toEqual({
      ok: false,
      error: 'That claim is no longer in the store.',
    });
  });
});

describe('the background keeps no state that a restart would lose', () => {
  /** Module-level mutable state in the background, each with why losing it is harmless (and the test below that shows it). */
  const ALLOWED: Record<string, string> = {
    'db.ts:connection': 'the database connection: reopened on first use after a restart',
    'pdf-navigations.ts:wanted': 'a cache of the "open every PDF" setting stored in the database: read again at the next start',
    'pdf-navigations.ts:following':
      'whether the navigation listener is registered: at the next start it is registered again, then dropped once the setting says off',
    'claims-index.ts:written':
      'the claims index last written to storage.local, to skip writing it unchanged and to add an import’s pages to it: after a restart the next write rebuilds it from the store',
    'claims-index.ts:queue': 'the updates of the claims index still running, one after another: a restart ends them, and the next write rebuilds the index',
    'transfer.ts:previews': 'parsed import previews: a commit after a restart answers "expired" and the page sends the file again',
    'transfer.ts:uploads': 'file texts handed over for one preview or commit: after a restart the page sends the text with the call itself',
    'dataset.ts:fileSystem':
      "the clone's file system handle (lightning-fs over IndexedDB): opened again on first use; a clone is used only once marked complete",
    'pdf.ts:keeperOpening':
      "the PDF engine's keeper being opened, so that viewers asking at once open it once: after a restart the browser's list of contexts says whether it is open",
  };

  it('declares no other module-level let/var or mutable collection in entrypoints/background', () => {
    const dir = path.join(ROOT, 'entrypoints/background');
    const found: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
        const mutable =
          /^(?:export\s+)?(?:let|var)\s+(\w+)/.exec(line) ??
          /^(?:export\s+)?const\s+(\w+)\s*(?::[^=]+)?=\s*new\s+(?:Map|Set|WeakMap|Array)\b/.exec(line) ??
          /^(?:export\s+)?const\s+(\w+)\s*(?::[^=]+)?=\s*(?:\[\s*\]|\{\s*\})\s*;/.exec(line);
        if (mutable) found.push(`${file}:${mutable[1]}`);
      }
    }
    expect(found.sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it('claims saved before a restart are read after it (connection)', async () => {
    const before = await startWorker();
    expect(await dispatch(before.table, msg('claims.save', { claims: [claim()] }), tabSender as never)).toMatchObject({ ok: true });
    await stopWorker(before.handlers);
    const after = await startWorker();
    const reply = (await dispatch(after.table, msg('document.claims', { url: claim().source.url }), tabSender as never)) as Reply<{
      claims: Array<{ id: string }>;
    }>;
    expect(reply.ok && reply.data.claims.map((c) => c.id)).toEqual([claim().id]);
  });

  it('a setting changed before a restart holds after it (wanted)', async () => {
    const before = await startWorker();
    expect(await dispatch(before.table, msg('settings.set', { pdfAutoOpen: true }), pageSender as never)).toEqual({
      ok: true,
      data: { pdfAutoOpen: true, locale: 'auto', finderSites: [] },
    });
    await stopWorker(before.handlers);
    const after = await startWorker();
    expect(await dispatch(after.table, msg('settings.get', {}), pageSender as never)).toEqual({
      ok: true,
      data: { pdfAutoOpen: true, locale: 'auto', finderSites: [] },
    });
  });

  it('an import previewed before a restart is committed after it from the text the page still holds (previews)', async () => {
    const text = JSON.stringify(claim({ id: 'clm_previewed1' }));
    const before = await startWorker();
    const preview = (await dispatch(
      before.table,
      msg('import.preview', { text, fileName: 'a.jsonl', format: 'jsonl', mode: 'merge' }),
      pageSender as never,
    )) as Reply<{ token: string }>;
    expect(preview.ok).toBe(true);
    await stopWorker(before.handlers);
    const after = await startWorker();
    const commit = { token: preview.ok ? preview.data.token : '', fileName: 'a.jsonl', format: 'jsonl', mode: 'merge', resolutions: [], rest: 'mine' };
    expect(await dispatch(after.table, msg('import.commit', commit), pageSender as never)).toEqual({ ok: true, data: { status: 'expired' } });
    expect(await dispatch(after.table, msg('import.commit', { ...commit, text }), pageSender as never)).toMatchObject({
      ok: true,
      data: { status: 'stored', added: 1 },
    });
  });
});

describe('channel failures are retried with the same request', () => {
  it('treats the worker going away mid-call as transient, and an answered error as final', () => {
    expect(
      isTransient(new Error('A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received')),
    ).toBe(true);
    expect(isTransient(new Error('The message port closed before a response was received.'))).toBe(true);
    expect(isTransient(new Error('Could not establish connection. Receiving end does not exist.'))).toBe(true);
    expect(isTransient(new CallError('The browser has no room left to store this.'))).toBe(false);
    expect(isTransient(new Error('Extension context invalidated.'))).toBe(false);
  });

  it('gives up on an attempt nobody answers and sends the same request again', async () => {
    const sent: unknown[] = [];
    const request = { claims: [claim()] };
    let attempt = 0;
    const call = () => {
      sent.push(request);
      attempt += 1;
      // The first attempt is never answered (its worker was stopped); the second is.
      return attempt === 1 ? new Promise<string>(() => undefined) : Promise.resolve('saved');
    };
    const retries: number[] = [];
    await expect(withRetry(call, { timeoutMs: 50, delays: [10, 10], onRetry: (n) => retries.push(n) })).resolves.toBe('saved');
    expect(retries).toEqual([1]);
    expect(sent).toEqual([request, request]);
  });

  it('stops retrying after the last pause and reports the failure', async () => {
    let calls = 0;
    const failing = () => {
      calls += 1;
      return Promise.reject(new Error('Could not establish connection. Receiving end does not exist.'));
    };
    await expect(withRetry(failing, { delays: [1, 1, 1] })).rejects.toThrow(/Receiving end/);
    expect(calls).toBe(4);
  });
});

describe('old databases (migrations: tests/unit/db/migrations.test.ts)', () => {
  it('the background opens a version-2 store through its own getter with every record migrated', async () => {
    await createV2Database(DB_NAME);
    const { handlers } = await startWorker();
    const db = await handlers.db();
    expect(db.version).toBe(MIGRATIONS[MIGRATIONS.length - 1]!.version);
    expect((await storedClaims(db)).map((c) => c.id).sort()).toEqual(V2_CLAIMS.map((c) => c.id).sort());
    db.close();
  });

  it('an old connection held elsewhere does not block the upgrade: it closes itself and its owner reopens', async () => {
    const old = await openRecipeDb({ migrations: MIGRATIONS.slice(0, 2), onClosed: () => undefined });
    const { handlers } = await startWorker();
    const upgraded = await Promise.race([handlers.db(), new Promise<null>((r) => setTimeout(() => r(null), 5000))]);
    expect(upgraded?.version).toBe(MIGRATIONS[MIGRATIONS.length - 1]!.version);
    expect(() => old.transaction('models')).toThrow();
    upgraded!.close();
  });
});
