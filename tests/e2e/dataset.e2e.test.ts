// The team's dataset from inside the extension: two curators (two Chromium profiles) on one repository of a real git
// server (git http-backend on 127.0.0.1, Basic auth, a survey-check pre-receive hook), driven through the options
// page's Dataset card and the panel's dataset bar; the server's side read with the git CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutFiles, newReadme, serializeSource } from '../../lib/dataset';
import { SOURCE_SCHEMA, type ClaimRecord, type SourceRecord } from '../../lib/schema';
import { startGitServer, type GitServer } from '../support/git-server';
import { paragraphsPage, testClaim } from './control';
import { launchExtension, storedClaims, waitForPainted, squash, type ExtensionBrowser } from './harness';
import { DatasetCard } from './pages/dataset-ui';
import { PanelPage } from './pages/panel-page';

const LONG = 240_000;
const PAGE_URL = 'http://local.test/team-notes.html';
const PAGE = paragraphsPage('Team notes', 6);

let server: GitServer;
let alice: ExtensionBrowser;
let bob: ExtensionBrowser;
let a: DatasetCard;
let b: DatasetCard;

beforeAll(async () => {
  server = await startGitServer();
  alice = await launchExtension();
  bob = await launchExtension();
  for (const browser of [alice, bob]) browser.override(PAGE_URL, PAGE.html);
}, LONG);
afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await server?.close();
});

const at = (minute: number) => `2026-12-01T10:${String(minute).padStart(2, '0')}:00Z`;
/** A claim on the team page's passage `n`, saved at `minute`. */
const claim = (n: number, minute: number, overrides: Partial<ClaimRecord> = {}) =>
  testClaim(`clm_team_${String(n).padStart(6, '0')}`, PAGE_URL, {
    quote: { exact: PAGE.passages[n]!, prefix: '', suffix: '' },
    created_at: at(0),
    updated_at: at(minute),
    ...overrides,
  });

/** Stores claims exactly as given (times included), as an edit in that browser would. */
async function put(card: DatasetCard, ...claims: ClaimRecord[]): Promise<void> {
  expect(await card.call('claims.restore', { claims })).toMatchObject({ ok: true });
}

/** A file of the server's branch, read with the git CLI. */
function show(repo: string, path: string, ref = 'main'): string {
  return server.git(repo, 'show', `${ref}:${path}`);
}

/** The server's commits on a branch, newest first: subject, author, number of parents. */
function log(repo: string, ref = 'main'): Array<{ subject: string; author: string; parents: number }> {
  return server
    .git(repo, 'log', '--format=%s%x09%an%x09%P', ref)
    .trim()
    .split('\n')
    .map((line) => {
      const [subject, author, parents] = line.split('\t');
      return { subject: subject!, author: author!, parents: (parents ?? '').split(' ').filter(Boolean).length };
    });
}

/** The claims of one records file on the server, by id. */
function claimsOnServer(repo: string, path = 'records/claims/zeta-2.jsonl'): Map<string, ClaimRecord> {
  const lines = show(repo, path).trim().split('\n').filter(Boolean);
  const records = lines.map((l) => JSON.parse(l) as ClaimRecord);
  expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
  return new Map(records.map((r) => [r.id, r]));
}

async function storedNote(browser: ExtensionBrowser, id: string): Promise<string | undefined> {
  return (await storedClaims(browser.worker)).find((c) => c.id === id)?.note;
}

describe('two curators on one dataset', () => {
  const repo = 'team';

  it(
    'A connects, sees the dry run and publishes; B connects, pulls, and sees A’s claims painted on the page and in the panel',
    async () => {
      server.createRepo(repo);
      a = await DatasetCard.open(alice.context, alice.extensionId);
      await expect.poll(() => a.root.getByTestId('dataset-empty').count()).toBe(1);
      await a.connect({ url: server.url(repo), name: 'Alice', username: 'alice', token: 'alice-token' });
      await put(a, claim(0, 1, { note: 'first' }), claim(1, 1, { note: 'second' }), claim(2, 1, { note: 'third' }));
      await expect.poll(async () => (await a.status()).unpublished).toBe(3);
      // The last recheck of the page, imported as a JSONL line: a publish writes it into records/sources.jsonl.
      const rechecked: SourceRecord = {
        schema: SOURCE_SCHEMA,
        url: PAGE_URL,
        checked: '2026-12-02',
        status: 'unchanged',
        claims: { unchanged: 3, edited: 0, gone: 0 },
        updated_at: at(2),
      };
      const file = { text: `${serializeSource(rechecked)}\n`, fileName: 'recheck.jsonl', format: 'jsonl', mode: 'merge' };
      const preview = await a.call('import.preview', file);
      expect(preview.data.sourceRecords).toEqual({ incoming: 1, added: 1, updated: 0, unchanged: 0 });
      expect(await a.call('import.commit', { ...file, token: preview.data.token, resolutions: [], rest: 'mine' })).toMatchObject({ ok: true });

      const run = await a.dryRun();
      expect(await run.getByTestId('dataset-dry-run-totals').textContent()).toContain('3 added, 0 changed, 0 deleted');
      expect(await run.locator('[data-testid=dataset-model-change][data-model="Zeta-2"]').count()).toBe(1);
      expect(await run.getByTestId('dataset-commit-message').inputValue()).toContain('Recipe Lens: 3 claims added on 1 model');
      await a.root.getByTestId('dataset-publish-cancel').click();
      const published = await a.publish();
      expect(published).toMatchObject({ ok: true });
      expect(published.text).toContain('Published to main');
      await expect.poll(async () => (await a.status()).unpublished).toBe(0);
      expect(log(repo)).toEqual([{ subject: 'Recipe Lens: 3 claims added on 1 model; 1 source record updated', author: 'Alice', parents: 0 }]);
      expect(server.git(repo, 'ls-tree', '-r', '--name-only', 'main').trim().split('\n')).toEqual([
        'README.md',
        'records/claims/zeta-2.jsonl',
        'records/models.jsonl',
        'records/sources.jsonl',
      ]);
      expect(show(repo, 'records/sources.jsonl')).toBe(`${serializeSource(rechecked)}\n`);
      expect([...claimsOnServer(repo).keys()]).toHaveLength(3);
      // The token never reaches the database (a backup is the whole store).
      const backup = await a.call('backup.create', {});
      expect(backup.ok).toBe(true);
      expect(backup.data.text).not.toContain('alice-token');

      b = await DatasetCard.open(bob.context, bob.extensionId);
      await b.connect({ url: server.url(repo), name: 'Bob', username: 'bob', token: 'bob-token' });
      const pulled = await b.pull();
      expect(pulled).toMatchObject({ ok: true });
      expect(pulled.text).toContain('3 new, 0 updated, 0 deleted');
      expect((await storedClaims(bob.worker)).map((c) => c.id).sort()).toEqual([claim(0, 1).id, claim(1, 1).id, claim(2, 1).id]);
      // The source record came with the pull (a backup is the whole store).
      expect((await b.call('backup.create', {})).data.text).toContain(serializeSource(rechecked));

      const page = await bob.context.newPage();
      await page.goto(PAGE_URL);
      const painted = (await waitForPainted(page, 3)).map(squash);
      for (const n of [0, 1, 2]) expect(painted).toContain(squash(PAGE.passages[n]!));
      const panel = await PanelPage.open(bob, page);
      await panel.row('Zeta-2').waitFor();
      const bar = panel.page.getByTestId('panel-dataset');
      await bar.waitFor();
      expect(await bar.getByTestId('dataset-status-line').textContent()).toContain('everything published');
      await panel.page.close();
      await page.close();
    },
    LONG,
  );

  it(
    'both edit different claims and publish (the second builds on the first); A publishes from the panel',
    async () => {
      await put(a, claim(0, 5, { note: 'A edits the first' }));
      await put(b, claim(1, 6, { note: 'B edits the second' }));
      const panel = await PanelPage.open(alice);
      const bar = panel.page.getByTestId('panel-dataset');
      await expect.poll(async () => bar.getByTestId('dataset-status-line').getAttribute('data-unpublished')).toBe('1');
      await bar.getByTestId('panel-dataset-publish').click();
      const run = bar.getByTestId('panel-dataset-dry-run');
      await run.waitFor({ timeout: 60_000 });
      expect(await run.textContent()).toContain('0 added, 1 changed, 0 deleted');
      await bar.getByTestId('panel-dataset-confirm').click();
      await expect.poll(() => bar.getByTestId('panel-dataset-note').textContent(), { timeout: 90_000 }).toContain('Published to main');
      await panel.page.close();

      expect(await b.publish()).toMatchObject({ ok: true });
      const files = claimsOnServer(repo);
      expect(files.get(claim(0, 1).id)?.note).toBe('A edits the first');
      expect(files.get(claim(1, 1).id)?.note).toBe('B edits the second');
      expect(log(repo).map((e) => e.author)).toEqual(['Bob', 'Alice', 'Alice']);
      expect(await a.pull()).toMatchObject({ ok: true });
      expect(await storedNote(alice, claim(1, 1).id)).toBe('B edits the second');
    },
    LONG,
  );

  it(
    'both edit the same claim at different times: the newer edit wins everywhere',
    async () => {
      await put(b, claim(2, 10, { note: 'B, earlier' }));
      await put(a, claim(2, 20, { note: 'A, later' }));
      expect(await b.publish()).toMatchObject({ ok: true });
      expect(await a.publish()).toMatchObject({ ok: true });
      expect(await b.pull()).toMatchObject({ ok: true });
      expect(claimsOnServer(repo).get(claim(2, 1).id)?.note).toBe('A, later');
      expect(await storedNote(alice, claim(2, 1).id)).toBe('A, later');
      expect(await storedNote(bob, claim(2, 1).id)).toBe('A, later');
    },
    LONG,
  );

  it(
    'both edit it at the same time: a conflict shown to the second curator, settled side by side, then published',
    async () => {
      await put(a, claim(0, 30, { note: 'A at 10:30' }));
      await put(b, claim(0, 30, { note: 'B at 10:30' }));
      expect(await a.publish()).toMatchObject({ ok: true });
      // B's publish leaves the tie out and says so; nothing of B's version reaches the server.
      const run = await b.dryRun();
      expect(await run.getByTestId('dataset-dry-run-conflicts').textContent()).toContain('1 change conflicts with the dataset');
      await b.root.getByTestId('dataset-publish-cancel').click();
      const pulled = await b.pull();
      expect(pulled.ok).toBe(true);
      const conflict = b.root.locator(`[data-testid=conflict][data-ref="claim:${claim(0, 1).id}"]`);
      await conflict.waitFor();
      expect(await conflict.locator('[data-field=note] [data-testid=mine]').textContent()).toBe('B at 10:30');
      expect(await conflict.locator('[data-field=note] [data-testid=theirs]').textContent()).toBe('A at 10:30');
      expect((await b.status()).conflicts).toBe(1);
      // Nothing was overwritten silently.
      expect(await storedNote(bob, claim(0, 1).id)).toBe('B at 10:30');
      await conflict.getByTestId('take-mine').check();
      await b.root.getByTestId('dataset-settle').click();
      await expect.poll(async () => (await b.status()).conflicts, { timeout: 60_000 }).toBe(0);
      expect(await b.publish()).toMatchObject({ ok: true });
      const settled = claimsOnServer(repo).get(claim(0, 1).id)!;
      expect(settled.note).toBe('B at 10:30');
      expect(Date.parse(settled.updated_at)).toBeGreaterThan(Date.parse(at(30)));
      expect(await a.pull()).toMatchObject({ ok: true });
      expect(await storedNote(alice, claim(0, 1).id)).toBe('B at 10:30');
      // Every publish was a plain commit on the branch; the README is what survey render gives (the hook checked).
      expect(log(repo).every((e) => e.parents <= 1)).toBe(true);
      expect(show(repo, 'README.md')).toContain('This dataset holds 3 claims about 1 model.');
    },
    LONG,
  );

  it(
    'A deletes a claim and publishes; B pulls, and the claim is gone for B too (a tombstone on the server)',
    async () => {
      const id = claim(1, 1).id;
      expect(await a.call('claims.delete', { ids: [id] })).toMatchObject({ ok: true });
      const run = await a.dryRun();
      expect(await run.getByTestId('dataset-dry-run-totals').textContent()).toContain('0 added, 0 changed, 1 deleted');
      await a.root.getByTestId('dataset-publish-confirm').click();
      await a.root.getByTestId('dataset-published').waitFor({ timeout: 90_000 });
      expect(claimsOnServer(repo).get(id)?.deleted_at).toBeTruthy();
      const pulled = await b.pull();
      expect(pulled.text).toContain('1 deleted');
      expect((await storedClaims(bob.worker)).map((c) => c.id)).not.toContain(id);
      expect(show(repo, 'README.md')).toContain('This dataset holds 2 claims about 1 model.');
    },
    LONG,
  );
});

describe('faults: nothing is lost', () => {
  const repo = 'faults';

  it(
    'a bad token: Test connection says so plainly, and nothing is saved',
    async () => {
      server.createRepo(repo);
      const card = await DatasetCard.open(bob.context, bob.extensionId);
      await card.fill({ url: server.url(repo), name: 'Bob', username: 'bob', token: 'not-the-token' });
      const said = await card.testConnection();
      expect(said).toMatchObject({ ok: false, code: 'auth' });
      expect(said.text).toContain('refused the token');
      await card.root.getByTestId('dataset-url').fill(`${server.origin}/nowhere.git`);
      await card.root.getByTestId('dataset-token').fill('bob-token');
      expect(await card.testConnection()).toMatchObject({ ok: false, code: 'not-found' });
      await card.page.close();
      // The saved connection is still the team's.
      expect((await b.call('dataset.get', {})).data.link.url).toBe(server.url('team'));
    },
    LONG,
  );

  it(
    'the server down during a push: the changes stay unpublished, and a retry publishes them once',
    async () => {
      await a.fill({ url: server.url(repo), name: 'Alice', username: 'alice', token: 'alice-token' });
      await a.root.getByTestId('dataset-save').click();
      await a.page.locator('[data-testid=dataset-panel][data-connected=yes]').waitFor();
      expect(await a.publish()).toMatchObject({ ok: true });
      await put(a, claim(3, 40, { note: 'written while the host is down' }));
      const run = await a.dryRun();
      expect(await run.getByTestId('dataset-dry-run-totals').textContent()).toContain('1 added');
      // The host goes away between the dry run and the push.
      await server.stop();
      await a.root.getByTestId('dataset-publish-confirm').click();
      const failed = a.root.getByTestId('dataset-failure');
      await failed.waitFor({ timeout: 90_000 });
      expect(await failed.getAttribute('data-code')).toBe('unreachable');
      expect(await failed.textContent()).toContain('cannot be reached');
      await expect.poll(async () => (await a.status()).unpublished).toBe(1);
      await server.start();
      expect(await a.publish()).toMatchObject({ ok: true });
      expect(claimsOnServer(repo).get(claim(3, 1).id)?.note).toBe('written while the host is down');
      expect((await a.status()).unpublished).toBe(0);
    },
    LONG,
  );

  it(
    'the server refusing the push from its hook: the hook’s message is shown, nothing is published',
    async () => {
      const head = server.git(repo, 'rev-parse', 'main').trim();
      // A hand-edited file (not in the export form) committed straight to the host: survey check now refuses every push.
      const odd = JSON.stringify(testClaim('clm_hook_000001', 'https://example.org/kimi', { model: 'Kimi K2' })).replace('{"schema"', '{ "schema"');
      server.commitDirectly(repo, 'main', { 'records/claims/kimi-k2.jsonl': `${odd}\n` }, 'Hand-edited file');
      await put(a, claim(4, 41, { note: 'refused by the hook' }));
      const refused = await a.publish();
      expect(refused).toMatchObject({ ok: false, code: 'refused' });
      expect(refused.text).toContain('push to refs/heads/main refused: the dataset does not pass survey check');
      expect(refused.text).toContain('records/claims/kimi-k2.jsonl:1');
      expect(log(repo)[0]!.subject).toBe('Hand-edited file');
      expect(server.git(repo, 'rev-parse', 'main~1').trim()).toBe(head);
      expect((await a.status()).unpublished).toBe(1);
      // Fixed on the host, the next publish goes through.
      server.commitDirectly(repo, 'main', { 'records/claims/kimi-k2.jsonl': '' }, 'Undo the hand edit');
      expect(await a.publish()).toMatchObject({ ok: true });
    },
    LONG,
  );

  it(
    'a non-fast-forward push: merged by record and pushed again, never forced',
    async () => {
      await put(a, claim(5, 42, { note: 'A, racing' }));
      const before = server.git(repo, 'rev-parse', 'main').trim();
      // Someone else publishes between A's fetch and A's push.
      let moved = '';
      server.beforeRequest = (r) => {
        if (moved || r.user !== 'alice' || r.method !== 'POST' || !r.path.endsWith('/git-receive-pack')) return;
        server.beforeRequest = null;
        const other = testClaim('clm_race_000001', 'https://example.org/glm', { model: 'GLM-5', note: 'published meanwhile' });
        const current = show(repo, 'records/claims/zeta-2.jsonl');
        moved = server.commitDirectly(
          repo,
          'main',
          { 'records/claims/glm-5.jsonl': `${JSON.stringify(other)}\n`, 'records/claims/zeta-2.jsonl': current },
          'Published meanwhile',
        );
      };
      const out = await a.publish();
      server.beforeRequest = null;
      expect(out).toMatchObject({ ok: true });
      expect(out.text).toContain('merged by record');
      expect(moved).not.toBe('');
      const entries = log(repo);
      expect(entries[0]).toMatchObject({ subject: 'Merge main into this publish by record id', parents: 2 });
      // Nothing was forced: the other commit and the one before are in the history.
      expect(() => server.git(repo, 'merge-base', '--is-ancestor', moved, 'main')).not.toThrow();
      expect(() => server.git(repo, 'merge-base', '--is-ancestor', before, 'main')).not.toThrow();
      expect(claimsOnServer(repo).get(claim(5, 1).id)?.note).toBe('A, racing');
      expect(show(repo, 'records/claims/glm-5.jsonl')).toContain('published meanwhile');
    },
    LONG,
  );
});

describe('a hostile dataset: refused by line or kept as text, nothing stored', () => {
  const repo = 'hostile';
  let card: DatasetCard;

  it(
    'a malformed line, a 50 MB file and a file under records/ outside the layout are refused with nothing stored',
    async () => {
      server.createRepo(repo);
      server.commitDirectly(repo, 'main', { 'README.md': '# A dataset\n', 'records/models.jsonl': '' }, 'Start');
      card = await DatasetCard.open(bob.context, bob.extensionId);
      await card.connect({ url: server.url(repo), name: 'Bob', username: 'bob', token: 'bob-token' });
      const before = (await storedClaims(bob.worker)).length;
      const good = JSON.stringify(testClaim('clm_hostile_0001', 'https://example.org/h', { model: 'Hostile' }));

      server.commitDirectly(repo, 'main', { 'records/claims/hostile.jsonl': `${good}\n{not json\n` }, 'A malformed line');
      const malformed = await card.pull();
      expect(malformed).toMatchObject({ ok: false, code: 'invalid-dataset' });
      expect(malformed.text).toContain('records/claims/hostile.jsonl:2');
      expect((await storedClaims(bob.worker)).length).toBe(before);

      const line = `${good}\n`;
      const big = Buffer.from(line.repeat(Math.ceil((50 * 1024 * 1024) / line.length)));
      server.commitDirectly(repo, 'main', { 'records/claims/hostile.jsonl': big }, 'A 50 MB file');
      const huge = await card.pull();
      expect(huge).toMatchObject({ ok: false, code: 'invalid-dataset' });
      expect(huge.text).toContain('records/claims/hostile.jsonl');
      expect((await storedClaims(bob.worker)).length).toBe(before);

      server.commitDirectly(repo, 'main', { 'records/claims/hostile.jsonl': '', 'records/extra/evil.jsonl': `${good}\n` }, 'Outside the layout');
      const outside = await card.pull();
      expect(outside).toMatchObject({ ok: false, code: 'invalid-dataset' });
      expect(outside.text).toContain('records/extra/evil.jsonl');
      expect((await storedClaims(bob.worker)).length).toBe(before);
    },
    LONG,
  );

  it(
    'a .jsonl file outside records/ is never read, and markup in every field is kept as text and shown as text',
    async () => {
      const markup = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>';
      const hostile = testClaim('clm_markup_00001', 'https://example.org/markup', {
        model: `Markup ${markup}`,
        value: `GRPO ${markup}`,
        note: markup,
        quote: { exact: markup, prefix: '<b onclick=alert(1)>', suffix: '</textarea><svg/onload=x>' },
        source: { url: 'https://example.org/markup', title: markup, kind: 'official_blog', publisher: markup, published: null, accessed: '2026-11-29' },
        curator: markup,
      });
      const files = Object.fromEntries([...layoutFiles([hostile])].filter(([path]) => path.startsWith('records/')));
      const other = 'hostile-text';
      server.createRepo(other);
      server.commitDirectly(
        other,
        'main',
        { 'README.md': '# A dataset\n', ...files, 'notes/stray.jsonl': `${JSON.stringify(testClaim('clm_stray_000001', 'https://example.org/stray'))}\n` },
        'Markup everywhere, and a stray file',
      );
      card ??= await DatasetCard.open(bob.context, bob.extensionId);
      await card.fill({ url: server.url(other), name: 'Bob', username: 'bob', token: 'bob-token' });
      await card.root.getByTestId('dataset-save').click();
      await card.page.locator('[data-testid=dataset-panel][data-connected=yes]').waitFor();
      const pulled = await card.pull();
      expect(pulled, pulled.text).toMatchObject({ ok: true });
      expect(pulled.text).toContain('1 new');
      const stored = await storedClaims(bob.worker);
      const kept = stored.find((c) => c.id === 'clm_markup_00001');
      expect(kept?.note).toBe(markup);
      expect(kept?.quote.exact).toBe(markup);
      expect(kept?.source.title).toBe(markup);
      expect(stored.map((c) => c.id)).not.toContain('clm_stray_000001');
      // The panel shows the markup as text: no element of it, no script run.
      const panel = await PanelPage.open(bob);
      const row = panel.page.locator('[data-testid=survey-row]', { hasText: 'Markup' });
      await row.first().waitFor();
      expect(await row.first().textContent()).toContain('<img src=x');
      expect(await panel.page.locator('.panel img, .panel script').count()).toBe(0);
      expect(await panel.page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
      await panel.page.close();
      await card.page.close();
    },
    LONG,
  );
});

describe('reviews: open, behind the branch, merged', () => {
  const repo = 'reviews';

  /** The card's row of a review, and its state. */
  const reviewRow = (card: DatasetCard, branch: string) => card.root.locator(`[data-testid=dataset-review][data-branch="${branch}"]`);

  it(
    'after a pull, a review the host merged shows as merged and one the branch moved past as behind; Update review rebuilds it and the host merges it cleanly',
    async () => {
      // A new dataset: what each store holds from before is deleted, so each review carries its curator's new model only.
      for (const [card, browser] of [
        [a, alice],
        [b, bob],
      ] as const) {
        const ids = (await storedClaims(browser.worker)).map((c) => c.id);
        if (ids.length) expect(await card.call('claims.delete', { ids })).toMatchObject({ ok: true });
      }
      const seed = [claim(5, 2, { id: 'clm_seed_000001', model: 'Seed-1' })];
      server.createRepo(repo, { seed: Object.fromEntries([...layoutFiles(seed), ['README.md', newReadme('Team survey', seed)]]) });
      const start = server.git(repo, 'rev-parse', 'main').trim();
      for (const [card, who] of [
        [a, 'alice'],
        [b, 'bob'],
      ] as const) {
        await card.fill({ url: server.url(repo), name: who === 'alice' ? 'Alice' : 'Bob', username: who, token: `${who}-token`, review: true });
        await card.root.getByTestId('dataset-save').click();
        await card.page.locator('[data-testid=dataset-panel][data-connected=yes]').waitFor();
        expect(await card.pull()).toMatchObject({ ok: true });
      }
      await put(a, claim(0, 50, { id: 'clm_alpha_00001', model: 'Alpha-1', note: 'Alice reviews Alpha-1' }));
      await put(b, claim(1, 51, { id: 'clm_beta_000001', model: 'Beta-1', note: 'Bob reviews Beta-1' }));
      for (const [card, who] of [
        [a, 'alice'],
        [b, 'bob'],
      ] as const) {
        const published = await card.publish();
        expect(published, published.text).toMatchObject({ ok: true });
        expect(published.text).toContain(`Published to curators/${who}`);
        await expect.poll(() => reviewRow(card, `curators/${who}`).getAttribute('data-state')).toBe('open');
        // Records only: the review leaves the README as the branch has it.
        expect(server.git(repo, 'diff', '--name-only', start, `curators/${who}`).trim().split('\n')).toEqual([
          `records/claims/${who === 'alice' ? 'alpha-1' : 'beta-1'}.jsonl`,
        ]);
      }
      expect(server.git(repo, 'rev-parse', 'main').trim()).toBe(start);

      // The host merges Alice's review with a plain merge.
      expect(server.merge(repo, 'main', 'curators/alice').conflicts).toEqual([]);
      expect(await a.pull()).toMatchObject({ ok: true });
      const alices = reviewRow(a, 'curators/alice');
      await expect.poll(() => alices.getAttribute('data-state')).toBe('merged');
      expect(await alices.getByTestId('dataset-review-state').textContent()).toBe('Merged');
      expect(await b.pull()).toMatchObject({ ok: true });
      const bobs = reviewRow(b, 'curators/bob');
      await expect.poll(() => bobs.getAttribute('data-state')).toBe('behind');
      expect(await bobs.getByTestId('dataset-review-state').textContent()).toBe('Behind the branch');
      await b.root.getByTestId('dataset-reviews').screenshot({ path: 'test-results/dataset-reviews.png' });

      // Update review: the dry run for review, then the publish; the review is built again on the branch's head.
      await bobs.getByTestId('dataset-review-update').click();
      const run = b.root.locator('[data-testid=dataset-dry-run]');
      await run.waitFor({ timeout: 60_000 });
      expect(await b.root.getByTestId('dataset-target-review').isChecked()).toBe(true);
      await b.root.getByTestId('dataset-publish-confirm').click();
      await b.root.getByTestId('dataset-published').waitFor({ timeout: 90_000 });
      await expect.poll(() => bobs.getAttribute('data-state')).toBe('open');
      const head = server.git(repo, 'rev-parse', 'main').trim();
      expect(() => server.git(repo, 'merge-base', '--is-ancestor', head, 'curators/bob')).not.toThrow();
      expect(server.merge(repo, 'main', 'curators/bob').conflicts).toEqual([]);
      expect(await b.pull()).toMatchObject({ ok: true });
      await expect.poll(() => bobs.getAttribute('data-state')).toBe('merged');
      // Both reviews' records are on the branch, and a fresh review list still says Alice's was merged.
      expect([...claimsOnServer(repo, 'records/claims/alpha-1.jsonl').keys()]).toEqual(['clm_alpha_00001']);
      expect([...claimsOnServer(repo, 'records/claims/beta-1.jsonl').keys()]).toEqual(['clm_beta_000001']);
      await a.page.reload();
      await expect.poll(() => reviewRow(a, 'curators/alice').getAttribute('data-state')).toBe('merged');
    },
    LONG,
  );
});
