/**
 * Exporting everything or a filtered part of the store: survey records (JSONL), the survey table (Markdown or
 * CSV, English or Chinese headers) and W3C annotations, downloaded with a dated file name.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { EVIDENCE_LEVELS, modelKey, type Evidence } from '../../lib/schema';
import {
  buildExport,
  buildJsonlParts,
  filterExport,
  JsonlPartCache,
  NO_EXPORT_FILTER,
  type ExportData,
  type ExportFilter,
  type ExportKind,
} from '../../lib/export/files';
import type { ExportApi } from './api';
import { blobOfText, downloadParts, downloadText } from '../common/files';
import { nextIdle } from '../common/idle';
import { readSurvey } from '../common/survey-data';
import { locale, plural, t, type MessageKey } from '../../lib/i18n';

const BUTTONS: Array<{ kind: ExportKind; label: MessageKey; hint: MessageKey }> = [
  { kind: 'jsonl', label: 'exportJsonl', hint: 'exportJsonlHint' },
  { kind: 'md', label: 'exportTableMd', hint: 'exportTableMdHint' },
  { kind: 'csv', label: 'exportTableCsv', hint: 'exportTableCsvHint' },
  { kind: 'w3c', label: 'exportW3c', hint: 'exportW3cHint' },
];

/** The export controls. `version` changes when the store does (the records are read again). */
export function ExportPanel({ version = 0, api }: { version?: number; api: ExportApi }) {
  const [data, setData] = useState<ExportData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState<ExportFilter>(NO_EXPORT_FILTER);
  // The table's headers start in the language of the page.
  const [lang, setLang] = useState<'en' | 'zh'>(locale() === 'zh_CN' ? 'zh' : 'en');
  const [done, setDone] = useState<{ text: string; ms: number } | null>(null);
  const [exports, setExports] = useState(0);
  // The JSONL file of the chosen records made ahead in idle moments (their lines, then Blobs of a few hundred
  // rows each), once the records are here and again when the filter changes: a click then only joins Blobs.
  const parts = useMemo(() => new JsonlPartCache(blobOfText), []);
  const [prepared, setPrepared] = useState<ExportData | null>(null);

  useEffect(() => {
    let live = true;
    readSurvey(api.call).then(
      (d) => live && (setData(d), setError(null)),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [version, api]);

  const models = useMemo(() => [...new Set((data?.claims ?? []).map((c) => c.model).concat((data?.models ?? []).map((m) => m.model)))].sort(), [data]);
  const vendors = useMemo(() => [...new Set((data?.models ?? []).map((m) => m.vendor).filter((v): v is string => !!v))].sort(), [data]);
  const chosen = useMemo(() => (data ? filterExport(data, filter) : null), [data, filter]);
  const set = (patch: Partial<ExportFilter>) => setFilter((f) => ({ ...f, ...patch }));
  useEffect(() => {
    if (!chosen) return;
    const stop = new AbortController();
    parts.warm(chosen, { signal: stop.signal, idle: () => nextIdle() }).then(
      () => !stop.signal.aborted && setPrepared(chosen),
      () => undefined,
    );
    return () => stop.abort();
  }, [chosen, parts]);

  const run = (kind: ExportKind) => {
    if (!chosen) return;
    const t0 = performance.now();
    let file: { fileName: string; claims: number; models: number };
    if (kind === 'jsonl') {
      const jsonl = buildJsonlParts(chosen, parts);
      downloadParts(jsonl.fileName, jsonl.parts, jsonl.mimeType);
      file = jsonl;
    } else {
      const other = buildExport(kind, chosen, { lang });
      downloadText(other.fileName, other.text, other.mimeType);
      file = other;
    }
    const ms = performance.now() - t0;
    setDone({
      text: t('downloadedFile', file.fileName, plural(file.claims, 'claimsOne', 'claimsMany'), plural(file.models, 'modelRecordsOne', 'modelRecordsMany')),
      ms,
    });
    setExports((n) => n + 1);
  };

  const toggleLevel = (level: Evidence, on: boolean) => set({ evidence: on ? [...filter.evidence, level].sort() : filter.evidence.filter((l) => l !== level) });
  return (
    <section
      class="card"
      aria-labelledby="export-h"
      data-testid="export-panel"
      data-exports={exports}
      data-export-ms={done ? done.ms.toFixed(1) : ''}
      data-export-prepared={prepared !== null && prepared === chosen ? 'yes' : 'no'}
    >
      <h2 id="export-h">{t('export')}</h2>
      {error && (
        <p class="error" role="alert">
          {t('errStoreReadShort', error)}
        </p>
      )}
      <fieldset class="filters">
        <legend>{t('whichRecords')}</legend>
        <label class="stack">
          {t('models')}
          <select
            multiple
            size={Math.min(6, Math.max(3, models.length))}
            data-testid="export-models"
            onChange={(e) => set({ models: [...e.currentTarget.selectedOptions].map((o) => o.value) })}
          >
            {models.map((m) => (
              <option key={m} value={m} selected={filter.models.includes(m)}>
                {m}
              </option>
            ))}
          </select>
          <span class="muted small">{t('noneSelectedEveryModel')}</span>
        </label>
        <div class="stack">
          <label>
            {t('vendor')}{' '}
            <select value={filter.vendor} data-testid="export-vendor" onChange={(e) => set({ vendor: e.currentTarget.value })}>
              <option value="">{t('anyVendor')}</option>
              {vendors.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
          <span>
            {t('fieldEvidence')}{' '}
            {EVIDENCE_LEVELS.map((level) => (
              <label key={level} class="check">
                <input
                  type="checkbox"
                  checked={filter.evidence.includes(level)}
                  data-testid={`export-evidence-${level}`}
                  onChange={(e) => toggleLevel(level, e.currentTarget.checked)}
                />{' '}
                {level}
              </label>
            ))}
          </span>
          <label>
            {t('changedFrom')} <input type="date" value={filter.from} data-testid="export-from" onInput={(e) => set({ from: e.currentTarget.value })} />
          </label>
          <label>
            {t('changedTo')} <input type="date" value={filter.to} data-testid="export-to" onInput={(e) => set({ to: e.currentTarget.value })} />
          </label>
          <button type="button" class="link" data-testid="export-clear" onClick={() => setFilter(NO_EXPORT_FILTER)}>
            {t('clearFilters')}
          </button>
        </div>
      </fieldset>
      <p class="muted" data-testid="export-count">
        {chosen
          ? t(
              'exportWillExport',
              plural(chosen.claims.length, 'claimsOne', 'claimsMany'),
              plural(chosen.models.length, 'modelRecordsOne', 'modelRecordsMany'),
              new Set(chosen.claims.map((c) => modelKey(c.model, c.recipe))).size,
            )
          : t('readingStore')}
      </p>
      <div class="row">
        <span>{t('tableHeaders')}</span>
        <label class="check">
          <input type="radio" name="export-lang" checked={lang === 'en'} data-testid="export-lang-en" onChange={() => setLang('en')} /> {t('languageEnglish')}
        </label>
        <label class="check">
          <input type="radio" name="export-lang" checked={lang === 'zh'} data-testid="export-lang-zh" onChange={() => setLang('zh')} />{' '}
          {t('languageChineseShort')}
        </label>
      </div>
      <div class="actions export-buttons">
        {BUTTONS.map((b) => (
          <button key={b.kind} type="button" title={t(b.hint)} disabled={!chosen} data-testid={`export-${b.kind}`} onClick={() => run(b.kind)}>
            {t(b.label)}
          </button>
        ))}
      </div>
      {done && (
        <p class="muted small" role="status" data-testid="export-status">
          {done.text}
        </p>
      )}
      <p class="muted small">
        {t('exportDeterministic')}
        <code>#:~:text=</code>
        {t('exportDeterministicTail')}
      </p>
    </section>
  );
}
