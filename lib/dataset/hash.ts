/**
 * Telling versions of a record apart cheaply: a record's identity across
 * stores (`recordRef`) and a short hash of one version of it. Pure.
 *
 * Two versions are the same when their canonical lines are (a missing
 * optional field equals its empty value, and a claim without a link equals
 * one whose link is its default text-fragment link, as in imports).
 */
import { serializeRecord } from '../export/jsonl';
import { withLink } from '../export/links';
import { recordRef } from '../import/preview';
import { CLAIM_SCHEMA, type ClaimRecord, type SurveyRecord } from '../schema';

export { recordRef };

/** The line that stands for one version of a record when versions are compared. */
export function versionLine(record: SurveyRecord): string {
  return serializeRecord(record.schema === CLAIM_SCHEMA ? withLink(record as ClaimRecord) : record);
}

/**
 * A 64-bit hash of a text as 16 hex digits: two independent 32-bit lanes
 * (multiply–xor over UTF-16 code units, then a final mix). Not cryptographic:
 * it tells versions of one record apart, where a collision costs one
 * republished record at worst.
 */
export function hashText(text: string): string {
  let a = 0x811c9dc5 ^ text.length;
  let b = 0x01000193 ^ Math.imul(text.length, 0x9e3779b1);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x85ebca6b);
    a ^= a >>> 13;
    b = Math.imul(b ^ c, 0xc2b2ae35);
    b ^= b >>> 16;
  }
  a = Math.imul(a ^ (a >>> 16), 0x7feb352d);
  a ^= a >>> 15;
  b = Math.imul(b ^ (b >>> 15), 0x846ca68b);
  b ^= b >>> 16;
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

// Records are never changed in place (every edit makes a new object), so a record's hash can be kept with it.
const hashes = new WeakMap<object, string>();

/** The hash of one version of a record (of its `versionLine`), worked out once per record object. */
export function recordHash(record: SurveyRecord): string {
  let hash = hashes.get(record);
  if (hash === undefined) {
    hash = hashText(versionLine(record));
    hashes.set(record, hash);
  }
  return hash;
}
