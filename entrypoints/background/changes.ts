/**
 * What happens after a write, in one place: the write counts towards the
 * backup reminder, and every other document and extension page hears that
 * claims changed. Each writing call says here what it changed; `noticeChanges`
 * wraps the handlers so that no handler notifies by itself.
 */
import { browser } from 'wxt/browser';
import { noteChanges } from '../../lib/db';
import { type BackgroundCall, changeNotice, type Handlers, type ParsedRequestOf, type ResponseOf, type Sender } from '../../lib/messages';
import { nowTimestamp } from '../../lib/time';
import { callTab } from '../shared/messaging';
import { db } from './db';

/** What a write changed: the page it concerns (null: many pages) and how many records (for the backup reminder). */
export interface Change {
  url: string | null;
  records: number;
}

type Writes = { [K in BackgroundCall]?: (request: ParsedRequestOf<K>, response: ResponseOf<K>) => Change | null };

/** The calls that write, and what each changed (null: nothing to tell). */
export const WRITES: Writes = {
  'claims.save': (_request, { claims }) => ({ url: claims[0]?.source.url ?? null, records: claims.length }),
  'claims.delete': (_request, { deleted }) => ({ url: deleted[0]?.source.url ?? null, records: deleted.length }),
  'claims.restore': (_request, { claims }) => ({ url: claims[0]?.source.url ?? null, records: claims.length }),
  'source.correct': ({ source }, { updated }) => ({ url: source.url, records: updated }),
  'model.save': () => ({ url: null, records: 1 }),
  // An accepted edit moves a claim to its page's new text: that page paints it there.
  'recheck.accept': (_request, { after }) => ({ url: after.source.url, records: 1 }),
  // A stored recheck changes no claim, but the panel's marks and "not disclosed" dates follow it.
  'recheck.save': ({ findings }) => ({ url: findings.url, records: 0 }),
  // An import counts its records itself (in its transaction); the pages only need to hear of it.
  'import.commit': (_request, outcome) =>
    outcome.status === 'stored' && (outcome.added || outcome.updated || outcome.taken || outcome.removed) ? { url: null, records: 0 } : null,
};

/** Tells every tab but the one that made the change (its own document already knows), and every extension page, that claims changed. */
export async function notifyChanged(url: string | null, exceptTabId?: number): Promise<void> {
  const tabs = await browser.tabs.query({});
  await Promise.all(
    tabs
      .filter((tab) => tab.id !== undefined && tab.id !== exceptTabId && /^https?:/.test(tab.url ?? ''))
      .map((tab) => callTab(tab.id!, 'claims.changed', { url }).catch(() => undefined)),
  );
  // Extension pages (options, panel, the PDF viewer) listen for the same notice.
  await browser.runtime.sendMessage(changeNotice(url)).catch(() => undefined);
}

/** After a write: counts it towards the backup reminder and tells the others (neither holds up the answer). */
function afterWrite(change: Change, sender: Sender): void {
  if (change.records > 0)
    void db().then(
      (d) => noteChanges(d, change.records, nowTimestamp()).catch(() => undefined),
      () => undefined,
    );
  void notifyChanged(change.url, sender.tab?.id).catch(() => undefined);
}

/** The handlers, each writing call followed by its change notice. */
export function noticeChanges<K extends BackgroundCall>(handlers: Handlers<K>): Handlers<K> {
  const wrapped: Record<string, unknown> = { ...handlers };
  for (const [type, describe] of Object.entries(WRITES) as Array<[K, (request: unknown, response: unknown) => Change | null]>) {
    const handler = handlers[type] as ((request: unknown, sender: Sender) => unknown) | undefined;
    if (!handler) continue;
    wrapped[type] = async (request: unknown, sender: Sender) => {
      const response = await handler(request, sender);
      const change = describe(request, response);
      if (change) afterWrite(change, sender);
      return response;
    };
  }
  return wrapped as Handlers<K>;
}
