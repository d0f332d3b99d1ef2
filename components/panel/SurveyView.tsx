/** The survey table: one row per (model, recipe), searchable, filterable and sortable, windowed for thousands of claims. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CLAIM_KINDS, EVIDENCE_LEVELS, STAGES } from '../../lib/schema/constants';
import { kindLabel, plural, stageLabel, t } from '../../lib/i18n';
import { filterRows, sortRows, vendorsOf, type IndexedRow, type RowFilters, type RowSort } from '../../lib/panel/rows';
import { rowVendor, undisclosedColumns, type CellItem, type SurveyRow, type UndisclosedColumn } from '../../lib/survey';
import { EnumSelect } from '../common/EnumSelect';
import { EvidenceBadge, evidenceText } from './Badges';
import { ExportMenu, type PanelExportChoice } from './ExportMenu';
import { JudgmentEditor } from './JudgmentEditor';
import { vendorText } from './VendorEditor';
import { VirtualList } from './VirtualList';

/** Row heights: cards in a narrow side panel, table rows when the panel is wide (see panel.css). */
const ROW_HEIGHT = 176;
const WIDE_ROW_HEIGHT = 132;
const WIDE_MIN = 900;

/** A cell's words: its values, then what the row's undisclosed claims say is not disclosed there ("Not disclosed: reward design"). */
function cellText(items: readonly CellItem[], undisclosed: readonly CellItem[] = []): string {
  const words = [...items.map((i) => i.value), ...undisclosed.map((i) => `${kindLabel('undisclosed')}${t('colon')}${i.value}`)];
  return words.length ? words.join(' · ') : t('notDisclosed');
}

/** The row's undisclosed claims that stand in `column`, as the survey table places them. */
function undisclosedIn(row: SurveyRow, column: UndisclosedColumn): CellItem[] {
  return row.undisclosed.filter((item) => undisclosedColumns(item).includes(column));
}

/** A survey row's framework, stages or intention cell as the panel shows it, undisclosed claims in the cell they speak about. */
export function surveyCell(row: SurveyRow, column: UndisclosedColumn): string {
  const items = column === 'framework' ? row.frameworks : column === 'stages' ? row.stagesAndAlgorithms : row.intentions;
  return cellText(items, undisclosedIn(row, column));
}

/** Props of the survey view. */
export interface SurveyViewProps {
  rows: readonly IndexedRow[];
  /** False while only the first rows have arrived. */
  complete: boolean;
  filters: RowFilters;
  sort: RowSort;
  onFilters(filters: RowFilters): void;
  onSort(sort: RowSort): void;
  onOpen(row: SurveyRow): void;
  onJudgment(row: SurveyRow, judgment: string): Promise<void>;
  /** Exports the rows shown (all filters applied) as a file; no menu without it. */
  onExport?(rows: SurveyRow[], choice: PanelExportChoice): void | Promise<void>;
  /** True once an export of every row has been made ahead (shown in the menu's `data-export-prepared`). */
  exportPrepared?: boolean;
}

/** The survey view. */
export function SurveyView({ rows, complete, filters, sort, onFilters, onSort, onOpen, onJudgment, onExport, exportPrepared = false }: SurveyViewProps) {
  const [focus, setFocus] = useState(0);
  const [wide, setWide] = useState(false);
  const search = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWide(el.clientWidth >= WIDE_MIN));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const vendors = useMemo(() => vendorsOf(rows.map((r) => r.row)), [rows]);
  const visible = useMemo(() => sortRows(filterRows(rows, filters), sort), [rows, filters, sort]);
  const claimTotal = useMemo(() => visible.reduce((n, r) => n + r.row.claimCount, 0), [visible]);
  const set = (patch: Partial<RowFilters>) => {
    setFocus(0);
    onFilters({ ...filters, ...patch });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (target.closest('textarea, input, select')) return;
    if (e.key === 'ArrowDown' || e.key === 'j') {
      e.preventDefault();
      setFocus((f) => Math.min(visible.length - 1, f + 1));
    } else if (e.key === 'ArrowUp' || e.key === 'k') {
      e.preventDefault();
      setFocus((f) => Math.max(0, f - 1));
    } else if (e.key === 'Enter' && visible[focus]) {
      onOpen(visible[focus]!.row);
    } else if (e.key === '/') {
      e.preventDefault();
      search.current?.focus();
    }
  };

  return (
    <section ref={root} class="survey" onKeyDown={onKeyDown} aria-label={t('tabSurvey')}>
      <div class="filters" role="search">
        <input
          ref={search}
          type="search"
          class="search"
          placeholder={t('surveySearch')}
          value={filters.text}
          data-testid="survey-search"
          onInput={(e) => set({ text: e.currentTarget.value })}
        />
        <div class="filter-row">
          <EnumSelect
            aria-label={t('vendor')}
            data-testid="filter-vendor"
            values={vendors}
            value={filters.vendor}
            label={(v) => v}
            empty={t('allVendors')}
            onChange={(vendor) => set({ vendor })}
          />
          <EnumSelect
            aria-label={t('evidenceLevel')}
            data-testid="filter-evidence"
            values={EVIDENCE_LEVELS}
            value={filters.evidence}
            label={(l) => t('evidenceN', l)}
            empty={t('anyEvidence')}
            onChange={(evidence) => set({ evidence })}
          />
          <EnumSelect
            aria-label={t('fieldKind')}
            values={CLAIM_KINDS}
            value={filters.kind}
            label={kindLabel}
            empty={t('anyKind')}
            onChange={(kind) => set({ kind })}
          />
          <EnumSelect
            aria-label={t('fieldStage')}
            values={STAGES}
            value={filters.stage}
            label={stageLabel}
            empty={t('anyStage')}
            onChange={(stage) => set({ stage })}
          />
          <label class="check">
            <input type="checkbox" checked={filters.undisclosedOnly} onChange={(e) => set({ undisclosedOnly: e.currentTarget.checked })} />
            {t('hasUndisclosed')}
          </label>
          <select aria-label={t('sort')} value={sort} onChange={(e) => onSort(e.currentTarget.value as RowSort)}>
            <option value="model">{t('sortModel')}</option>
            <option value="evidence">{t('sortEvidence')}</option>
            <option value="updated">{t('sortUpdated')}</option>
            <option value="claims">{t('sortClaims')}</option>
          </select>
        </div>
        <div class="count-row">
          <p class="count muted" data-testid="survey-count">
            {plural(visible.length, 'rowsOne', 'rowsMany')} · {plural(claimTotal, 'claimsOne', 'claimsMany')}
            {visible.length !== rows.length ? t('ofRows', rows.length) : ''}
            {!complete && t('loadingRest')}
          </p>
          {onExport && (
            <ExportMenu
              rows={complete ? visible.length : 0}
              prepared={exportPrepared}
              onExport={(choice) =>
                onExport(
                  visible.map((r) => r.row),
                  choice,
                )
              }
            />
          )}
        </div>
      </div>
      {visible.length === 0 ? (
        <p class="empty-filter muted">{t('noRowMatches')}</p>
      ) : (
        <div class="table">
          <div class="table-head" aria-hidden="true">
            <span>{t('colModel')}</span>
            <span>{t('colEvidence')}</span>
            <span>{t('colFramework')}</span>
            <span>{t('colStages')}</span>
            <span>{t('colIntention')}</span>
            <span>{t('colJudgment')}</span>
          </div>
          <VirtualList
            items={visible}
            rowHeight={wide ? WIDE_ROW_HEIGHT : ROW_HEIGHT}
            focusIndex={focus}
            label={t('surveyRows')}
            renderRow={(item, index) => (
              <SurveyRowView
                row={item.row}
                focused={index === focus}
                onFocus={() => setFocus(index)}
                onOpen={() => onOpen(item.row)}
                onJudgment={(j) => onJudgment(item.row, j)}
              />
            )}
          />
        </div>
      )}
    </section>
  );
}

function SurveyRowView({
  row,
  focused,
  onFocus,
  onOpen,
  onJudgment,
}: {
  row: SurveyRow;
  focused: boolean;
  onFocus(): void;
  onOpen(): void;
  onJudgment(j: string): Promise<void>;
}) {
  const stageItems = row.stagesAndAlgorithms;
  const missing = row.stages.filter((s) => !s.disclosed).length;
  return (
    <div class={`srow ${focused ? 'srow-focus' : ''}`} data-testid="survey-row" data-model={row.model} data-recipe={row.recipe ?? ''} onClick={onFocus}>
      <div class="c-model">
        <button type="button" class="model-link" onClick={onOpen} tabIndex={focused ? 0 : -1} data-testid="open-model">
          {row.model}
          {row.recipe && <span class="recipe"> · {row.recipe}</span>}
        </button>
        <span class="muted small">
          <span data-testid="row-vendor" data-proposed={String(rowVendor(row).proposed)} title={rowVendor(row).proposed ? t('vendorProposedTitle') : undefined}>
            {vendorText(row)}
          </span>{' '}
          · {plural(row.claimCount, 'claimsOne', 'claimsMany')} · {plural(row.sourceCount, 'sourcesOne', 'sourcesMany')}
        </span>
        <span class="muted small">{t('updatedOn', row.lastUpdated.slice(0, 10))}</span>
        {row.warnings.length > 0 && (
          <span class="warn-count" title={row.warnings.map((w) => w.message).join('\n')}>
            ⚠ {row.warnings.length}
          </span>
        )}
      </div>
      <div class="c-ev">
        <EvidenceBadge level={row.evidence} title={evidenceText(row.evidenceReason)} />
      </div>
      <div class="c-cell" data-col="framework">
        <span class="cell-label">{t('cellFramework')}</span>
        <span class={row.frameworks.length ? '' : 'nd'} data-testid="cell-framework">
          {surveyCell(row, 'framework')}
        </span>
      </div>
      <div class="c-cell" data-col="stages">
        <span class="cell-label">{t('cellStages')}</span>
        <span class={stageItems.length ? '' : 'nd'} data-testid="cell-stages">
          {surveyCell(row, 'stages')}
        </span>
        <span class="stage-dots" aria-label={t('stagesDisclosed', row.stages.length - missing, row.stages.length)}>
          {row.stages.map((s) => (
            <i
              key={s.stage}
              class={s.disclosed ? 'on' : 'off'}
              title={`${stageLabel(s.stage)}${t('colon')}${s.disclosed ? s.items.map((i) => i.value).join(', ') : t('notDisclosed')}`}
            />
          ))}
        </span>
      </div>
      <div class="c-cell" data-col="intention">
        <span class="cell-label">{t('colIntention')}</span>
        <span class={row.intentions.length ? '' : 'nd'} data-testid="cell-intention">
          {surveyCell(row, 'intention')}
        </span>
      </div>
      <div class="c-cell c-judgment" data-col="judgment">
        <span class="cell-label">{t('colJudgment')}</span>
        <JudgmentEditor value={row.judgment} onSave={onJudgment} compact />
      </div>
    </div>
  );
}
