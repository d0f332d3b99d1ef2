/**
 * The calibration curve of the anchoring confidence model on the public
 * corpus of real revisions (../shared/fixtures/revisions): every pair's
 * passages are anchored on the new revision's rendered text with the
 * acceptance thresholds moved one at a time, and judged as the corpus README
 * says. Prints the tables of docs/anchoring.md ("Trade-off curve"), or
 * rewrites them in place with --write.
 *
 *   npx tsx scripts/anchoring/curve.ts [--write]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Window } from 'happy-dom';
import { anchorAll, DEFAULT_THRESHOLDS, type Thresholds } from '../../lib/anchoring';
import { haveRevisions, judge, loadRevisions, REVISIONS, revisionText, selectorsOf, type Pair } from './corpus';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DOC = path.join(ROOT, 'docs', 'anchoring.md');
const BEGIN = '<!-- curve:begin (scripts/anchoring/curve.ts --write) -->';
const END = '<!-- curve:end -->';

/** Outcome counts over the corpus for one setting of the thresholds. */
interface Counts {
  sameRight: number;
  editedRight: number;
  editedOrphan: number;
  removedUnpainted: number;
  removedOnReplacement: number;
  wrong: number;
}

/** Anchors every pair with `thresholds` and counts the outcomes. */
function run(pairs: Pair[], texts: Map<string, string>, doc: Document, thresholds: Thresholds): Counts {
  const c: Counts = { sameRight: 0, editedRight: 0, editedOrphan: 0, removedUnpainted: 0, removedOnReplacement: 0, wrong: 0 };
  for (const pair of pairs) {
    doc.body.textContent = texts.get(pair.new.page) as string;
    const results = anchorAll(doc.body, pair.passages.map(selectorsOf), undefined, thresholds);
    pair.passages.forEach((p, i) => {
      const v = judge(p, results[i]);
      if (v === 'orphan' && p.class === 'edited') c.editedOrphan++;
      else if (v === 'orphan' && p.class === 'removed') c.removedUnpainted++;
      else if (v === 'right' && p.class === 'same') c.sameRight++;
      else if (v === 'right') c.editedRight++;
      else if (v === 'on-replacement') c.removedOnReplacement++;
      else if (v === 'wrong') c.wrong++;
    });
  }
  return c;
}

/** One markdown table row. */
function row(label: string, c: Counts, mark: boolean): string {
  const cells = [
    label,
    c.sameRight,
    `${c.editedRight} / ${c.editedOrphan}`,
    `${c.removedUnpainted}${c.removedOnReplacement ? ` (+${c.removedOnReplacement})` : ''}`,
    c.wrong,
  ];
  return `| ${cells.map((x) => (mark ? `**${x}**` : String(x))).join(' | ')} |`;
}

function main(): void {
  if (!haveRevisions()) {
    console.error(`The corpus is not at ${path.relative(ROOT, REVISIONS)}.`);
    process.exit(1);
  }
  const cases = loadRevisions();
  const texts = new Map<string, string>();
  for (const pair of cases.pairs) texts.set(pair.new.page, revisionText(pair.new.page));
  const doc = new Window().document as unknown as Document;
  const n = cases.counts;
  const head = [
    `| %s | same (${n.same}): right | edited (${n.edited}): right / orphan | removed (${n.removed}): not painted (+ on its replacement) | wrong passage |`,
    '|---|---|---|---|---|',
  ];
  const out: string[] = [];
  out.push(
    `Acceptance score moved, lead ${DEFAULT_THRESHOLDS.margin} and quote evidence ${DEFAULT_THRESHOLDS.quote} kept (calibrated: **${DEFAULT_THRESHOLDS.score}**):`,
    '',
  );
  out.push(head[0]!.replace('%s', 'score ≥'), head[1]!);
  for (const score of [0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.2, 1.4]) {
    const c = run(cases.pairs, texts, doc, { ...DEFAULT_THRESHOLDS, score });
    out.push(row(score.toFixed(1), c, score === DEFAULT_THRESHOLDS.score));
  }
  out.push('', `Lead over the runner-up moved, score ${DEFAULT_THRESHOLDS.score} kept (calibrated: **${DEFAULT_THRESHOLDS.margin}**):`, '');
  out.push(head[0]!.replace('%s', 'lead ≥'), head[1]!);
  for (const margin of [-1, 0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5]) {
    const c = run(cases.pairs, texts, doc, { ...DEFAULT_THRESHOLDS, margin });
    out.push(row(margin < 0 ? 'none' : margin.toFixed(2), c, margin === DEFAULT_THRESHOLDS.margin));
  }
  out.push('', `Quote evidence moved, score and lead kept (calibrated: **${DEFAULT_THRESHOLDS.quote}**):`, '');
  out.push(head[0]!.replace('%s', 'quote ≥'), head[1]!);
  for (const quote of [0, 0.05, 0.1, 0.2, 0.3, 0.5]) {
    const c = run(cases.pairs, texts, doc, { ...DEFAULT_THRESHOLDS, quote });
    out.push(row(quote.toFixed(2), c, quote === DEFAULT_THRESHOLDS.quote));
  }
  const tables = out.join('\n');
  if (!process.argv.includes('--write')) {
    console.log(tables);
    return;
  }
  const doc0 = readFileSync(DOC, 'utf8');
  const a = doc0.indexOf(BEGIN);
  const b = doc0.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${path.relative(ROOT, DOC)} has no ${BEGIN} … ${END} section`);
  writeFileSync(DOC, `${doc0.slice(0, a + BEGIN.length)}\n${tables}\n${doc0.slice(b)}`);
  console.log(`updated ${path.relative(ROOT, DOC)}`);
}

main();
