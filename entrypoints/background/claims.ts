/** Claims: saving (stamped, with a link), deleting and restoring them, model names for the form, and a page's source correction. */
import { acknowledgeReview, allClaims, deleteClaims, getClaims, modelNames, putClaims, putSource, reviewState } from '../../lib/db';
import { claimsToReview } from '../../lib/source/address-review';
import { withLink } from '../../lib/export/links';
import { addressesRefusal } from '../../lib/messages/addresses';
import { siteOf } from '../../lib/source/sites';
import { ourselves } from '../shared/messaging';
import type { BackgroundCall, Handlers } from '../../lib/messages';
import type { ClaimRecord } from '../../lib/schema';
import { nowTimestamp } from '../../lib/time';
import { db } from './db';

/** Stamps times on claims being saved: created_at kept from the stored copy, updated_at now. */
function stamp(claims: readonly ClaimRecord[], stored: readonly ClaimRecord[], now: string): ClaimRecord[] {
  const before = new Map(stored.map((c) => [c.id, c]));
  return claims.map((c) => ({ ...c, created_at: before.get(c.id)?.created_at ?? c.created_at, updated_at: now }));
}

/** Answers to the calls that write or read claims. */
export const claimHandlers = {
  async 'claims.save'({ claims }) {
    const d = await db();
    const stored = await getClaims(
      d,
      claims.map((c) => c.id),
    );
    // A claim saved without a link gets its text-fragment link (built without the page's text).
    const stamped = stamp(claims, stored, nowTimestamp()).map(withLink);
    await putClaims(d, stamped);
    return { claims: stamped };
  },
  async 'claims.delete'({ ids }, sender) {
    const d = await db();
    // A page may delete only its own site's claims (the ids it names are a claim, like an address).
    const refused = addressesRefusal(
      (await getClaims(d, ids)).map((c) => c.source.url),
      sender,
      ourselves(),
      siteOf,
    );
    if (refused) throw new Error(refused);
    return { deleted: await deleteClaims(d, ids) };
  },
  async 'claims.restore'({ claims }) {
    await putClaims(await db(), claims);
    return { claims };
  },
  async 'addresses.review'() {
    const d = await db();
    const [claims, state] = await Promise.all([allClaims(d), reviewState(d, nowTimestamp())]);
    return { claims: claimsToReview(claims, siteOf, state) };
  },
  async 'addresses.acknowledge'({ ids }) {
    return { acknowledged: await acknowledgeReview(await db(), ids, nowTimestamp()) };
  },
  async 'models.names'() {
    return { names: await modelNames(await db()) };
  },
  async 'source.correct'({ source }) {
    return { updated: await putSource(await db(), source, nowTimestamp()) };
  },
} satisfies Partial<Handlers<BackgroundCall>>;
