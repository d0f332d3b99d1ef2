/** One claim in the panel: quote, evidence, source, warnings, and its actions (show passage, edit/move, delete). */
import { useState } from 'preact/hooks';
import { CLAIM_KINDS, EVIDENCE_LEVELS, STAGES } from '../../lib/schema/constants';
import type { ClaimKind, ClaimRecord, Evidence, Stage } from '../../lib/schema';
import { suggestEvidence, needsReason } from '../../lib/evidence';
import { canonicalValue } from '../../lib/taxonomy';
import { evidenceLabel, kindLabel, sourceKindLabel, stageLabel, t } from '../../lib/i18n';
import { claimWarnings } from '../../lib/survey';
import { nowTimestamp } from '../../lib/time';
import { EnumSelect } from '../common/EnumSelect';
import { EvidenceBadge, KindChip, Warnings } from './Badges';

/** What a claim item can ask for. */
export interface ClaimActions {
  reveal(claim: ClaimRecord): void;
  save(claim: ClaimRecord): Promise<void>;
  remove(claim: ClaimRecord): void;
}

/** A claim with its actions; `orphan` marks a claim whose passage was not found on the open page. */
export function ClaimItem({
  claim,
  actions,
  orphan = false,
  models,
  showModel = false,
}: {
  claim: ClaimRecord;
  actions: ClaimActions;
  orphan?: boolean;
  models: readonly string[];
  showModel?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const warnings = claimWarnings(claim);
  const s = claim.source;
  if (editing)
    return (
      <ClaimEditor
        claim={claim}
        models={models}
        onCancel={() => setEditing(false)}
        onSave={async (c) => {
          await actions.save(c);
          setEditing(false);
        }}
      />
    );
  return (
    <article class={`claim ${orphan ? 'claim-orphan' : ''}`} data-testid="panel-claim" data-claim-id={claim.id}>
      <header class="claim-head">
        <KindChip kind={claim.kind} />
        <strong class="claim-value">{claim.value}</strong>
        {orphan && (
          <span class="orphan-tag" title={t('orphanTagTitle')}>
            {t('orphanTag')}
          </span>
        )}
        <EvidenceBadge level={claim.evidence} title={claim.evidence_reason ?? suggestEvidence(s.kind, claim.kind).reason} />
      </header>
      {showModel && (
        <p class="claim-model">
          {claim.model}
          {claim.recipe && <span class="recipe"> · {claim.recipe}</span>}
          {claim.stage && <span class="muted"> · {stageLabel(claim.stage)}</span>}
        </p>
      )}
      <blockquote class="claim-quote">{claim.quote.exact}</blockquote>
      <p class="claim-source">
        <span>{sourceKindLabel(s.kind)}</span>
        {s.publisher && <span> · {s.publisher}</span>}
        <span> · {s.published ?? t('undated')}</span>
        <span class="muted"> · {t('readOn', s.accessed)}</span>
      </p>
      <p class="claim-title muted" title={s.url}>
        {s.title || s.url}
      </p>
      {claim.note && <p class="claim-note">{claim.note}</p>}
      <Warnings warnings={warnings} />
      <footer class="claim-actions">
        <button type="button" class="link" data-testid="claim-reveal" onClick={() => actions.reveal(claim)}>
          {t('showPassage')}
        </button>
        <button type="button" class="link" data-testid="claim-edit" onClick={() => setEditing(true)}>
          {t('editMove')}
        </button>
        <button type="button" class="link danger" data-testid="claim-delete" onClick={() => actions.remove(claim)}>
          {t('delete')}
        </button>
      </footer>
    </article>
  );
}

/** Inline editor of one claim; changing model or recipe moves it to another row. */
function ClaimEditor({
  claim,
  models,
  onSave,
  onCancel,
}: {
  claim: ClaimRecord;
  models: readonly string[];
  onSave: (c: ClaimRecord) => Promise<void>;
  onCancel: () => void;
}) {
  const [model, setModel] = useState(claim.model);
  const [recipe, setRecipe] = useState(claim.recipe ?? '');
  const [kind, setKind] = useState<ClaimKind>(claim.kind);
  const [stage, setStage] = useState<Stage | ''>(claim.stage ?? '');
  const [value, setValue] = useState(claim.value);
  const [evidence, setEvidence] = useState<Evidence>(claim.evidence);
  const [reason, setReason] = useState(claim.evidence_reason ?? '');
  const [note, setNote] = useState(claim.note ?? '');
  const [error, setError] = useState<string | null>(null);
  const suggested = suggestEvidence(claim.source.kind, kind).level;
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!model.trim() || !value.trim()) return setError(t('errModelValue'));
    if (needsReason(suggested, evidence) && !reason.trim()) return setError(t('errReasonFor', suggested, evidence));
    try {
      await onSave({
        ...claim,
        model: model.trim(),
        recipe: recipe.trim() || null,
        kind,
        stage: stage || null,
        value: canonicalValue(value),
        evidence,
        evidence_reason: reason.trim() || null,
        note: note.trim(),
        updated_at: nowTimestamp(),
      });
    } catch (err) {
      setError(t('notSavedBecause', err instanceof Error ? err.message : String(err)));
    }
  };
  return (
    <form class="claim claim-editing" data-testid="panel-claim-editor" onSubmit={submit} onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <div class="grid2">
        <label>
          {t('fieldModel')}
          <input name="model" list="panel-models" value={model} onInput={(e) => setModel(e.currentTarget.value)} />
        </label>
        <label>
          {t('fieldRecipe')}
          <input name="recipe" value={recipe} placeholder={t('optional')} onInput={(e) => setRecipe(e.currentTarget.value)} />
        </label>
        <label>
          {t('fieldKind')}
          <EnumSelect name="kind" values={CLAIM_KINDS} value={kind} label={kindLabel} onChange={setKind} />
        </label>
        <label>
          {t('fieldStage')}
          <EnumSelect name="stage" values={STAGES} value={stage} label={stageLabel} empty={t('noStage')} onChange={setStage} />
        </label>
        <label>
          {t('fieldValue')}
          <input name="value" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        </label>
        <label>
          {t('fieldEvidence')}
          <EnumSelect name="evidence" values={EVIDENCE_LEVELS} value={evidence} label={(l) => `${l} — ${evidenceLabel(l)}`} onChange={setEvidence} />
        </label>
      </div>
      {evidence !== suggested && (
        <label>
          {t('evidenceWhy', evidence, suggested)}
          <input name="evidenceReason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        </label>
      )}
      <label>
        {t('fieldNote')}
        <textarea name="note" rows={2} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
      </label>
      <datalist id="panel-models">
        {models.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <footer class="claim-actions">
        <button type="button" class="btn" onClick={onCancel}>
          {t('cancel')}
        </button>
        <button type="submit" class="btn primary" data-testid="panel-claim-save">
          {t('save')}
        </button>
      </footer>
    </form>
  );
}
