// The browser killed during a dataset clone and during a push (SIGKILL to the whole browser, as a crash or a power
// cut): the next try recovers — no half-made clone is used, no claim is lost or duplicated — against the real git
// server of tests/support.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { layoutFiles, newReadme } from '../../lib/dataset';
import type { ClaimRecord } from '../../lib/schema';
import { startGitServer, type GitServer } from '../support/git-server';
import { liveWorker, startOwnedChromium, testClaim, type OwnedChromium } from './control';
import { storedClaims } from './harness';

const LONG = 300_000;
const CLAIMS = 1200;
const REPO = 'crash';

let server: GitServer;
let profile: string;
let chromium: OwnedChromium | null = null;
const at = (minute: number) => `2026-12-01T10:${String(minute).padStart(2, '0')}:00Z`;
const records = Array.from({ length: CLAIMS }, (_, i) =>
  testClaim(`clm_crash_${String(i).padStart(6, '0')}`, `https://example.org/m${i % 60}`, {
    model: `Model ${i % 60}`,
    note: `claim ${i}`,
    updated_at: at(1),
  }),
);

beforeAll(async () => {
  server = await startGitServer();
  server.createRepo(REPO, { seed: { ...Object.fromEntries(layoutFiles(records)), 'README.md': newReadme('Crash test', records) } });
  profile = mkdtempSync(path.join(tmpdir(), 'recipe-lens-dataset-crash-'));
}, LONG);
afterAll(async () => {
  await chromium?.close();
  await server?.close();
  rmSync(profile, { recursive: true, force: true });
});

async function optionsPage(browser: OwnedChromium): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(`chrome-extension://${browser.extensionId}/options.html`);
  return page;
}

function call(page: Page, type: string, payload: unknown): Promise<any> {
  return page.evaluate(([type, payload]) => (globalThis as any).chrome.runtime.sendMessage({ channel: 'recipe-lens', type, payload }), [
    type,
    payload,
  ] as const);
}

/** Starts a dataset call, and kills the whole browser as soon as the server sees the request `match` begin. */
async function killDuring(page: Page, type: string, match: (method: string, path: string) => boolean): Promise<void> {
  let seen = false;
  server.beforeRequest = (r) => {
    if (r.user === 'alice' && match(r.method, r.path)) seen = true;
  };
  void call(page, type, {}).catch(() => undefined);
  await expect.poll(() => seen, { timeout: 120_000, interval: 20 }).toBe(true);
  server.beforeRequest = null;
  await chromium!.kill();
  chromium = null;
}

it(
  'killed during the clone of a pull, then during a publish’s push: each next try recovers, nothing lost or duplicated',
  async () => {
    chromium = await startOwnedChromium(profile);
    let page = await optionsPage(chromium);
    const link = { url: server.url(REPO), branch: 'main', name: 'Alice', username: 'alice', target: 'branch', pullOnStart: false, pullEveryMinutes: 0 };
    expect(await call(page, 'dataset.connect', { link, token: 'alice-token' })).toMatchObject({ ok: true });
    await killDuring(page, 'dataset.pull', (method, p) => method === 'POST' && p.endsWith('/git-upload-pack'));

    chromium = await startOwnedChromium(profile);
    page = await optionsPage(chromium);
    const pulled = await call(page, 'dataset.pull', {});
    expect(pulled).toMatchObject({ ok: true, data: { failure: null } });
    let worker = await liveWorker(chromium.context, chromium.extensionId, page);
    let stored = await storedClaims(worker);
    expect(stored).toHaveLength(CLAIMS);
    expect(new Set(stored.map((c) => c.id)).size).toBe(CLAIMS);

    const edited: ClaimRecord[] = records.slice(0, 20).map((r) => ({ ...r, note: `${r.note}, edited`, updated_at: at(5) }));
    expect(await call(page, 'claims.restore', { claims: edited })).toMatchObject({ ok: true });
    expect((await call(page, 'dataset.status', {})).data.unpublished).toBe(20);
    await killDuring(page, 'dataset.publish', (method, p) => method === 'POST' && p.endsWith('/git-receive-pack'));

    chromium = await startOwnedChromium(profile);
    page = await optionsPage(chromium);
    // Whether or not the killed push landed, the next publish leaves the server with each claim once, edited.
    const published = await call(page, 'dataset.publish', {});
    expect(published).toMatchObject({ ok: true, data: { failure: null } });
    expect((await call(page, 'dataset.status', {})).data.unpublished).toBe(0);
    const onServer = server
      .git(REPO, 'ls-tree', '-r', '--name-only', 'main')
      .trim()
      .split('\n')
      .filter((f) => f.startsWith('records/claims/'))
      .flatMap((f) => server.git(REPO, 'show', `main:${f}`).trim().split('\n').filter(Boolean))
      .map((l) => JSON.parse(l) as ClaimRecord);
    expect(onServer).toHaveLength(CLAIMS);
    expect(new Set(onServer.map((c) => c.id)).size).toBe(CLAIMS);
    expect(onServer.filter((c) => (c.note ?? '').endsWith(', edited'))).toHaveLength(20);
    worker = await liveWorker(chromium.context, chromium.extensionId, page);
    stored = await storedClaims(worker);
    expect(stored).toHaveLength(CLAIMS);
    expect(server.git(REPO, 'fsck', '--no-dangling').trim()).toBe('');
  },
  LONG,
);
