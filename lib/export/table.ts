/**
 * The survey table as Markdown, CSV or JSON, in the seed's column order
 * (`Model | Evidence | RL framework / system | Public RL stages and
 * algorithms | Design intention | Current judgment`). Pure: no DOM, no
 * browser APIs.
 *
 * - Rows come in the order given, except that a recipe row is moved right
 *   after its model row when both are shown; it is labelled "MiniMax M3 ·
 *   MaxProof".
 * - Evidence: each row shows its own level. A model row shown with recipe
 *   rows of a different level shows "own / theirs", e.g. "C / A" (several
 *   recipe levels best first, "C / A / B"); the recipe rows show their own.
 * - Cells list their items' values, each followed by footnote markers to its
 *   sources. Sources are numbered by first appearance, reading rows top to
 *   bottom and cells left to right. The stages cell groups values by stage in
 *   pipeline order ("Reasoning RL: GRPO[^1], IcePop[^1]; OPD[^1]").
 *   The judgment cell is the curator's judgment followed by the row's
 *   undisclosed findings ("Not disclosed: RL stages[^2]").
 * - A column without claims reads "not disclosed (checked 2026-11-29)" /
 *   "未公开（截至 2026-11-29）", the date being the latest `source.accessed`
 *   among the row's claims (no date when it has none); never blank.
 * - Markdown: markers `GRPO[^3]`, definitions `[^3]: Title <URL>` after the
 *   table. Cells have white space collapsed to single spaces, `|` `\` `` ` ``
 *   `*` `_` `[` `]` backslash-escaped and `<` `>` `&` written as entities,
 *   so no cell can end the table, open a link or run HTML.
 * - CSV (RFC 4180, CRLF line ends, no BOM): markers `GRPO[3]`, plus a
 *   seventh column "Sources" listing that row's sources as
 *   `[3] Title <URL>` separated by "; ". A cell starting with `=` `+` `-`
 *   `@`, tab or CR gets a leading `'` so spreadsheets never run it (OWASP).
 * - JSON: `{ lang, columns: [{id, label}], rows: [{key, model, recipe,
 *   label, evidence, framework, stages, intention, judgment, sources}],
 *   footnotes: [{n, title, url}] }`, cells as the CSV text, two-space indent.
 */
import { STAGES, type Stage } from '../schema';
import { STAGE_LABELS } from '../taxonomy';
import { bestEvidence, type CellItem, type SurveyRow } from '../survey';

/** Output format and language of `renderSurveyTable`. */
export interface TableOptions {
  format: 'md' | 'csv' | 'json';
  lang: 'en' | 'zh';
}

/** Column ids of the survey table, in the seed's order. */
export const TABLE_COLUMNS = ['model', 'evidence', 'framework', 'stages', 'intention', 'judgment'] as const;
/** One column id of the survey table. */
export type TableColumn = (typeof TABLE_COLUMNS)[number];

const TEXT = {
  en: {
    headers: {
      model: 'Model',
      evidence: 'Evidence',
      framework: 'RL framework / system',
      stages: 'Public RL stages and algorithms',
      intention: 'Design intention',
      judgment: 'Current judgment',
    },
    sources: 'Sources',
    notDisclosed: 'not disclosed',
    checked: (date: string) => `not disclosed (checked ${date})`,
    undisclosedLead: 'Not disclosed: ',
    noJudgment: 'no judgment yet',
    colon: ': ',
  },
  zh: {
    headers: {
      model: '模型',
      evidence: '证据等级',
      framework: 'RL 框架 / 系统',
      stages: '公开的 RL 阶段与算法',
      intention: '设计意图',
      judgment: '当前判断',
    },
    sources: '来源',
    notDisclosed: '未公开',
    checked: (date: string) => `未公开（截至 ${date}）`,
    undisclosedLead: '未公开：',
    noJudgment: '暂无判断',
    colon: '：',
  },
} as const;

type Texts = (typeof TEXT)[keyof typeof TEXT];

/** Markdown-safe text: white space runs made one space, Markdown punctuation escaped, HTML written as entities. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/[\\`*_[\]|]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** One CSV field: formula-looking starts neutralised with `'` (OWASP), quoted per RFC 4180 when needed. */
export function escapeCsvCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A URL fit to print: http(s) URLs re-serialised (spaces and `<>` percent-encoded); anything else is not a link. */
function printableUrl(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

interface Footnotes {
  numbers: Map<string, number>;
  titles: Map<string, string>;
}

type Fragment = { text: string } | { source: string };

/** A cell as text fragments and source references, rendered later per format. */
type Cell = Fragment[];

function itemFragments(item: CellItem): Fragment[] {
  return [{ text: item.value }, ...item.sources.map((source) => ({ source }))];
}

function joinItems(items: readonly CellItem[], separator: string): Cell {
  const out: Cell = [];
  items.forEach((item, i) => {
    if (i > 0) out.push({ text: separator });
    out.push(...itemFragments(item));
  });
  return out;
}

function stagesCell(items: readonly CellItem[], t: Texts): Cell {
  const groups = new Map<Stage | null, CellItem[]>();
  for (const item of items) {
    const list = groups.get(item.stage);
    if (list) list.push(item);
    else groups.set(item.stage, [item]);
  }
  const out: Cell = [];
  for (const stage of [...STAGES, null]) {
    const group = groups.get(stage);
    if (!group) continue;
    if (out.length > 0) out.push({ text: '; ' });
    if (stage === null) {
      out.push(...joinItems(group, ', '));
      continue;
    }
    const header = group.find((i) => i.kind === 'stage');
    const rest = group.filter((i) => i !== header);
    if (header) out.push(...itemFragments(header));
    else out.push({ text: STAGE_LABELS[stage] });
    if (rest.length > 0) {
      out.push({ text: t.colon });
      out.push(...joinItems(rest, ', '));
    }
  }
  return out;
}

function lastChecked(row: SurveyRow): string | null {
  let best: string | null = null;
  for (const c of row.claims) if (best === null || c.source.accessed > best) best = c.source.accessed;
  return best;
}

function orderRows(rows: readonly SurveyRow[]): SurveyRow[] {
  const baseKeys = new Set(rows.filter((r) => r.recipe === null).map((r) => r.model));
  const recipesOf = new Map<string, SurveyRow[]>();
  for (const r of rows) {
    if (r.recipe === null || !baseKeys.has(r.model)) continue;
    const list = recipesOf.get(r.model);
    if (list) list.push(r);
    else recipesOf.set(r.model, [r]);
  }
  const out: SurveyRow[] = [];
  for (const r of rows) {
    if (r.recipe !== null && baseKeys.has(r.model)) continue;
    out.push(r);
    if (r.recipe === null) out.push(...(recipesOf.get(r.model) ?? []));
  }
  return out;
}

function evidenceText(row: SurveyRow, shown: readonly SurveyRow[]): string {
  if (row.recipe !== null) return row.evidence;
  const others = new Set(shown.filter((r) => r.model === row.model && r.recipe !== null && r.evidence !== row.evidence).map((r) => r.evidence));
  const levels: string[] = [row.evidence];
  for (let best = bestEvidence(others); best !== null; best = bestEvidence(others)) {
    levels.push(best);
    others.delete(best);
  }
  return levels.join(' / ');
}

interface RenderedRow {
  row: SurveyRow;
  label: string;
  cells: Record<TableColumn, Cell>;
  sources: string[];
}

function buildRows(rows: readonly SurveyRow[], t: Texts, notes: Footnotes): RenderedRow[] {
  const ordered = orderRows(rows);
  return ordered.map((row) => {
    for (const c of row.claims) if (!notes.titles.has(c.source.url)) notes.titles.set(c.source.url, c.source.title);
    const checked = lastChecked(row);
    const missing: Cell = [{ text: checked ? t.checked(checked) : t.notDisclosed }];
    const judgment: Cell = [];
    if (row.judgment.trim() !== '') judgment.push({ text: row.judgment });
    if (row.undisclosed.length > 0) {
      if (judgment.length > 0) judgment.push({ text: ' ' });
      judgment.push({ text: t.undisclosedLead }, ...joinItems(row.undisclosed, ', '));
    }
    const label = row.recipe === null ? row.model : `${row.model} · ${row.recipe}`;
    const cells: Record<TableColumn, Cell> = {
      model: [{ text: label }],
      evidence: [{ text: evidenceText(row, ordered) }],
      framework: row.frameworks.length > 0 ? joinItems(row.frameworks, ', ') : missing,
      stages: row.stagesAndAlgorithms.length > 0 ? stagesCell(row.stagesAndAlgorithms, t) : missing,
      intention: row.intentions.length > 0 ? joinItems(row.intentions, '; ') : missing,
      judgment: judgment.length > 0 ? judgment : [{ text: t.noJudgment }],
    };
    const sources: string[] = [];
    for (const column of TABLE_COLUMNS) {
      for (const f of cells[column]) {
        if (!('source' in f)) continue;
        if (!notes.numbers.has(f.source)) notes.numbers.set(f.source, notes.numbers.size + 1);
        if (!sources.includes(f.source)) sources.push(f.source);
      }
    }
    sources.sort((a, b) => notes.numbers.get(a)! - notes.numbers.get(b)!);
    return { row, label, cells, sources };
  });
}

function cellText(cell: Cell, notes: Footnotes, marker: (n: number) => string, escape: (s: string) => string): string {
  return cell
    .map((f) => ('source' in f ? marker(notes.numbers.get(f.source)!) : escape(f.text)))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

function sourceLine(url: string, notes: Footnotes): { title: string; url: string | null } {
  return { title: (notes.titles.get(url) ?? '').replace(/\s+/g, ' ').trim(), url: printableUrl(url) };
}

function renderMarkdown(rendered: RenderedRow[], t: Texts, notes: Footnotes): string {
  const lines: string[] = [];
  lines.push(`| ${TABLE_COLUMNS.map((c) => escapeMarkdown(t.headers[c])).join(' | ')} |`);
  lines.push(`|${TABLE_COLUMNS.map(() => '---').join('|')}|`);
  for (const r of rendered) {
    const cells = TABLE_COLUMNS.map((c) => cellText(r.cells[c], notes, (n) => `[^${n}]`, escapeMarkdown));
    lines.push(`| ${cells.join(' | ')} |`);
  }
  if (notes.numbers.size > 0) {
    lines.push('');
    for (const [url, n] of notes.numbers) {
      const { title, url: href } = sourceLine(url, notes);
      const link = href ? `<${href}>` : escapeMarkdown(url);
      lines.push(`[^${n}]: ${title ? `${escapeMarkdown(title)} ` : ''}${link}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function csvSources(sources: readonly string[], notes: Footnotes): string {
  return sources
    .map((url) => {
      const n = notes.numbers.get(url)!;
      const { title, url: href } = sourceLine(url, notes);
      return `[${n}] ${title ? `${title} ` : ''}<${href ?? url}>`;
    })
    .join('; ');
}

function renderCsv(rendered: RenderedRow[], t: Texts, notes: Footnotes): string {
  const plain = (s: string) => s;
  const lines: string[] = [];
  lines.push([...TABLE_COLUMNS.map((c) => t.headers[c]), t.sources].map(escapeCsvCell).join(','));
  for (const r of rendered) {
    const cells = TABLE_COLUMNS.map((c) => cellText(r.cells[c], notes, (n) => `[${n}]`, plain));
    cells.push(csvSources(r.sources, notes));
    lines.push(cells.map(escapeCsvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function renderJson(rendered: RenderedRow[], t: Texts, notes: Footnotes, lang: TableOptions['lang']): string {
  const plain = (s: string) => s;
  const doc = {
    lang,
    columns: TABLE_COLUMNS.map((id) => ({ id, label: t.headers[id] })),
    rows: rendered.map((r) => ({
      key: r.row.key,
      model: r.row.model,
      recipe: r.row.recipe,
      label: r.label,
      ...Object.fromEntries(TABLE_COLUMNS.filter((c) => c !== 'model').map((c) => [c, cellText(r.cells[c], notes, (n) => `[${n}]`, plain)])),
      sources: r.sources.map((url) => notes.numbers.get(url)!),
    })),
    footnotes: [...notes.numbers].map(([url, n]) => ({ n, title: sourceLine(url, notes).title, url })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Renders derived rows as the survey table (see the module comment for every rendering rule). */
export function renderSurveyTable(rows: readonly SurveyRow[], options: TableOptions): string {
  const t = TEXT[options.lang];
  const notes: Footnotes = { numbers: new Map(), titles: new Map() };
  const rendered = buildRows(rows, t, notes);
  switch (options.format) {
    case 'md':
      return renderMarkdown(rendered, t, notes);
    case 'csv':
      return renderCsv(rendered, t, notes);
    case 'json':
      return renderJson(rendered, t, notes, options.lang);
  }
}
