/** Rechecking sources: the run and the findings in the store; an extension page reads the sources and hands each source's findings in. */
import { acceptEdit, allClaims, claimsToRecheck, clearRecheckRun, getRecheckRun, getRechecks, saveFindings, startRecheckRun } from '../../lib/db';
import type { BackgroundCall, Handlers } from '../../lib/messages';
import { nowTimestamp, today } from '../../lib/time';
import { db } from './db';

/** Answers to the recheck calls. */
export const recheckHandlers = {
  async 'recheck.start'({ scope }) {
    return { run: await startRecheckRun(await db(), scope, crypto.randomUUID(), nowTimestamp()) };
  },
  async 'recheck.state'() {
    const d = await db();
    const [run, rechecks, claims] = await Promise.all([getRecheckRun(d), getRechecks(d), allClaims(d)]);
    const checked = new Set(rechecks.map((r) => r.url));
    return { run, rechecks, claims: claims.filter((c) => checked.has(c.source.url)) };
  },
  async 'recheck.source'({ url }) {
    return { claims: await claimsToRecheck(await db(), url) };
  },
  async 'recheck.save'({ findings }) {
    const d = await db();
    const now = nowTimestamp();
    const stored = await saveFindings(d, findings, { now, today: today() });
    return { stored, run: await getRecheckRun(d) };
  },
  async 'recheck.clear'() {
    await clearRecheckRun(await db());
    return { cleared: true };
  },
  async 'recheck.accept'({ id }) {
    return acceptEdit(await db(), id, nowTimestamp());
  },
} satisfies Partial<Handlers<BackgroundCall>>;
