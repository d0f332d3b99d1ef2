/** The claim form: model, recipe, kind, stage, value(s), evidence level with reason, note, and the page's source. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CLAIM_KINDS, EVIDENCE_LEVELS, SOURCE_KINDS, STAGES, type ClaimKind, type Evidence, type Stage } from '../../lib/schema';
import { EVIDENCE_LABELS, KIND_LABELS, SOURCE_KIND_LABELS, STAGE_LABELS, completeValues, findTerms, splitValues } from '../../lib/taxonomy';
import { detectUserGuidance, suggestEvidence } from '../../lib/evidence';
import { validateForm, type ClaimFormValues, type FormErrors, type SourceFields } from '../../lib/capture/draft';
import type { CaptureActions, FormSession } from './state';

const EVIDENCE_SHORT: Record<Evidence, string> = { A: 'Tech report', B: 'Blog / card', C: 'Release only' };

/** Warnings the rules raise about a claim being written (shown, never blocking). */
export function formWarnings(values: ClaimFormValues, session: FormSession, source: SourceFields): string[] {
  const warnings: string[] = [];
  const quote = session.passage.quote.exact;
  if (source.kind === 'third_party') {
    warnings.push('A third-party write-up is not evidence: find the lab’s own report, blog or model card and tag the passage there.');
  }
  if (values.kind === 'algorithm' && detectUserGuidance(quote)) {
    warnings.push('This reads as advice to users, not how the lab trained the model (rule 5). Consider kind “Undisclosed” or a note.');
  }
  const model = values.model.trim().toLowerCase();
  if (model && session.pageModels.length && !session.pageModels.some((m) => m.toLowerCase() === model) && !quote.toLowerCase().includes(model)) {
    warnings.push(`This page is about ${session.pageModels.slice(0, 3).join(', ')}. Don’t carry claims across versions (rule 2).`);
  }
  return warnings;
}

/** The form for tagging a passage (or editing a claim). */
export function ClaimForm({ session, actions }: { session: FormSession; actions: CaptureActions }) {
  const [values, setValues] = useState<ClaimFormValues>(session.values);
  const [source, setSource] = useState<SourceFields>(session.source);
  const [editingSource, setEditingSource] = useState(false);
  const [touched, setTouched] = useState(false);
  const [evidenceChosen, setEvidenceChosen] = useState(session.mode === 'edit');
  const root = useRef<HTMLFormElement>(null);

  const suggestion = suggestEvidence(source.kind, values.kind);
  // Follow the suggestion until the curator picks a level themselves.
  useEffect(() => {
    if (!evidenceChosen && values.evidence !== suggestion.level) setValues((v) => ({ ...v, evidence: suggestion.level }));
  }, [suggestion.level, evidenceChosen]);

  useEffect(() => {
    const first = root.current?.querySelector<HTMLInputElement>(values.model ? '[name=value]' : '[name=model]');
    first?.focus();
    first?.select();
  }, []);

  const errors: FormErrors = touched ? validateForm(values, suggestion.level) : {};
  const warnings = formWarnings(values, session, source);
  const parts = splitValues(values.value);
  const completions = useMemo(() => completeValues(parts[parts.length - 1] ?? '', values.kind, 8), [values.value, values.kind]);
  const termsInQuote = useMemo(() => findTerms(session.passage.quote.exact).map((t) => t.term), [session.passage.quote.exact]);

  const set = <K extends keyof ClaimFormValues>(key: K, value: ClaimFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  const submit = (event?: Event) => {
    event?.preventDefault();
    setTouched(true);
    if (Object.keys(validateForm(values, suggestion.level)).length) {
      root.current?.querySelector<HTMLElement>('[aria-invalid=true]')?.focus();
      return;
    }
    void actions.save(values, source, suggestion.level);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      actions.cancelForm();
    } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      submit(event);
    }
  };

  const chooseTerm = (canonical: string, kind: ClaimKind, stage: Stage | null) => {
    const head = parts.slice(0, -1);
    setValues((v) => ({
      ...v,
      value: [...head, canonical].join(' + '),
      kind: head.length ? v.kind : kind,
      stage: v.stage || stage || '',
    }));
  };

  return (
    <form
      ref={root}
      class="rl-form"
      role="dialog"
      aria-label={session.mode === 'edit' ? 'Edit claim' : 'Tag claim'}
      data-testid="claim-form"
      style={{ left: `${session.at.x}px`, top: `${session.at.y}px` }}
      onSubmit={submit}
      onKeyDown={onKeyDown}
    >
      <header class="rl-form-head">
        <span class="rl-logo" aria-hidden="true">
          RL
        </span>
        <span class="rl-title">{session.mode === 'edit' ? 'Edit claim' : 'Tag claim'}</span>
        <button type="button" class="rl-icon" aria-label="Close (Escape)" onClick={() => actions.cancelForm()}>
          ×
        </button>
      </header>

      <blockquote class="rl-quote" title={session.passage.quote.exact}>
        {session.passage.quote.exact}
      </blockquote>

      <div class="rl-row">
        <label class="rl-field rl-grow">
          <span>Model</span>
          <input
            name="model"
            list="rl-models"
            value={values.model}
            autocomplete="off"
            placeholder="as the source names it, e.g. GLM-5"
            aria-invalid={errors.model ? 'true' : 'false'}
            onInput={(e) => set('model', e.currentTarget.value)}
          />
          <datalist id="rl-models">
            {[...new Set([...session.pageModels, ...session.storeModels])].map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          {errors.model && <em class="rl-error">{errors.model}</em>}
        </label>
        <label class="rl-field rl-narrow">
          <span>Recipe</span>
          <input name="recipe" value={values.recipe} placeholder="optional" autocomplete="off" onInput={(e) => set('recipe', e.currentTarget.value)} />
        </label>
      </div>

      <div class="rl-row">
        <label class="rl-field rl-grow">
          <span>Kind</span>
          <select name="kind" value={values.kind} onChange={(e) => set('kind', e.currentTarget.value as ClaimKind)}>
            {CLAIM_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        <label class="rl-field rl-grow">
          <span>Stage</span>
          <select name="stage" value={values.stage} onChange={(e) => set('stage', e.currentTarget.value as Stage | '')}>
            <option value="">— none —</option>
            {STAGES.map((s) => (
              <option key={s} value={s}>
                {STAGE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
      </div>

      <label class="rl-field">
        <span>
          Value{parts.length > 1 ? ` · ${parts.length} claims` : ''} <small>(join several with “+”)</small>
        </span>
        <input
          name="value"
          value={values.value}
          autocomplete="off"
          placeholder="GRPO, slime, Reasoning RL, rule-based reward…"
          aria-invalid={errors.value ? 'true' : 'false'}
          onInput={(e) => set('value', e.currentTarget.value)}
        />
        {errors.value && <em class="rl-error">{errors.value}</em>}
      </label>
      {(completions.length > 0 || termsInQuote.length > 0) && (
        <div class="rl-chips" aria-label="Suggested values">
          {[...new Map([...termsInQuote, ...completions].map((t) => [t.canonical, t])).values()].slice(0, 8).map((t) => (
            <button
              type="button"
              key={t.canonical}
              class={`rl-chip rl-kind-${t.kind}`}
              title={`${KIND_LABELS[t.kind]}${t.aliases.length ? ` · also: ${t.aliases.slice(0, 3).join(', ')}` : ''}`}
              onClick={() => chooseTerm(t.canonical, t.kind, t.stage)}
            >
              {t.canonical}
            </button>
          ))}
        </div>
      )}

      <fieldset class="rl-field rl-evidence-field">
        <legend>Evidence</legend>
        <div class="rl-segmented" role="radiogroup" aria-label="Evidence level">
          {EVIDENCE_LEVELS.map((level) => (
            <label key={level} class={`rl-seg ${values.evidence === level ? 'rl-seg-on' : ''}`} title={EVIDENCE_LABELS[level]}>
              <input
                type="radio"
                name="evidence"
                value={level}
                checked={values.evidence === level}
                onChange={() => {
                  setEvidenceChosen(true);
                  set('evidence', level as Evidence);
                }}
              />
              <b>{level}</b> <span>{EVIDENCE_SHORT[level]}</span>
            </label>
          ))}
        </div>
        <p class={`rl-hint ${suggestion.notEvidence ? 'rl-warn' : ''}`} data-testid="evidence-reason">
          Suggested {suggestion.level}: {suggestion.reason}
        </p>
        {values.evidence !== suggestion.level && (
          <label class="rl-field">
            <span>Why {values.evidence} and not {suggestion.level}?</span>
            <input
              name="evidenceReason"
              value={values.evidenceReason}
              aria-invalid={errors.evidenceReason ? 'true' : 'false'}
              onInput={(e) => set('evidenceReason', e.currentTarget.value)}
            />
            {errors.evidenceReason && <em class="rl-error">{errors.evidenceReason}</em>}
          </label>
        )}
      </fieldset>

      <label class="rl-field">
        <span>Note</span>
        <textarea name="note" rows={2} value={values.note} onInput={(e) => set('note', e.currentTarget.value)} />
      </label>

      <section class="rl-source" aria-label="Source">
        <div class="rl-source-line">
          <span class="rl-source-kind">{SOURCE_KIND_LABELS[source.kind]}</span>
          <span>{source.publisher || 'publisher unknown'}</span>
          <span>{source.published || 'no date'}</span>
          <button type="button" class="rl-link" data-testid="source-edit" aria-expanded={editingSource} onClick={() => setEditingSource(!editingSource)}>
            {editingSource ? 'Done' : 'Correct'}
          </button>
        </div>
        {editingSource && (
          <div class="rl-source-fields">
            <label class="rl-field">
              <span>Title</span>
              <input name="sourceTitle" value={source.title} onInput={(e) => setSource({ ...source, title: e.currentTarget.value })} />
            </label>
            <div class="rl-row">
              <label class="rl-field rl-grow">
                <span>Kind</span>
                <select name="sourceKind" value={source.kind} onChange={(e) => setSource({ ...source, kind: e.currentTarget.value as SourceFields['kind'] })}>
                  {SOURCE_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {SOURCE_KIND_LABELS[k]}
                    </option>
                  ))}
                </select>
              </label>
              <label class="rl-field rl-grow">
                <span>Publisher</span>
                <input name="sourcePublisher" value={source.publisher} onInput={(e) => setSource({ ...source, publisher: e.currentTarget.value })} />
              </label>
              <label class="rl-field rl-narrow">
                <span>Published</span>
                <input name="sourcePublished" type="date" value={source.published} onInput={(e) => setSource({ ...source, published: e.currentTarget.value })} />
              </label>
            </div>
            <p class="rl-hint">Corrections apply to every claim on this page.</p>
          </div>
        )}
      </section>

      {warnings.map((w) => (
        <p key={w} class="rl-hint rl-warn" data-testid="form-warning">
          {w}
        </p>
      ))}
      {session.error && (
        <p class="rl-error-box" role="alert" data-testid="form-error">
          {session.error}
        </p>
      )}

      <footer class="rl-form-foot">
        <span class="rl-hint">Ctrl+Enter saves</span>
        <button type="button" class="rl-button" onClick={() => actions.cancelForm()}>
          Cancel
        </button>
        <button type="submit" class="rl-button rl-primary" data-testid="form-save" disabled={session.saving}>
          {session.saving ? 'Saving…' : parts.length > 1 ? `Save ${parts.length} claims` : 'Save claim'}
        </button>
      </footer>
    </form>
  );
}
