/**
 * The dataset's README: the survey table between `<!-- survey:table -->` and
 * `<!-- /survey:table -->`, rendered exactly as `survey render` renders the
 * records (Markdown, English), and a line saying how many claims and models
 * the dataset holds, between `<!-- survey:count -->` markers. Everything else
 * in the README is the curators' own text and is kept as it is. Pure.
 */
import { isTombstone } from '../survey/tombstones';
import { renderSurveyTable } from '../export/table';
import { mergeFiles } from '../import/merge';
import { recordRef } from '../import/preview';
import { CLAIM_SCHEMA, type ClaimRecord, type ModelRecord, type SurveyRecord } from '../schema';
import { deriveRows } from '../survey';
import type { SourceRecord } from '../schema';
import { unchangedSince } from './sources';

/** Marks the start of the survey table. */
export const TABLE_START = '<!-- survey:table -->';
/** Marks the end of the survey table. */
export const TABLE_END = '<!-- /survey:table -->';
/** Marks the start of the counts line. */
export const COUNT_START = '<!-- survey:count -->';
/** Marks the end of the counts line. */
export const COUNT_END = '<!-- /survey:count -->';

/** How `renderRecords` renders. */
export interface RenderOptions {
  format: 'md' | 'csv' | 'json';
  lang: 'en' | 'zh';
  /** The present moment (RFC 3339): only the JSON's staleness warnings read it. */
  now: string;
  /** The dataset's source records: a source found unchanged moves its "not disclosed" cells' "as of" day. */
  sources?: readonly SourceRecord[];
}

/**
 * The survey table of several lists of records (files), as `survey render`
 * prints it: where lists hold several versions of a record the newest is
 * used; tombstones render nothing.
 */
export function renderRecords(lists: readonly (readonly SurveyRecord[])[], options: RenderOptions): string {
  return renderTable(newest(lists), options);
}

/** One version per record: the lists as they are when no record appears twice (the usual dataset), else merged (newest wins). */
function newest(lists: readonly (readonly SurveyRecord[])[]): readonly SurveyRecord[] {
  const seen = new Set<string>();
  for (const list of lists) {
    for (const r of list) {
      const ref = recordRef(r);
      if (seen.has(ref)) return mergeFiles(lists, { prefer: 'newer' }).records;
      seen.add(ref);
    }
  }
  return lists.length === 1 ? lists[0]! : lists.flat();
}

function renderTable(records: readonly SurveyRecord[], options: RenderOptions): string {
  const claims = records.filter((r): r is ClaimRecord => r.schema === CLAIM_SCHEMA);
  const models = records.filter((r): r is ModelRecord => r.schema !== CLAIM_SCHEMA);
  // The rows' order and cells do not depend on the records' order; the table shows no warnings.
  const rows = deriveRows(claims, models, { now: options.now, warnings: false, unchangedSince: unchangedSince(options.sources) });
  return renderSurveyTable(rows, { format: options.format, lang: options.lang });
}

/** The README's table for a dataset's records (and its source records): `survey render` in Markdown and English. */
export function readmeTable(records: readonly SurveyRecord[], sources: readonly SourceRecord[] = []): string {
  // The Markdown table does not read the present moment; a fixed one keeps the README a function of the records alone.
  return renderRecords([records], { format: 'md', lang: 'en', now: '1970-01-01T00:00:00Z', sources });
}

/** How many live claims and how many models (by name, with a live claim or a model record) records hold. */
export function datasetCounts(records: readonly SurveyRecord[]): { claims: number; models: number } {
  const latest = newest([records]);
  const models = new Set<string>();
  let claims = 0;
  for (const r of latest) {
    if (r.schema === CLAIM_SCHEMA) {
      if (isTombstone(r as ClaimRecord)) continue;
      claims += 1;
    }
    models.add(r.model);
  }
  return { claims, models: models.size };
}

/** The counts line, e.g. "This dataset holds 1 claim about 1 model." */
export function countLine(counts: { claims: number; models: number }): string {
  const n = (k: number, one: string, many: string) => `${k.toLocaleString('en-US')} ${k === 1 ? one : many}`;
  return `This dataset holds ${n(counts.claims, 'claim', 'claims')} about ${n(counts.models, 'model', 'models')}.`;
}

/** The README of a new dataset: a title, a few lines on the format, and the generated parts. */
export function newReadme(title: string, records: readonly SurveyRecord[] = [], sources: readonly SourceRecord[] = []): string {
  const intro = [
    `# ${title.replace(/[\r\n]+/g, ' ').trim() || 'RL post-training survey'}`,
    '',
    'Evidence-first survey records of how frontier LLMs and VLMs are post-trained with reinforcement learning:',
    'every cell of the table below leads back to a quoted passage of a public source.',
    '',
    '- `records/claims/<model>.jsonl`: the claims about one model (`rl-survey.claim/1`, one JSON object per line).',
    "- `records/models.jsonl`: the curators' judgment per model (`rl-survey.model/1`).",
    '- `records/sources.jsonl`: what the last recheck of each source found (`rl-survey.source/1`, `survey recheck`).',
    '- The table and the counts below are generated from the records: `survey check .` checks them.',
    '',
  ].join('\n');
  return updateReadme(`${intro}\n${TABLE_START}\n${TABLE_END}\n\n${COUNT_START}${COUNT_END}\n`, records, sources);
}

/** The text between two markers (null when either is missing or they are out of order). */
function between(text: string, start: string, end: string): { from: number; to: number } | null {
  const a = text.indexOf(start);
  if (a === -1) return null;
  const b = text.indexOf(end, a + start.length);
  if (b === -1) return null;
  return { from: a + start.length, to: b };
}

/** The README with its table and counts generated for `records` (the markers added at the end when missing). */
export function updateReadme(readme: string, records: readonly SurveyRecord[], sources: readonly SourceRecord[] = []): string {
  let text = readme;
  const table = `\n${readmeTable(records, sources)}`;
  const t = between(text, TABLE_START, TABLE_END);
  text = t ? text.slice(0, t.from) + table + text.slice(t.to) : `${text.replace(/\n*$/, '\n\n')}${TABLE_START}${table}${TABLE_END}\n`;
  const count = countLine(datasetCounts(records));
  const c = between(text, COUNT_START, COUNT_END);
  text = c ? text.slice(0, c.from) + count + text.slice(c.to) : `${text.replace(/\n*$/, '\n\n')}${COUNT_START}${count}${COUNT_END}\n`;
  return text;
}

/** One way a README differs from what the records give. */
export interface ReadmeProblem {
  /** 1-based line of the README where the problem starts. */
  line: number;
  message: string;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/**
 * Where the README's table or counts are not what `survey render` gives for `records` (empty when they are). For a
 * review (`review`), only missing markers count: its table and counts are rebuilt once it is merged.
 */
export function checkReadme(
  readme: string,
  records: readonly SurveyRecord[],
  options: { review?: boolean; sources?: readonly SourceRecord[] } = {},
): ReadmeProblem[] {
  const problems: ReadmeProblem[] = [];
  const t = between(readme, TABLE_START, TABLE_END);
  if (!t) problems.push({ line: 1, message: `no survey table: the README needs ${TABLE_START} and ${TABLE_END} around the output of "survey render records"` });
  else if (!options.review) {
    const want = `\n${readmeTable(records, options.sources)}`;
    const have = readme.slice(t.from, t.to);
    if (have !== want) {
      const wantLines = want.split('\n');
      const haveLines = have.split('\n');
      let i = 0;
      while (i < wantLines.length && i < haveLines.length && wantLines[i] === haveLines[i]) i++;
      problems.push({
        line: lineOf(readme, t.from) + i,
        message:
          'the survey table is not what "survey render records" gives for the records: run "survey build ." to rewrite it (publishing from Recipe Lens does too)',
      });
    }
  }
  const c = between(readme, COUNT_START, COUNT_END);
  const want = countLine(datasetCounts(records));
  if (!c) problems.push({ line: 1, message: `no counts line: the README needs ${COUNT_START}${want}${COUNT_END}` });
  else if (!options.review && readme.slice(c.from, c.to) !== want)
    problems.push({ line: lineOf(readme, c.from), message: `the counts line should read "${want}" ("survey build ." writes it)` });
  return problems;
}
