/**
 * The whole survey for the panel and the options page: every record (the spec's source records too: the "not
 * disclosed, as of" days follow them, and exports carry them), the first rows, counts, and model records.
 */
import { allClaims, KeptUntilWrite, putModel, SURVEY_HEAD_STORES, sourceRecords, surveyHead } from '../../lib/db';
import type { BackgroundCall, Handlers } from '../../lib/messages';
import { TextReads } from '../../lib/messages/text-parts';
import { nowTimestamp } from '../../lib/time';
import { db } from './db';

/** Reads of the whole survey in parts (a store of 100,000 claims is larger than one message may be). */
const reads = new TextReads({ newId: () => crypto.randomUUID(), now: () => Date.now() });

/**
 * The evidence panel's first rows, asked for on every opening: kept while nothing is written, so a panel opened again
 * is answered from memory instead of reading the store while its page loads on the same cores.
 */
const head = new KeptUntilWrite(SURVEY_HEAD_STORES, surveyHead);

/** Answers to the calls that read the whole survey or write a model record. */
export const surveyHandlers = {
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
  async 'survey.data'({ read, from }) {
    if (read !== undefined) return reads.next(read, from ?? 0);
    const d = await db();
    const [claims, models, sources] = await Promise.all([allClaims(d), d.getAll('models'), sourceRecords(d)]);
    // One string crosses the process boundary far faster than thousands of small objects; a long one goes in parts.
    return reads.first(() => JSON.stringify({ claims, models: models.map(({ key: _key, ...record }) => record), sources }));
  },
  async 'survey.head'({ models: count }) {
    return head.get(await db(), count);
  },
  async 'model.save'({ record }) {
    const stamped = { ...record, updated_at: nowTimestamp() };
    await putModel(await db(), stamped);
    return { record: stamped };
  },
} satisfies Partial<Handlers<BackgroundCall>>;
