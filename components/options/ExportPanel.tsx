/**
 * Exporting everything or a filtered part of the store: survey records (JSONL), the survey table (Markdown or
 * CSV, English or Chinese headers) and W3C annotations, downloaded with a dated file name.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { EVIDENCE_LEVELS, modelKey, type Evidence } from '../../lib/schema';
import { buildExport, filterExport, NO_EXPORT_FILTER, type ExportData, type ExportFilter, type ExportKind } from '../../lib/export/files';
import { callBackground } from '../../lib/messages';
import { downloadText } from '../common/files';

/** Where the export panel gets the store's records. */
export interface ExportApi {
  load(): Promise<ExportData>;
}

/** Reads every claim and model record through the message protocol. */
export const backgroundExportApi: ExportApi = {
  load: async () => JSON.parse((await callBackground('survey.data', {})).json) as ExportData,
};

const BUTTONS: Array<{ kind: ExportKind; label: string; hint: string }> = [
  { kind: 'jsonl', label: 'Survey records (JSONL)', hint: 'claims and model records, the dataset format' },
  { kind: 'md', label: 'Survey table (Markdown)', hint: 'the seed’s columns, every cell footnoted to its sources' },
  { kind: 'csv', label: 'Survey table (CSV)', hint: 'the same table for spreadsheets' },
  { kind: 'w3c', label: 'W3C annotations (JSON-LD)', hint: 'claims for other annotation tools' },
];

/** The export controls. `version` changes when the store does (the records are read again). */
export function ExportPanel({ version = 0, api = backgroundExportApi }: { version?: number; api?: ExportApi }) {
  const [data, setData] = useState<ExportData | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState<ExportFilter>(NO_EXPORT_FILTER);
  const [lang, setLang] = useState<'en' | 'zh'>('en');
  const [done, setDone] = useState<{ text: string; ms: number } | null>(null);
  const [exports, setExports] = useState(0);

  useEffect(() => {
    let live = true;
    api.load().then(
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

  const run = (kind: ExportKind) => {
    if (!chosen) return;
    const t0 = performance.now();
    const file = buildExport(kind, chosen, { lang });
    downloadText(file.fileName, file.text, file.mimeType);
    const ms = performance.now() - t0;
    setDone({ text: `Downloaded ${file.fileName}: ${file.claims} claim${file.claims === 1 ? '' : 's'}, ${file.models} model record${file.models === 1 ? '' : 's'}.`, ms });
    setExports((n) => n + 1);
  };

  const toggleLevel = (level: Evidence, on: boolean) => set({ evidence: on ? [...filter.evidence, level].sort() : filter.evidence.filter((l) => l !== level) });
  return (
    <section class="card" aria-labelledby="export-h" data-testid="export-panel" data-exports={exports} data-export-ms={done ? done.ms.toFixed(1) : ''}>
      <h2 id="export-h">Export</h2>
      {error && (
        <p class="error" role="alert">
          Could not read the store: {error}
        </p>
      )}
      <fieldset class="filters">
        <legend>Which records</legend>
        <label class="stack">
          Models
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
          <span class="muted small">none selected: every model</span>
        </label>
        <div class="stack">
          <label>
            Vendor{' '}
            <select value={filter.vendor} data-testid="export-vendor" onChange={(e) => set({ vendor: e.currentTarget.value })}>
              <option value="">Any vendor</option>
              {vendors.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
          <span>
            Evidence{' '}
            {EVIDENCE_LEVELS.map((level) => (
              <label key={level} class="check">
                <input type="checkbox" checked={filter.evidence.includes(level)} data-testid={`export-evidence-${level}`} onChange={(e) => toggleLevel(level, e.currentTarget.checked)} /> {level}
              </label>
            ))}
          </span>
          <label>
            Changed from <input type="date" value={filter.from} data-testid="export-from" onInput={(e) => set({ from: e.currentTarget.value })} />
          </label>
          <label>
            to <input type="date" value={filter.to} data-testid="export-to" onInput={(e) => set({ to: e.currentTarget.value })} />
          </label>
          <button type="button" class="link" data-testid="export-clear" onClick={() => setFilter(NO_EXPORT_FILTER)}>
            Clear filters
          </button>
        </div>
      </fieldset>
      <p class="muted" data-testid="export-count">
        {chosen
          ? `${chosen.claims.length} claim${chosen.claims.length === 1 ? '' : 's'} and ${chosen.models.length} model record${chosen.models.length === 1 ? '' : 's'} (${new Set(chosen.claims.map((c) => modelKey(c.model, c.recipe))).size} table rows) will be exported.`
          : 'Reading the store…'}
      </p>
      <div class="row">
        <span>Table headers:</span>
        <label class="check">
          <input type="radio" name="export-lang" checked={lang === 'en'} data-testid="export-lang-en" onChange={() => setLang('en')} /> English
        </label>
        <label class="check">
          <input type="radio" name="export-lang" checked={lang === 'zh'} data-testid="export-lang-zh" onChange={() => setLang('zh')} /> 中文
        </label>
      </div>
      <div class="actions export-buttons">
        {BUTTONS.map((b) => (
          <button key={b.kind} type="button" title={b.hint} disabled={!chosen} data-testid={`export-${b.kind}`} onClick={() => run(b.kind)}>
            {b.label}
          </button>
        ))}
      </div>
      {done && (
        <p class="muted small" role="status" data-testid="export-status">
          {done.text}
        </p>
      )}
      <p class="muted small">
        Exports are deterministic: the same records give a byte-identical JSONL file. Every claim carries a link that opens its page at the
        passage (<code>#:~:text=</code>).
      </p>
    </section>
  );
}
