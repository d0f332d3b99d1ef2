/**
 * The survey table as Markdown, CSV or JSON, in the seed's column order
 * (`Model | Evidence | RL framework / system | Public RL stages and
 * algorithms | Design intention | Current judgment`). Pure: no DOM, no
 * browser APIs.
 *
 * - Rows come in the order given, except that a recipe row is moved right
 *   after its model row when both are shown; it is labelled "MiniMax M3 ·
 *   MaxProof". Tombstones (`deleted_at`) are never in the rows
 *   (`deriveRows` leaves them out), so they render nothing.
 * - Evidence: each row shows its own level. A model row shown with recipe
 *   rows of a different level shows "own / theirs", e.g. "C / A" (several
 *   recipe levels best first, "C / A / B"); the recipe rows show their own.
 * - Cells list their items' values, each followed by footnote markers to the
 *   passages that state it. The stages cell groups values by stage in
 *   pipeline order ("Reasoning RL: GRPO[^1], IcePop[^1]; OPD[^2]").
 * - An `undisclosed` claim stands in the cell it speaks about
 *   (`undisclosedColumns`): "Not disclosed: RL stages[^3]" / "未公开：RL
 *   stages[^3]" in the stages cell, or under its stage ("Agentic RL: not
 *   disclosed[^4]" when its value is the stage's name). The judgment cell is
 *   the curator's judgment alone ("no judgment yet" / "暂无判断").
 * - A column with no claim at all reads "not disclosed (checked
 *   2026-11-29)" / "未公开（截至 2026-11-29）", the date being the latest
 *   `source.accessed` among the row's claims (no date when it has none);
 *   never blank.
 * - Footnotes are passages, numbered by first appearance (rows top to
 *   bottom, cells left to right); claims quoting the same words on the same
 *   page share one. Each gives the quoted words (white space collapsed, cut
 *   at a word before 300 characters with "…"; left out when they are only
 *   the page title), the page title and the claim's link — its
 *   text-fragment link (`#:~:text=`) that opens the page at the passage, or
 *   `#page=N` on a PDF, or the link the curator stored.
 * - Markdown: markers `GRPO[^3]`, definitions `[^3]: “quoted words” — Title
 *   <link>` after the table. Text has white space collapsed to single
 *   spaces, `|` `\` `` ` `` `*` `_` `[` `]` backslash-escaped and `<` `>` `&`
 *   written as entities, so no cell or footnote can end the table, open a
 *   link or run HTML; links are re-serialised http(s) URLs in `<…>`.
 * - CSV (RFC 4180, CRLF line ends, no BOM): markers `GRPO[3]`, plus a
 *   seventh column "Sources" listing that row's footnotes as
 *   `[3] “quoted words” — Title <link>` separated by "; ". A cell starting
 *   with `=` `+` `-` `@`, tab or CR gets a leading `'` so spreadsheets never
 *   run it (OWASP).
 * - JSON: `{ lang, columns: [{id, label}], rows: [{key, model, recipe,
 *   label, evidence, framework, stages, intention, judgment, sources}],
 *   footnotes: [{n, title, url, link, quote}] }`, cells as the CSV text,
 *   two-space indent.
 */
import { STAGES, type ClaimRecord, type Stage } from '../schema';
import { STAGE_LABELS, lookupTerm } from '../taxonomy';
import { bestEvidence, undisclosedColumns, type CellItem, type SurveyRow, type UndisclosedColumn } from '../survey';
import { claimLink } from './links';

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
    undisclosedUnder: (value: string) => `${value} not disclosed`,
    noJudgment: 'no judgment yet',
    colon: ': ',
    quote: (text: string) => `“${text}”`,
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
    undisclosedUnder: (value: string) => `${value}未公开`,
    noJudgment: '暂无判断',
    colon: '：',
    quote: (text: string) => `“${text}”`,
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

/** One footnote: a quoted passage on a page. */
interface Note {
  title: string;
  url: string;
  link: string;
  quote: string;
}

/** Footnotes by passage key: what each says, and its number once a cell has cited it. */
interface Footnotes {
  notes: Map<string, Note>;
  numbers: Map<string, number>;
}

type Fragment = { text: string } | { note: string };

/** A cell as text fragments and footnote references, rendered later per format. */
type Cell = Fragment[];

const QUOTE_MAX = 300;

/** The quoted words as a footnote gives them: white space collapsed, cut at a word before 300 characters. */
function shortQuote(exact: string): string {
  const text = exact.replace(/\s+/g, ' ').trim();
  if (text.length <= QUOTE_MAX) return text;
  const cut = text.lastIndexOf(' ', QUOTE_MAX - 1);
  return `${text.slice(0, cut > QUOTE_MAX / 2 ? cut : QUOTE_MAX - 1).trimEnd()}…`;
}

/** The footnote of a claim's passage (registered on first sight); claims quoting the same words on the same page share it. */
function noteFor(claim: ClaimRecord, notes: Footnotes): string {
  const quote = shortQuote(claim.quote.exact);
  const key = `${claim.source.url}\u0000${quote}`;
  if (!notes.notes.has(key)) {
    const title = claim.source.title.replace(/\s+/g, ' ').trim();
    notes.notes.set(key, { title, url: claim.source.url, link: claimLink(claim), quote: quote === title ? '' : quote });
  }
  return key;
}

/** What the row builder needs to turn items into fragments. */
interface ItemContext {
  claims: ReadonlyMap<string, ClaimRecord>;
  notes: Footnotes;
  t: Texts;
}

function noteFragments(item: CellItem, ctx: ItemContext): Fragment[] {
  const keys: string[] = [];
  for (const id of item.claimIds) {
    const claim = ctx.claims.get(id);
    if (!claim) continue;
    const key = noteFor(claim, ctx.notes);
    if (!keys.includes(key)) keys.push(key);
  }
  return keys.map((note) => ({ note }));
}

/** True when a value names the stage itself ("Agentic / Tool RL", "Agentic RL" under `agentic_rl`). */
function namesStage(value: string, stage: Stage): boolean {
  if (value.toLowerCase() === STAGE_LABELS[stage].toLowerCase()) return true;
  const term = lookupTerm(value);
  return term?.kind === 'stage' && term.stage === stage;
}

/**
 * An undisclosed item's words: "not disclosed" under its own stage's name; "value not disclosed" after a stage's
 * name and colon (`underStage`: "Reasoning RL: reward design not disclosed", never two colons in a row); else
 * "Not disclosed: value".
 */
function undisclosedText(item: CellItem, t: Texts, underStage: boolean): string {
  if (item.stage && namesStage(item.value, item.stage)) return t.notDisclosed;
  return underStage ? t.undisclosedUnder(item.value) : `${t.undisclosedLead}${item.value}`;
}

function itemFragments(item: CellItem, ctx: ItemContext, underStage = false): Fragment[] {
  const text = item.kind === 'undisclosed' ? undisclosedText(item, ctx.t, underStage) : item.value;
  return [{ text }, ...noteFragments(item, ctx)];
}

function joinItems(items: readonly CellItem[], separator: string, ctx: ItemContext, underStage = false): Cell {
  const out: Cell = [];
  items.forEach((item, i) => {
    if (i > 0) out.push({ text: separator });
    out.push(...itemFragments(item, ctx, underStage));
  });
  return out;
}

function stagesCell(items: readonly CellItem[], ctx: ItemContext): Cell {
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
      out.push(...joinItems(group, ', ', ctx));
      continue;
    }
    const header = group.find((i) => i.kind === 'stage');
    const rest = group.filter((i) => i !== header);
    if (header) out.push(...itemFragments(header, ctx));
    else out.push({ text: STAGE_LABELS[stage] });
    if (rest.length > 0) {
      out.push({ text: ctx.t.colon });
      out.push(...joinItems(rest, ', ', ctx, true));
    }
  }
  return out;
}

/** A column's cell: its disclosed items, then the undisclosed findings that speak about it; "not disclosed (checked …)" when it has neither. */
function columnCell(disclosed: readonly CellItem[], undisclosed: readonly CellItem[], separator: string, missing: Cell, ctx: ItemContext): Cell {
  if (disclosed.length === 0 && undisclosed.length === 0) return missing;
  const out = joinItems(disclosed, separator, ctx);
  if (undisclosed.length > 0) {
    if (out.length > 0) out.push({ text: '; ' });
    out.push(...joinItems(undisclosed, ', ', ctx));
  }
  return out;
}

/** A row's "not disclosed, as of" day (`SurveyRow.asOf`: its claims' access days and their sources' unchanged rechecks). */
function lastChecked(row: SurveyRow): string | null {
  return row.asOf;
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
  /** Keys of the footnotes the row cites, by number. */
  notes: string[];
}

function buildRows(rows: readonly SurveyRow[], t: Texts, notes: Footnotes): RenderedRow[] {
  const ordered = orderRows(rows);
  return ordered.map((row) => {
    const ctx: ItemContext = { claims: new Map(row.claims.map((c) => [c.id, c])), notes, t };
    const checked = lastChecked(row);
    const missing: Cell = [{ text: checked ? t.checked(checked) : t.notDisclosed }];
    const undisclosed: Record<UndisclosedColumn, CellItem[]> = { framework: [], stages: [], intention: [] };
    for (const item of row.undisclosed) for (const column of undisclosedColumns(item)) undisclosed[column].push(item);
    const label = row.recipe === null ? row.model : `${row.model} · ${row.recipe}`;
    const stageItems = [...row.stagesAndAlgorithms, ...undisclosed.stages];
    const cells: Record<TableColumn, Cell> = {
      model: [{ text: label }],
      evidence: [{ text: evidenceText(row, ordered) }],
      framework: columnCell(row.frameworks, undisclosed.framework, ', ', missing, ctx),
      stages: stageItems.length > 0 ? stagesCell(stageItems, ctx) : missing,
      intention: columnCell(row.intentions, undisclosed.intention, '; ', missing, ctx),
      judgment: [{ text: row.judgment.trim() !== '' ? row.judgment : t.noJudgment }],
    };
    const cited: string[] = [];
    for (const column of TABLE_COLUMNS) {
      for (const f of cells[column]) {
        if (!('note' in f)) continue;
        if (!notes.numbers.has(f.note)) notes.numbers.set(f.note, notes.numbers.size + 1);
        if (!cited.includes(f.note)) cited.push(f.note);
      }
    }
    cited.sort((a, b) => notes.numbers.get(a)! - notes.numbers.get(b)!);
    return { row, label, cells, notes: cited };
  });
}

function cellText(cell: Cell, notes: Footnotes, marker: (n: number) => string, escape: (s: string) => string): string {
  return cell
    .map((f) => ('note' in f ? marker(notes.numbers.get(f.note)!) : escape(f.text)))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A footnote's parts: quoted words (may be empty), title (may be empty), a printable link (null when neither link nor URL is http(s)). */
function noteParts(key: string, notes: Footnotes): Note & { href: string | null } {
  const note = notes.notes.get(key)!;
  return { ...note, href: printableUrl(note.link) ?? printableUrl(note.url) };
}

/** `“quote” — Title` (either part may be missing), with the text escaped. */
function noteText(note: Note, t: Texts, escape: (s: string) => string): string {
  const quote = note.quote ? t.quote(escape(note.quote)) : '';
  const title = note.title ? escape(note.title) : '';
  return quote && title ? `${quote} — ${title}` : quote || title;
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
    for (const [key, n] of notes.numbers) {
      const note = noteParts(key, notes);
      const text = noteText(note, t, escapeMarkdown);
      const link = note.href ? `<${note.href}>` : escapeMarkdown(note.link);
      lines.push(`[^${n}]: ${text ? `${text} ` : ''}${link}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function csvSources(keys: readonly string[], t: Texts, notes: Footnotes): string {
  return keys
    .map((key) => {
      const note = noteParts(key, notes);
      const text = noteText(note, t, (s) => s);
      return `[${notes.numbers.get(key)!}] ${text ? `${text} ` : ''}<${note.href ?? note.link}>`;
    })
    .join('; ');
}

function renderCsv(rendered: RenderedRow[], t: Texts, notes: Footnotes): string {
  const plain = (s: string) => s;
  const lines: string[] = [];
  lines.push([...TABLE_COLUMNS.map((c) => t.headers[c]), t.sources].map(escapeCsvCell).join(','));
  for (const r of rendered) {
    const cells = TABLE_COLUMNS.map((c) => cellText(r.cells[c], notes, (n) => `[${n}]`, plain));
    cells.push(csvSources(r.notes, t, notes));
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
      sources: r.notes.map((key) => notes.numbers.get(key)!),
    })),
    footnotes: [...notes.numbers].map(([key, n]) => {
      const note = notes.notes.get(key)!;
      return { n, title: note.title, url: note.url, link: note.link, quote: note.quote };
    }),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Renders derived rows as the survey table (see the module comment for every rendering rule). */
export function renderSurveyTable(rows: readonly SurveyRow[], options: TableOptions): string {
  const t = TEXT[options.lang];
  const notes: Footnotes = { notes: new Map(), numbers: new Map() };
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
