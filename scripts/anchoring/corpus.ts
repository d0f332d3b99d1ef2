/**
 * The public corpus of real document revisions (../shared/fixtures/revisions, see its README) for the anchoring
 * calibration script and unit test: its passages, each pair's new rendered text, and the README's judging rule.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AnchorResult } from '../../lib/anchoring';

/** The corpus folder, beside the repository. */
export const REVISIONS = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'revisions');

/** Offsets [start, end) of a page's rendered text. */
export interface Span {
  start: number;
  end: number;
}

/** One passage: its selectors on the old revision, its class and where it is on the new one. */
export interface Passage {
  id: string;
  class: 'same' | 'edited' | 'removed';
  quote: { exact: string; prefix: string; suffix: string };
  position: Span;
  /** Where the passage is on the new revision, with the text there. */
  expected: Array<Span & { text: string }>;
  replacement?: Span;
}

/** Two revisions of a document and the passages captured on the old one. */
export interface Pair {
  id: string;
  /** Where both revisions are served. */
  url: string;
  new: { page: string };
  passages: Passage[];
}

/** How an anchoring result is judged: right, orphan, a removed passage painted on its own replacement, or wrong. */
export type Verdict = 'right' | 'orphan' | 'on-replacement' | 'wrong';

/** Whether the corpus is present. */
export function haveRevisions(): boolean {
  return existsSync(path.join(REVISIONS, 'cases.json'));
}

/** The corpus's pairs and counts. */
export function loadRevisions(): { pairs: Pair[]; counts: Record<'same' | 'edited' | 'removed' | 'passages', number> } {
  return JSON.parse(readFileSync(path.join(REVISIONS, 'cases.json'), 'utf8'));
}

/** The rendered text of a revision. */
export function revisionText(page: string): string {
  return readFileSync(path.join(REVISIONS, 'texts', `${page}.txt`), 'utf8');
}

/** The selectors a passage's claim stores. */
export function selectorsOf(p: Passage): { quote: Passage['quote']; position: { start: number; end: number } } {
  return { quote: p.quote, position: { start: p.position.start, end: p.position.end } };
}

/**
 * The README's rule: right when the painted span overlaps an expected one by at least half of the shorter of the
 * two; wrong when painted anywhere else; orphan when not painted. A removed passage painted on the text that
 * replaced it is told apart (a failure of the removed column, not a paint on a wrong passage, as in issue 13).
 */
export function judge(p: Passage, r: AnchorResult | undefined): Verdict {
  if (!r || r.status !== 'anchored') return 'orphan';
  if (p.class !== 'removed' && onExpected(p, r)) return 'right';
  return p.class === 'removed' && p.replacement && overlap(p.replacement, r) > 0 ? 'on-replacement' : 'wrong';
}

/** Characters two spans share (≤ 0 when they are apart). */
function overlap(a: Span, b: Span): number {
  return Math.min(a.end, b.end) - Math.max(a.start, b.start);
}

/** The README's "right": `at` overlaps one of the passage's expected spans by at least half of the shorter of the two. */
export function onExpected(p: Passage, at: Span): boolean {
  return p.expected.some((x) => overlap(x, at) >= 0.5 * Math.min(x.end - x.start, at.end - at.start));
}
