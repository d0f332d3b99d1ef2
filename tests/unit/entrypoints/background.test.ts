// The background split by feature: every call the protocol sends to it has exactly one handler, and every write is
// followed, in one place, by its change notice and its count towards the backup reminder.
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { WRITES } from '../../../entrypoints/background/changes';
import { claimHandlers } from '../../../entrypoints/background/claims';
import { handlers } from '../../../entrypoints/background/index';
import { DB_NAME } from '../../../lib/db';
import { type CallName, changeNotice, joinHandlers, protocol, type Sender } from '../../../lib/messages';
import { claim } from '../fixtures/records';

const tabSender: Sender = { id: browser.runtime.id, tab: { id: 7 }, frameId: 0, url: 'https://example.org/zeta-2-report' };
const pageSender: Sender = { id: browser.runtime.id, url: browser.runtime.getURL('/options.html') };

beforeEach(async () => {
  await deleteDB(DB_NAME);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the background split by feature', () => {
  it('answers exactly the calls the protocol sends to the background', () => {
    const background = (Object.keys(protocol) as CallName[]).filter((type) => protocol[type].from !== 'background');
    expect(Object.keys(handlers).sort()).toEqual(background.sort());
  });

  it('refuses, at run time too, a call answered by two features', () => {
    const join = joinHandlers<'models.names'>() as (...parts: object[]) => unknown;
    expect(() => join(claimHandlers, { 'models.names': () => ({ names: [] }) })).toThrow(/"models.names" is answered twice/);
  });

  it('names a write only for calls the background answers', () => {
    for (const type of Object.keys(WRITES) as CallName[]) expect(protocol[type].from).not.toBe('background');
  });
});

describe('change notices after a write, in one place', () => {
  /** Records the notices sent to extension pages and the calls to tabs. */
  function listen() {
    const notices: unknown[] = [];
    const tabCalls: Array<{ tabId: number; message: unknown }> = [];
    vi.spyOn(browser.runtime, 'sendMessage').mockImplementation((async (message: unknown) => {
      notices.push(message);
    }) as never);
    vi.spyOn(browser.tabs, 'query').mockResolvedValue([
      { id: 7, url: 'https://example.org/zeta-2-report' },
      { id: 8, url: 'https://example.org/other' },
      { id: 9, url: 'chrome://extensions' },
    ] as never);
    vi.spyOn(browser.tabs, 'sendMessage').mockImplementation((async (tabId: number, message: unknown) => {
      tabCalls.push({ tabId, message });
      return { ok: true, data: { reloaded: true } };
    }) as never);
    return { notices, tabCalls };
  }

  it('tells every other http(s) tab and the extension pages, and counts the records for the backup reminder', async () => {
    const heard = listen();
    await handlers['claims.save']({ claims: [claim()] }, tabSender);
    await vi.waitFor(() => expect(heard.notices).toContainEqual(changeNotice('https://example.org/zeta-2-report')));
    // The tab that saved already knows; the browser's own pages get no call.
    expect(heard.tabCalls.map((c) => c.tabId)).toEqual([8]);
    expect(heard.tabCalls[0]!.message).toMatchObject({ type: 'claims.changed', payload: { url: 'https://example.org/zeta-2-report' } });
    await vi.waitFor(async () => expect((await handlers['backup.status']({}, pageSender)).changes).toBe(1));
  });

  it('says nothing after a call that writes nothing', async () => {
    const heard = listen();
    await handlers['models.names']({}, tabSender);
    await handlers['import.commit']({ token: 'gone', fileName: 'x.jsonl', format: 'jsonl', mode: 'merge', resolutions: [], rest: 'mine' }, pageSender);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard.notices).toEqual([]);
    expect(heard.tabCalls).toEqual([]);
  });

  it('tells every tab of a model record saved from a page (it concerns many pages)', async () => {
    const heard = listen();
    await handlers['model.save']({ record: { schema: 'rl-survey.model/1', model: 'Zeta-2', updated_at: '2026-11-29T10:05:00Z' } as never }, pageSender);
    await vi.waitFor(() => expect(heard.notices).toContainEqual(changeNotice(null)));
    expect(heard.tabCalls.map((c) => c.tabId).sort()).toEqual([7, 8]);
  });
});
