/** The evidence panel: the survey table, one model's recipe, and the active tab's page — live as claims change. */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CLAIM_SCHEMA, MODEL_SCHEMA, modelKey } from '../../lib/schema/constants';
import type { ClaimRecord, ModelRecord, SourceOverride, SourceRecord, Stage } from '../../lib/schema';
import { mintClaimId } from '../../lib/capture/ids';
import { NO_FILTERS, indexRows, type RowFilters, type RowSort } from '../../lib/panel/rows';
import { deriveRows, isTombstone, unchangedSince, type SurveyRow } from '../../lib/survey';
import { STAGE_LABELS } from '../../lib/taxonomy';
import { nowTimestamp, today } from '../../lib/time';
import type { BackupStatus } from '../../lib/backup';
import type { ResponseOf } from '../../lib/messages';
import type { JsonlPartCache } from '../../lib/export/files';
import { blobOfText, downloadParts, downloadText } from '../common/files';
import { nextIdle } from '../common/idle';
import { readSurvey } from '../common/survey-data';
import { backupReason, useLocale } from '../common/i18n';
import { plural, stageLabel, t, type MessageKey } from '../../lib/i18n';
import type { PanelExportChoice } from './ExportMenu';
import type { PanelApi } from './api';
import type { ClaimActions } from './ClaimItem';
import { DatasetBar } from './DatasetBar';
import { ModelView, type SourceChoice } from './ModelView';
import { PageView } from './PageView';
import { SurveyView } from './SurveyView';

type View = 'survey' | 'model' | 'page';
interface Toast {
  id: number;
  text: string;
  tone: 'info' | 'error';
  undo?: ClaimRecord[];
}

let toastSeq = 0;
/** How many models the first, quick query brings: enough to fill a tall panel. */
const HEAD_MODELS = 12;

/**
 * The export code (with the record schemas it validates W3C output against), loaded on its first use rather than
 * before the first rows; the panel starts loading it once every row has arrived, so an export does not wait for it.
 */
const exporter = () => import('../../lib/export/files');

/** The survey's records (the first rows' only, or every one), and the source records their "as of" days follow. */
type SurveyData = { claims: ClaimRecord[]; models: ModelRecord[]; sources?: SourceRecord[] };

/**
 * Root of the side panel. `first`: the first rows' records as the page already asked for them (`survey.head`, sent
 * before anything else), taken as soon as they arrive rather than after the first paint's effects; without it the
 * panel asks for them itself.
 */
export function PanelApp({ api, now = () => new Date(), first }: { api: PanelApi; now?: () => Date; first?: Promise<SurveyData | undefined> }) {
  useLocale();
  const [data, setData] = useState<SurveyData | null>(null);
  const [complete, setComplete] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [view, setView] = useState<View>('survey');
  const [selected, setSelected] = useState<string | null>(null);
  const [filters, setFilters] = useState<RowFilters>(NO_FILTERS);
  const [sort, setSort] = useState<RowSort>('model');
  const [page, setPage] = useState<ResponseOf<'tab.page'> | null>(null);
  const [toasts, setToasts] = useState<Toast[]>([]);
  // Bumped when the store changes: the dataset bar counts its unpublished changes again.
  const [storeVersion, setStoreVersion] = useState(0);

  const reload = useCallback(() => {
    readSurvey(api.call)
      .then((d) => {
        setData(d);
        setComplete(true);
        setLoadError(null);
      })
      .catch((e: unknown) => setLoadError(e instanceof Error ? e.message : String(e)));
  }, [api]);
  const reloadPage = useCallback(() => {
    api.call('tab.page', { windowId: api.windowId }).then(setPage, () => setPage(null));
  }, [api]);

  // The first rows, as soon as they arrive: a layout effect subscribes before the first paint (an effect would wait
  // for the next frame), and the render they cause follows at once.
  const head = useMemo(() => first ?? api.call('survey.head', { models: HEAD_MODELS }), [api]);
  useLayoutEffect(() => {
    void head.then(
      (rows) => rows && setData((current) => current ?? rows),
      () => undefined,
    );
  }, [head]);

  useEffect(() => {
    // Then everything (a store of 10,000 claims takes a moment). The full read starts only once the first rows are
    // in, so it cannot delay them.
    void head
      .catch(() => undefined)
      .then(() => {
        reload();
        reloadPage();
      });
    let timer: number | undefined;
    const offChange = api.onChange(() => {
      clearTimeout(timer);
      timer = window.setTimeout(() => {
        reload();
        reloadPage();
        setStoreVersion((v) => v + 1);
      }, 120);
    });
    const offTab = api.onActiveTabChange(reloadPage);
    return () => {
      offChange();
      offTab();
    };
  }, [api]);

  const rows = useMemo(
    () => (data ? deriveRows(data.claims, data.models, { now: nowTimestamp(now()), unchangedSince: unchangedSince(data.sources) }) : []),
    [data],
  );
  const indexed = useMemo(() => indexRows(rows), [rows]);
  const byId = useMemo(() => new Map((data?.claims ?? []).map((c) => [c.id, c])), [data]);
  const modelNames = useMemo(() => [...new Set(rows.map((r) => r.model))], [rows]);
  const row = rows.find((r) => r.key === selected) ?? null;

  const toast = (text: string, tone: Toast['tone'] = 'info', undo?: ClaimRecord[]) => {
    const id = ++toastSeq;
    setToasts((all) => [...all.slice(-2), { id, text, tone, undo }]);
    window.setTimeout(() => setToasts((all) => all.filter((x) => x.id !== id)), tone === 'error' ? 12000 : 8000);
  };
  const fail = (what: MessageKey) => (e: unknown) => toast(`${t(what)}${t('colon')}${e instanceof Error ? e.message : String(e)}`, 'error');

  /**
   * The records of these rows as an export takes them: the rows' claims and the model records of the rows. The rows
   * go in the survey's own order whatever the view's sort, so the same rows give the same lists (the export's parts
   * made ahead then need no sort again).
   */
  const rowsData = (shown: readonly SurveyRow[]) => {
    const at = new Map(rows.map((r, i) => [r, i]));
    const ordered = [...shown].sort((a, b) => (at.get(a) ?? rows.length) - (at.get(b) ?? rows.length));
    const keys = new Set(shown.map((r) => r.key));
    return { claims: ordered.flatMap((r) => r.claims), models: (data?.models ?? []).filter((m) => keys.has(modelKey(m.model, m.recipe))) };
  };

  // Once every row is in: the export code, and the JSONL file of every row made ahead in idle moments (the records'
  // lines, then Blobs of a few hundred rows each), so a click only joins Blobs. `prepared`: the rows it was made for.
  const parts = useRef<JsonlPartCache<Blob> | null>(null);
  const [prepared, setPrepared] = useState<SurveyRow[] | null>(null);
  useEffect(() => {
    if (!complete || !data) return;
    const stop = new AbortController();
    exporter()
      .then(({ JsonlPartCache }) => {
        parts.current ??= new JsonlPartCache(blobOfText);
        return parts.current.warm(rowsData(rows), { signal: stop.signal, idle: () => nextIdle() });
      })
      .then(() => !stop.signal.aborted && setPrepared(rows))
      .catch(() => undefined);
    return () => stop.abort();
  }, [complete, data, rows]);

  // The backup reminder, read again whenever the store changes (once every row is in: not on the first rows' path).
  const [backup, setBackup] = useState<BackupStatus | null>(null);
  useEffect(() => {
    if (complete) api.call('backup.status', {}).then(setBackup, () => setBackup(null));
  }, [api, data, complete]);

  /** Downloads the rows the survey shows as one file. */
  const exportRows = async (shown: SurveyRow[], choice: PanelExportChoice) => {
    const { claims, models } = rowsData(shown);
    try {
      const { buildExport, buildJsonlParts, citedSources, JsonlPartCache } = await exporter();
      const sources = citedSources(claims, data?.sources);
      let fileName: string;
      if (choice.kind === 'jsonl') {
        parts.current ??= new JsonlPartCache(blobOfText);
        const file = buildJsonlParts({ claims, models, sources }, parts.current, { now: now() });
        downloadParts(file.fileName, file.parts, file.mimeType);
        fileName = file.fileName;
      } else {
        const file = buildExport(choice.kind, { claims, models, sources }, { lang: choice.lang, now: now() });
        downloadText(file.fileName, file.text, file.mimeType);
        fileName = file.fileName;
      }
      toast(t('downloadedRows', fileName, plural(shown.length, 'rowsOne', 'rowsMany'), plural(claims.length, 'claimsOne', 'claimsMany')));
    } catch (e) {
      fail('errExport')(e);
    }
  };

  const claimActions: ClaimActions = {
    reveal: (claim) => void api.call('claims.reveal', { id: claim.id, link: claim.link ?? null }).catch(fail('errReveal')),
    save: async (claim) => {
      await api.call('claims.save', { claims: [claim] });
      toast(t('toastSaved', claim.value, `${claim.model}${claim.recipe ? ` · ${claim.recipe}` : ''}`));
      reload();
    },
    remove: (claim) =>
      void api
        .call('claims.delete', { ids: [claim.id] })
        .then(({ deleted }) => {
          toast(t('toastDeleted', claim.value, claim.model), 'info', deleted);
          reload();
        })
        .catch(fail('errDelete')),
  };

  const undo = (item: Toast) => {
    setToasts((all) => all.filter((x) => x.id !== item.id));
    if (item.undo?.length) void api.call('claims.restore', { claims: item.undo }).then(reload).catch(fail('errUndo'));
  };

  /** Writes a row's model record with some fields changed (a new record when it has none, or only a tombstone). */
  const saveModelFields = async (r: SurveyRow, fields: Partial<Pick<ModelRecord, 'judgment' | 'vendor'>>) => {
    const existing = data?.models.find((m) => !isTombstone(m) && m.model === r.model && (m.recipe ?? null) === r.recipe);
    const record: ModelRecord = existing
      ? { ...existing, ...fields, updated_at: nowTimestamp(now()) }
      : {
          schema: MODEL_SCHEMA,
          model: r.model,
          recipe: r.recipe,
          vendor: r.vendor,
          based_on: r.basedOn,
          judgment: r.judgment,
          ...fields,
          updated_at: nowTimestamp(now()),
        };
    await api.call('model.save', { record });
    reload();
  };

  const saveJudgment = (r: SurveyRow, judgment: string) => saveModelFields(r, { judgment });

  const saveVendor = async (r: SurveyRow, vendor: string | null) => {
    await saveModelFields(r, { vendor });
    const label = r.recipe ? `${r.model} · ${r.recipe}` : r.model;
    toast(vendor ? t('toastVendorSaved', label, vendor) : t('toastVendorCleared', label));
  };

  const recordUndisclosed = async (r: SurveyRow, stage: Stage, choice: SourceChoice, note: string) => {
    const claim: ClaimRecord = {
      schema: CLAIM_SCHEMA,
      id: mintClaimId(),
      model: r.model,
      recipe: r.recipe,
      kind: 'undisclosed',
      stage,
      value: STAGE_LABELS[stage],
      evidence: 'C',
      evidence_reason: null,
      quote: { exact: choice.source.title || choice.url, prefix: '', suffix: '' },
      position: null,
      source: { ...choice.source, accessed: today(now()) },
      link: choice.url,
      note,
      curator: '',
      created_at: nowTimestamp(now()),
      updated_at: nowTimestamp(now()),
    };
    await api.call('claims.save', { claims: [claim] });
    toast(t('toastRecordedUndisclosed', stageLabel(stage), choice.label));
    reload();
  };

  const sourcesFor = (r: SurveyRow): SourceChoice[] => {
    const choices = new Map<string, SourceChoice>();
    const report = page?.report;
    if (report) {
      const src = report.source;
      choices.set(report.url, {
        url: report.url,
        label: t('thisTabSource', src.title || report.url),
        source: { url: report.url, title: src.title, kind: src.kind, publisher: src.publisher, published: src.published },
      });
    }
    for (const c of r.claims) {
      if (!choices.has(c.source.url)) {
        const src = c.source;
        choices.set(src.url, {
          url: src.url,
          label: src.title || src.url,
          source: { url: src.url, title: src.title, kind: src.kind, publisher: src.publisher ?? null, published: src.published ?? null },
        });
      }
    }
    return [...choices.values()];
  };

  const open = (r: SurveyRow) => {
    setSelected(r.key);
    setView('model');
  };

  const pageCount = page?.report?.order.length ?? 0;
  return (
    <div class="panel">
      <nav class="tabs" role="tablist" aria-label={t('views')}>
        <button type="button" role="tab" aria-selected={view === 'survey'} data-testid="tab-survey" onClick={() => setView('survey')}>
          {t('tabSurvey')}
        </button>
        <button type="button" role="tab" aria-selected={view === 'model'} disabled={!row} data-testid="tab-model" onClick={() => setView('model')}>
          {row ? row.model : t('colModel')}
        </button>
        <button type="button" role="tab" aria-selected={view === 'page'} data-testid="tab-page" onClick={() => setView('page')}>
          {t('thisPage')}
          {pageCount ? ` (${pageCount})` : ''}
        </button>
      </nav>
      <DatasetBar api={api} version={storeVersion} onOpenOptions={api.openOptions} />
      <main class="view">
        {loadError && (
          <p class="error pad" role="alert">
            {t('errStoreRead', loadError)}
          </p>
        )}
        {!data && !loadError && <p class="muted pad">{t('readingStore')}</p>}
        {data && view === 'survey' && backup?.due && (
          <p class="backup-nudge" role="status" data-testid="panel-backup-reminder">
            <span>{t('backupTime', backupReason(backup))}</span>
            {api.openOptions && (
              <button type="button" class="link" onClick={() => api.openOptions?.()}>
                {t('backUpEllipsis')}
              </button>
            )}
          </p>
        )}
        {data &&
          view === 'survey' &&
          (rows.length === 0 ? (
            <EmptyState />
          ) : (
            <SurveyView
              rows={indexed}
              complete={complete}
              filters={filters}
              sort={sort}
              onFilters={setFilters}
              onSort={setSort}
              onOpen={open}
              onJudgment={saveJudgment}
              onExport={exportRows}
              exportPrepared={prepared === rows}
            />
          ))}
        {data && view === 'model' && row && (
          <ModelView
            row={row}
            related={rows.filter((r) => row.related.includes(r.key))}
            models={modelNames}
            sources={sourcesFor(row)}
            actions={claimActions}
            onBack={() => setView('survey')}
            onOpen={open}
            onJudgment={(j) => saveJudgment(row, j)}
            onVendor={(v) => saveVendor(row, v)}
            onRecordUndisclosed={(stage, source, note) => recordUndisclosed(row, stage, source, note)}
            recheck={api}
          />
        )}
        {data && view === 'page' && (
          <PageView
            page={page}
            claims={byId}
            models={modelNames}
            actions={claimActions}
            onCorrectSource={async (source: SourceOverride) => {
              const { updated: n } = await api.call('source.correct', { source });
              toast(plural(n, 'sourceCorrectedOne', 'sourceCorrectedMany'));
              reload();
              reloadPage();
            }}
            onPassage={(id, action) => {
              const tabId = page?.tabId;
              if (tabId === undefined || tabId < 0) return;
              void api
                .call('tab.passage', { tabId, id, action })
                .then(({ done }) => {
                  if (action === 'reattach' && done) toast(t('toastSelectNewPassage'));
                  if (action === 'confirm' && done) reloadPage();
                  if (!done) toast(t('errPageCouldNot'), 'error');
                })
                .catch(fail(action === 'confirm' ? 'errConfirm' : 'errReattach'));
            }}
            onFinder={page && page.tabId >= 0 ? (action, key) => api.call('tab.finder', { tabId: page.tabId, action, key }) : undefined}
          />
        )}
      </main>
      {toasts.length > 0 && (
        <div class="toasts" role="status" aria-live="polite">
          {toasts.map((item) => (
            <div key={item.id} class={`toast toast-${item.tone}`} data-testid="panel-toast">
              <span>{item.text}</span>
              {item.undo && (
                <button type="button" class="link" data-testid="panel-undo" onClick={() => undo(item)}>
                  {t('undo')}
                </button>
              )}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** What the panel shows before the first claim: the three steps. */
function EmptyState() {
  return (
    <section class="empty-state" data-testid="panel-empty">
      <h2>{t('emptyTitle')}</h2>
      <ol>
        <li>
          <b>{t('stepSelect')}</b> {t('emptySelect')}
        </li>
        <li>
          <b>{t('stepTag')}</b> {t('emptyTag')}
          <kbd>Alt</kbd>+<kbd>Shift</kbd>+<kbd>C</kbd>
          {t('fullStop')}
        </li>
        <li>
          <b>{t('stepReview')}</b> {t('emptyReview')}
        </li>
      </ol>
      <p class="muted">{t('emptyImport')}</p>
    </section>
  );
}
