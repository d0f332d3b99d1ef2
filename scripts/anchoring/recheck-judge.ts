/**
 * Recheck verdicts judged against the classes of the public revision corpus (../shared/fixtures/revisions, its
 * README's "Judging"), for the unit test and the `recheck` benchmark alike: a same passage should be `unchanged`, an
 * edited one `edited` on its expected span, a removed one `gone`; and no passage whose text changed may be `unchanged`.
 */
import { sameText, type ClaimVerdict } from '../../lib/recheck/verdicts';
import { onExpected, type Passage } from './corpus';

/** One passage's verdict, judged against its class. */
export interface JudgedVerdict {
  passage: Passage;
  verdict: ClaimVerdict;
  /** What its class calls for: `unchanged` for same, `edited` on an expected span for edited, `gone` for removed. */
  right: boolean;
  /** `edited`, and its new text is an expected span's text, white space aside. */
  exactText: boolean;
  /** The passage's text changed (it is not same, or no expected span holds its quote): `unchanged` is then wrong. */
  changed: boolean;
}

/** The counts the test and the benchmark hold against their goals, with the ids behind the failures. */
export interface RecheckTally {
  same: { total: number; unchanged: number; missed: string[] };
  edited: { total: number; edited: number; onSpan: number; exactText: number; gone: number };
  removed: { total: number; gone: number; edited: string[] };
  /** Passages whose text changed, and the ids of those called `unchanged` (should be none). */
  changed: { total: number; calledUnchanged: string[] };
}

/** Judges one passage's verdict (the README's rule: on an expected span = overlapping it by half of the shorter). */
export function judgeVerdict(passage: Passage, verdict: ClaimVerdict): JudgedVerdict {
  const said = verdict.verdict;
  const changed = passage.class !== 'same' || !passage.expected.some((e) => sameText(e.text, passage.quote.exact));
  const onSpan = said === 'edited' && verdict.at !== null && onExpected(passage, verdict.at);
  const exactText = said === 'edited' && verdict.text !== null && passage.expected.some((e) => sameText(e.text, verdict.text!));
  const right = passage.class === 'same' ? said === 'unchanged' : passage.class === 'edited' ? onSpan : said === 'gone';
  return { passage, verdict, right, exactText, changed };
}

/** Counts judged verdicts per class. */
export function tallyVerdicts(judged: readonly JudgedVerdict[]): RecheckTally {
  const of = (cls: Passage['class']) => judged.filter((j) => j.passage.class === cls);
  const said = (js: JudgedVerdict[], v: ClaimVerdict['verdict']) => js.filter((j) => j.verdict.verdict === v);
  const ids = (js: JudgedVerdict[]) => js.map((j) => j.passage.id);
  const [same, edited, removed] = [of('same'), of('edited'), of('removed')];
  const changed = judged.filter((j) => j.changed);
  return {
    same: { total: same.length, unchanged: said(same, 'unchanged').length, missed: ids(same.filter((j) => !j.right)) },
    edited: {
      total: edited.length,
      edited: said(edited, 'edited').length,
      onSpan: edited.filter((j) => j.right).length,
      exactText: edited.filter((j) => j.exactText).length,
      gone: said(edited, 'gone').length,
    },
    removed: { total: removed.length, gone: said(removed, 'gone').length, edited: ids(said(removed, 'edited')) },
    changed: { total: changed.length, calledUnchanged: ids(said(changed, 'unchanged')) },
  };
}
