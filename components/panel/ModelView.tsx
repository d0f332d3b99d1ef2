/** One model (or recipe): its pipeline, its claims grouped by stage and kind, warnings, lineage and judgment. */
import { useState } from 'preact/hooks';
import { CLAIM_KINDS, STAGES } from '../../lib/schema/constants';
import type { ClaimRecord, SourceKind, Stage } from '../../lib/schema';
import { kindLabel, plural, stageLabel, t } from '../../lib/i18n';
import type { SurveyRow } from '../../lib/survey';
import { EvidenceBadge, evidenceText, Warnings } from './Badges';
import { ClaimItem, type ClaimActions } from './ClaimItem';
import { JudgmentEditor } from './JudgmentEditor';
import { Pipeline } from './Pipeline';
import { VendorEditor } from './VendorEditor';
import type { RecheckApi } from '../recheck/api';
import { RecheckDetails } from '../recheck/RecheckDetails';

/** A source a "not disclosed" record can cite. */
export interface SourceChoice {
  url: string;
  label: string;
  source: { url: string; title: string; kind: SourceKind; publisher: string | null; published: string | null };
}

/** Props of the model view. */
export interface ModelViewProps {
  row: SurveyRow;
  related: readonly SurveyRow[];
  models: readonly string[];
  sources: readonly SourceChoice[];
  actions: ClaimActions;
  onBack(): void;
  onOpen(row: SurveyRow): void;
  onJudgment(judgment: string): Promise<void>;
  /** Stores the vendor in the model record (null clears it). */
  onVendor(vendor: string | null): Promise<void>;
  onRecordUndisclosed(stage: Stage, source: SourceChoice, note: string): Promise<void>;
  /** Rechecking this model's sources (none: not offered). */
  recheck?: RecheckApi;
}

/** The model view. */
export function ModelView({ row, related, models, sources, actions, onBack, onOpen, onJudgment, onVendor, onRecordUndisclosed, recheck }: ModelViewProps) {
  const [recording, setRecording] = useState<Stage | null>(null);
  const groups = groupClaims(row.claims);
  return (
    <section class="model" aria-label={t('modelAria', row.model)} data-testid="model-view">
      <header class="model-head">
        <button type="button" class="link" onClick={onBack} data-testid="back">
          ← {t('tabSurvey')}
        </button>
        <div class="model-title">
          <h2>
            {row.model}
            {row.recipe && <span class="recipe"> · {row.recipe}</span>}
          </h2>
          <EvidenceBadge level={row.evidence} title={evidenceText(row.evidenceReason)} />
        </div>
        <p class="muted small" data-testid="evidence-explanation">
          {evidenceText(row.evidenceReason)} · {t('claimsFromSources', row.claimCount, plural(row.sourceCount, 'sourcesOne', 'sourcesMany'))}
        </p>
        <p class="small vendor-line" data-testid="model-vendor">
          {t('vendorLabel')} <VendorEditor row={row} onSave={onVendor} />
        </p>
        {related.length > 0 && (
          <p class="related small" data-testid="related">
            {t('relatedLabel')}{' '}
            {related.map((r) => (
              <button key={r.key} type="button" class="link" onClick={() => onOpen(r)}>
                {r.model}
                {r.recipe ? ` · ${r.recipe}` : ''}
              </button>
            ))}
          </p>
        )}
      </header>

      {recheck && <RecheckDetails api={recheck} model={row.model} />}

      <div class="block">
        <h3>{t('colJudgment')}</h3>
        <JudgmentEditor value={row.judgment} onSave={onJudgment} />
      </div>

      <div class="block">
        <h3>{t('pipeline')}</h3>
        <Pipeline stages={row.stages} onRecordUndisclosed={sources.length ? setRecording : undefined} />
        {recording && (
          <UndisclosedForm
            stage={recording}
            sources={sources}
            onCancel={() => setRecording(null)}
            onSave={async (source, note) => {
              await onRecordUndisclosed(recording, source, note);
              setRecording(null);
            }}
          />
        )}
      </div>

      {row.warnings.length > 0 && (
        <div class="block">
          <h3>{t('warnings')}</h3>
          <Warnings warnings={row.warnings} />
        </div>
      )}

      <div class="block">
        <h3>{t('claimsHeading')}</h3>
        {groups.length === 0 && <p class="muted">{t('noClaimsForRow')}</p>}
        {groups.map((g) => (
          <div key={g.key} class="group">
            <h4>{g.title}</h4>
            {g.claims.map((c) => (
              <ClaimItem key={c.id} claim={c} actions={actions} models={models} />
            ))}
          </div>
        ))}
      </div>
    </section>
  );
}

function groupClaims(claims: readonly ClaimRecord[]): Array<{ key: string; title: string; claims: ClaimRecord[] }> {
  const groups: Array<{ key: string; title: string; claims: ClaimRecord[] }> = [];
  for (const stage of [...STAGES, null]) {
    for (const kind of CLAIM_KINDS) {
      const list = claims.filter((c) => (c.stage ?? null) === stage && c.kind === kind);
      if (list.length) groups.push({ key: `${stage}:${kind}`, title: `${stage ? stageLabel(stage) : t('noStageGroup')} · ${kindLabel(kind)}`, claims: list });
    }
  }
  return groups;
}

function UndisclosedForm({
  stage,
  sources,
  onSave,
  onCancel,
}: {
  stage: Stage;
  sources: readonly SourceChoice[];
  onSave(source: SourceChoice, note: string): Promise<void>;
  onCancel(): void;
}) {
  const [url, setUrl] = useState(sources[0]?.url ?? '');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      class="undisclosed-form"
      data-testid="undisclosed-form"
      onSubmit={async (e) => {
        e.preventDefault();
        const source = sources.find((s) => s.url === url);
        if (!source) return setError(t('pickSource'));
        try {
          await onSave(source, note.trim());
        } catch (err) {
          setError(t('notSavedBecause', err instanceof Error ? err.message : String(err)));
        }
      }}
      onKeyDown={(e) => e.key === 'Escape' && onCancel()}
    >
      <p>
        {t('recordUndisclosedLead')}
        <b>{stageLabel(stage)}</b>
        {t('recordUndisclosedTail')}
      </p>
      <label>
        {t('sourceSection')}
        <select value={url} onChange={(e) => setUrl(e.currentTarget.value)}>
          {sources.map((s) => (
            <option key={s.url} value={s.url}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('fieldNote')}
        <input value={note} placeholder={t('undisclosedNotePlaceholder')} onInput={(e) => setNote(e.currentTarget.value)} />
      </label>
      {error && <p class="error">{error}</p>}
      <footer class="claim-actions">
        <button type="button" class="btn" onClick={onCancel}>
          {t('cancel')}
        </button>
        <button type="submit" class="btn primary">
          {t('recordUndisclosed')}
        </button>
      </footer>
    </form>
  );
}
