/** One claim in the panel: quote, evidence, source, warnings, and its actions (show passage, edit/move, delete). */
import { useState } from 'preact/hooks';
import { CLAIM_KINDS, EVIDENCE_LEVELS, STAGES, type ClaimKind, type ClaimRecord, type Evidence, type Stage } from '../../lib/schema';
import { suggestEvidence, needsReason } from '../../lib/evidence';
import { EVIDENCE_LABELS, KIND_LABELS, SOURCE_KIND_LABELS, STAGE_LABELS, canonicalValue } from '../../lib/taxonomy';
import { claimWarnings } from '../../lib/survey';
import { nowTimestamp } from '../../lib/time';
import { EvidenceBadge, KindChip, Warnings } from './Badges';

/** What a claim item can ask for. */
export interface ClaimActions {
  reveal(claim: ClaimRecord): void;
  save(claim: ClaimRecord): Promise<void>;
  remove(claim: ClaimRecord): void;
}

/** A claim with its actions; `orphan` marks a claim whose passage was not found on the open page. */
export function ClaimItem({ claim, actions, orphan = false, models, showModel = false }: { claim: ClaimRecord; actions: ClaimActions; orphan?: boolean; models: readonly string[]; showModel?: boolean }) {
  const [editing, setEditing] = useState(false);
  const warnings = claimWarnings(claim);
  const s = claim.source;
  if (editing) return <ClaimEditor claim={claim} models={models} onCancel={() => setEditing(false)} onSave={async (c) => { await actions.save(c); setEditing(false); }} />;
  return (
    <article class={`claim ${orphan ? 'claim-orphan' : ''}`} data-testid="panel-claim" data-claim-id={claim.id}>
      <header class="claim-head">
        <KindChip kind={claim.kind} />
        <strong class="claim-value">{claim.value}</strong>
        {orphan && <span class="orphan-tag" title="The passage was not found on the page as it is now. The claim is kept.">orphan</span>}
        <EvidenceBadge level={claim.evidence} title={claim.evidence_reason ?? suggestEvidence(s.kind, claim.kind).reason} />
      </header>
      {showModel && (
        <p class="claim-model">
          {claim.model}
          {claim.recipe && <span class="recipe"> · {claim.recipe}</span>}
          {claim.stage && <span class="muted"> · {STAGE_LABELS[claim.stage]}</span>}
        </p>
      )}
      <blockquote class="claim-quote">{claim.quote.exact}</blockquote>
      <p class="claim-source">
        <span>{SOURCE_KIND_LABELS[s.kind]}</span>
        {s.publisher && <span> · {s.publisher}</span>}
        <span> · {s.published ?? 'undated'}</span>
        <span class="muted"> · read {s.accessed}</span>
      </p>
      <p class="claim-title muted" title={s.url}>
        {s.title || s.url}
      </p>
      {claim.note && <p class="claim-note">{claim.note}</p>}
      <Warnings warnings={warnings} />
      <footer class="claim-actions">
        <button type="button" class="link" data-testid="claim-reveal" onClick={() => actions.reveal(claim)}>
          Show passage
        </button>
        <button type="button" class="link" data-testid="claim-edit" onClick={() => setEditing(true)}>
          Edit / move
        </button>
        <button type="button" class="link danger" data-testid="claim-delete" onClick={() => actions.remove(claim)}>
          Delete
        </button>
      </footer>
    </article>
  );
}

/** Inline editor of one claim; changing model or recipe moves it to another row. */
function ClaimEditor({ claim, models, onSave, onCancel }: { claim: ClaimRecord; models: readonly string[]; onSave: (c: ClaimRecord) => Promise<void>; onCancel: () => void }) {
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
    if (!model.trim() || !value.trim()) return setError('Model and value are required.');
    if (needsReason(suggested, evidence) && !reason.trim()) return setError(`The rules suggest ${suggested}; give a reason for ${evidence}.`);
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
      setError(`Not saved — ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  return (
    <form class="claim claim-editing" data-testid="panel-claim-editor" onSubmit={submit} onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <div class="grid2">
        <label>
          Model
          <input name="model" list="panel-models" value={model} onInput={(e) => setModel(e.currentTarget.value)} />
        </label>
        <label>
          Recipe
          <input name="recipe" value={recipe} placeholder="optional" onInput={(e) => setRecipe(e.currentTarget.value)} />
        </label>
        <label>
          Kind
          <select name="kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as ClaimKind)}>
            {CLAIM_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Stage
          <select name="stage" value={stage} onChange={(e) => setStage(e.currentTarget.value as Stage | '')}>
            <option value="">— none —</option>
            {STAGES.map((st) => (
              <option key={st} value={st}>
                {STAGE_LABELS[st]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Value
          <input name="value" value={value} onInput={(e) => setValue(e.currentTarget.value)} />
        </label>
        <label>
          Evidence
          <select name="evidence" value={evidence} onChange={(e) => setEvidence(e.currentTarget.value as Evidence)}>
            {EVIDENCE_LEVELS.map((l) => (
              <option key={l} value={l}>
                {l} — {EVIDENCE_LABELS[l]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {evidence !== suggested && (
        <label>
          Why {evidence} and not {suggested}?
          <input name="evidenceReason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        </label>
      )}
      <label>
        Note
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
          Cancel
        </button>
        <button type="submit" class="btn primary" data-testid="panel-claim-save">
          Save
        </button>
      </footer>
    </form>
  );
}
