/**
 * Searching, filtering and sorting survey rows for the evidence panel. The
 * search text of every row is built once, so a keystroke costs one pass of
 * `includes` over the rows.
 */
import type { ClaimKind, Evidence, Stage } from '../schema';
import { rowVendor, type SurveyRow } from '../survey';

/** The panel's filters. Empty strings mean "any". */
export interface RowFilters {
  text: string;
  vendor: string;
  evidence: Evidence | '';
  kind: ClaimKind | '';
  stage: Stage | '';
  undisclosedOnly: boolean;
}

/** No filter at all. */
export const NO_FILTERS: RowFilters = { text: '', vendor: '', evidence: '', kind: '', stage: '', undisclosedOnly: false };

/** Orders the survey can be sorted in. */
export type RowSort = 'model' | 'evidence' | 'updated' | 'claims';

/** A row with what filtering needs, computed once. */
export interface IndexedRow {
  row: SurveyRow;
  search: string;
  kinds: Set<ClaimKind>;
  stages: Set<Stage>;
}

/** Prepares rows for fast filtering. */
export function indexRows(rows: readonly SurveyRow[]): IndexedRow[] {
  return rows.map((row) => {
    const parts: string[] = [row.model, row.recipe ?? '', rowVendor(row).name ?? '', row.judgment, row.basedOn ?? ''];
    const kinds = new Set<ClaimKind>();
    const stages = new Set<Stage>();
    for (const c of row.claims) {
      parts.push(c.value, c.quote.exact, c.note ?? '', c.source.title, c.source.publisher ?? '');
      kinds.add(c.kind);
      if (c.stage) stages.add(c.stage);
    }
    return { row, search: parts.join('\n').toLowerCase(), kinds, stages };
  });
}

/** Rows that pass every filter (the vendor is the stored one, else the proposed one); the free text must appear in models, values, quotes, notes or judgments. */
export function filterRows(rows: readonly IndexedRow[], filters: RowFilters): IndexedRow[] {
  const terms = filters.text.toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((r) => {
    if (filters.vendor && (rowVendor(r.row).name ?? '') !== filters.vendor) return false;
    if (filters.evidence && r.row.evidence !== filters.evidence) return false;
    if (filters.kind && !r.kinds.has(filters.kind)) return false;
    if (filters.stage && !r.stages.has(filters.stage)) return false;
    if (filters.undisclosedOnly && !r.row.undisclosed.length && !r.row.stages.some((s) => !s.disclosed)) return false;
    for (const t of terms) if (!r.search.includes(t)) return false;
    return true;
  });
}

const LEVEL_ORDER: Record<Evidence, number> = { A: 0, B: 1, C: 2 };

/** Sorts rows (a new array): by model name, best evidence first, newest first, or most claims first. */
export function sortRows(rows: readonly IndexedRow[], sort: RowSort): IndexedRow[] {
  // Code-unit order, as the dataset's export and the database's model index sort: the rows painted first stay put.
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const byModel = (a: IndexedRow, b: IndexedRow) => cmp(a.row.model, b.row.model) || cmp(a.row.recipe ?? '', b.row.recipe ?? '');
  const copy = [...rows];
  switch (sort) {
    case 'evidence':
      return copy.sort((a, b) => LEVEL_ORDER[a.row.evidence] - LEVEL_ORDER[b.row.evidence] || byModel(a, b));
    case 'updated':
      return copy.sort((a, b) => (a.row.lastUpdated < b.row.lastUpdated ? 1 : a.row.lastUpdated > b.row.lastUpdated ? -1 : byModel(a, b)));
    case 'claims':
      return copy.sort((a, b) => b.row.claimCount - a.row.claimCount || byModel(a, b));
    default:
      return copy.sort(byModel);
  }
}

/** Distinct vendors among rows, stored or proposed, for the vendor filter. */
export function vendorsOf(rows: readonly SurveyRow[]): string[] {
  return [...new Set(rows.map((r) => rowVendor(r).name).filter((v): v is string => !!v))].sort((a, b) => a.localeCompare(b));
}
