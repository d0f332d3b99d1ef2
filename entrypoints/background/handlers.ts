/** The background's answers to protocol calls: validated requests in, database work, change notices out. */
import { browser, type Browser } from 'wxt/browser';
import { silentTabReason } from './site-access';
import {
  allClaims,
  claimsForUrl,
  deleteClaims,
  getClaims,
  getSource,
  getBackupState,
  modelNames,
  noteChanges,
  takeBackup,
  openRecipeDb,
  putClaims,
  putModel,
  surveyHead,
  putSource,
  getSettings,
  dismissedKeys,
  putDismissal,
  type RecipeDatabase,
} from '../../lib/db';
import { siteListed } from '../../lib/finder/sites';
import { backupReminder, toBackup } from '../../lib/backup';
import { withLink } from '../../lib/export/links';
import { commitImport, previewImport } from './imports';
import { showTabStatus } from './badge';
import { callTab, changeNotice, type ContentCall, type Handlers, type PageCall, type SharedCall } from '../../lib/messages';
import type { ClaimRecord } from '../../lib/schema';
import { nowTimestamp } from '../../lib/time';
import { t } from '../../lib/i18n';
import { normalizeUrl } from '../../lib/source';
import { createPdfHandlers, isPdfClaim, isViewerTab, revealPdfClaim } from './pdf';

let connection: Promise<RecipeDatabase> | null = null;

/** The database connection, opened on first use (again after the worker restarts or a newer version closed it). */
export function db(): Promise<RecipeDatabase> {
  connection ??= openRecipeDb({ onClosed: () => (connection = null) }).catch((error: unknown) => {
    connection = null;
    throw error;
  });
  return connection;
}

/** The capture script's file in the build (the runtime-registered `capture` content script). */
const CAPTURE_SCRIPT = '/content-scripts/capture.js';

/** Tells every tab (but the one that made the change) that claims changed. */
async function notifyChanged(url: string | null, exceptTabId?: number): Promise<void> {
  const tabs = await browser.tabs.query({});
  await Promise.all(
    tabs
      .filter((tab) => tab.id !== undefined && tab.id !== exceptTabId && /^https?:/.test(tab.url ?? ''))
      .map((tab) => callTab(tab.id!, 'claims.changed', { url }).catch(() => undefined)),
  );
  // Extension pages (options, panel) listen for the same notice.
  await browser.runtime.sendMessage(changeNotice(url)).catch(() => undefined);
}

/** Stamps times on claims being saved: created_at kept from the stored copy, updated_at now. */
function stamp(claims: readonly ClaimRecord[], stored: readonly ClaimRecord[], now: string): ClaimRecord[] {
  const before = new Map(stored.map((c) => [c.id, c]));
  return claims.map((c) => ({ ...c, created_at: before.get(c.id)?.created_at ?? c.created_at, updated_at: now }));
}

/** Answers to calls only content scripts make. */
export const contentHandlers: Handlers<ContentCall> = {
  async 'page.claims'({ url }) {
    const d = await db();
    const [claims, source, settings] = await Promise.all([claimsForUrl(d, url), getSource(d, url), getSettings(d)]);
    // The finder runs by itself only on the sites the curator opted in; elsewhere it costs nothing until asked.
    return { claims, source: source ?? null, autoFind: siteListed(url, settings.finderSites) };
  },
  async 'page.status'({ anchored, orphans }, sender) {
    return { badge: await showTabStatus(sender.tab!.id!, anchored, orphans) };
  },
  async 'capture.load'(_request, sender) {
    // The sender rule admits only our content script in a tab's top frame.
    await browser.scripting.executeScript({ target: { tabId: sender.tab!.id!, frameIds: [sender.frameId ?? 0] }, files: [CAPTURE_SCRIPT] });
    return { loaded: true };
  },
};

/** Answers to calls content scripts and extension pages both make. */
export const sharedHandlers: Handlers<SharedCall> = {
  async 'claims.save'({ claims }, sender) {
    const d = await db();
    const stored = await getClaims(
      d,
      claims.map((c) => c.id),
    );
    // A claim saved without a link gets its text-fragment link (built without the page's text).
    const stamped = stamp(claims, stored, nowTimestamp()).map(withLink);
    await putClaims(d, stamped);
    void noteChanges(d, stamped.length, nowTimestamp()).catch(() => undefined);
    void notifyChanged(stamped[0]!.source.url, sender.tab?.id);
    return { claims: stamped };
  },
  async 'claims.delete'({ ids }, sender) {
    const deleted = await deleteClaims(await db(), ids);
    void noteChanges(await db(), deleted.length, nowTimestamp()).catch(() => undefined);
    void notifyChanged(deleted[0]?.source.url ?? null, sender.tab?.id);
    return { deleted };
  },
  async 'claims.restore'({ claims }, sender) {
    await putClaims(await db(), claims);
    void noteChanges(await db(), claims.length, nowTimestamp()).catch(() => undefined);
    void notifyChanged(claims[0]!.source.url, sender.tab?.id);
    return { claims };
  },
  async 'models.names'() {
    return { names: await modelNames(await db()) };
  },
  async 'source.correct'({ source }, sender) {
    const updated = await putSource(await db(), source, nowTimestamp());
    void noteChanges(await db(), updated, nowTimestamp()).catch(() => undefined);
    void notifyChanged(source.url, sender.tab?.id);
    return { updated };
  },
  async 'dismissals.get'({ url }) {
    return { keys: await dismissedKeys(await db(), url) };
  },
  async 'dismissals.add'({ url, key, sentence }) {
    await putDismissal(await db(), { url, key, sentence, dismissed_at: nowTimestamp() });
    return { stored: true };
  },
};

/** Answers to calls from the extension's own pages. */
export const pageHandlers: Handlers<PageCall> = {
  ...createPdfHandlers(db),
  async 'import.preview'(request) {
    return previewImport(await db(), request);
  },
  async 'import.commit'(request) {
    const outcome = await commitImport(await db(), request);
    if (outcome.status === 'stored' && (outcome.added || outcome.updated || outcome.taken || outcome.removed)) void notifyChanged(null);
    return outcome;
  },
  async 'backup.create'() {
    const createdAt = nowTimestamp();
    const contents = await takeBackup(await db(), createdAt);
    return {
      text: toBackup(contents, createdAt),
      createdAt,
      counts: { claims: contents.claims.length, models: contents.models.length, sources: contents.sources.length },
    };
  },
  async 'backup.status'() {
    const state = await getBackupState(await db());
    return { lastBackupAt: state.lastBackupAt, changes: state.changes, ...backupReminder(state, nowTimestamp()) };
  },
  async 'store.summary'() {
    const d = await db();
    const claims = await allClaims(d);
    const modelRecords = await d.getAll('models');
    const pages = new Set(claims.map((c) => c.source.url));
    const models = new Set([...claims.map((c) => c.model), ...modelRecords.map((m) => m.model)]);
    return {
      claims: claims.length,
      models: models.size,
      sources: pages.size,
      pages: pages.size,
      persisted: null,
      modelRecords: modelRecords.map(({ key: _key, ...record }) => record),
    };
  },
  async 'survey.data'() {
    const d = await db();
    const [claims, models] = await Promise.all([allClaims(d), d.getAll('models')]);
    // One string crosses the process boundary far faster than thousands of small objects.
    return { json: JSON.stringify({ claims, models: models.map(({ key: _key, ...record }) => record) }) };
  },
  async 'survey.head'({ models: count }) {
    return surveyHead(await db(), count);
  },
  async 'model.save'({ record }) {
    const stamped = { ...record, updated_at: nowTimestamp() };
    await putModel(await db(), stamped);
    void noteChanges(await db(), 1, nowTimestamp()).catch(() => undefined);
    void notifyChanged(null);
    return { record: stamped };
  },
  async 'claims.reveal'({ id, link }) {
    const [claim] = await getClaims(await db(), [id]);
    if (!claim) throw new Error('That claim is no longer in the store.');
    if (isPdfClaim(claim)) return revealPdfClaim(claim);
    const tab = await tabShowing(claim.source.url);
    if (tab?.id !== undefined) {
      await browser.tabs.update(tab.id, { active: true });
      if (tab.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true });
      const { found } = await callTab(tab.id, 'passage.reveal', { id }).catch(() => ({ found: false }));
      if (found) return { how: 'tab' as const };
    }
    await browser.tabs.create({ url: link ?? claim.link ?? claim.source.url, active: true });
    return { how: 'opened' as const };
  },
  async 'tab.page'({ windowId }) {
    const [tab] = await browser.tabs.query({ active: true, windowId });
    if (tab?.id === undefined) return { tabId: -1, report: null, reason: t('noActiveTab') };
    if (!/^https?:/.test(tab.url ?? '') && !isViewerTab(tab.url)) return { tabId: tab.id, report: null, reason: t('notWebPage') };
    // A page still loading may not have its content script yet: ask again briefly before giving up.
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        return { tabId: tab.id, report: await callTab(tab.id, 'page.report', {}), reason: null };
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    return { tabId: tab.id, report: null, reason: await silentTabReason(tab.url) };
  },
  async 'tab.passage'({ tabId, id, action }) {
    if (action === 'confirm') return { done: (await callTab(tabId, 'passage.confirm', { id })).confirmed };
    await browser.tabs.update(tabId, { active: true });
    return { done: (await callTab(tabId, 'passage.reattach', { id })).started };
  },
  async 'tab.finder'({ tabId, action, key }) {
    if (action === 'run') return { report: await callTab(tabId, 'finder.run', {}), opened: false };
    if (action === 'dismiss') return { report: null, opened: (await callTab(tabId, 'finder.dismiss', { key: key! })).dismissed };
    // The form opens in the page: bring its tab forward so the curator sees it.
    await browser.tabs.update(tabId, { active: true });
    const { opened } = action === 'accept' ? await callTab(tabId, 'finder.accept', { key: key! }) : await callTab(tabId, 'finder.undisclosed', {});
    return { report: null, opened };
  },
};

/** The open tab whose page is `url` (normalised), if any. */
async function tabShowing(url: string): Promise<Browser.tabs.Tab | undefined> {
  const tabs = await browser.tabs.query({});
  const bare = (u: string) => normalizeUrl(u).replace(/\/$/, '');
  const target = bare(url);
  return tabs.find((t) => t.active && t.url && bare(t.url) === target) ?? tabs.find((t) => t.url && bare(t.url) === target);
}
