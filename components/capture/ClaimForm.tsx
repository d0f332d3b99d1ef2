/** The claim form: model, recipe, kind, stage, value(s), evidence level with reason, note, and the page's source. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { CLAIM_KINDS, EVIDENCE_LEVELS, SOURCE_KINDS, STAGES, type ClaimKind, type Evidence, type Stage } from '../../lib/schema';
import { completeValues, findTerms, splitValues } from '../../lib/taxonomy';
import { evidenceLabel, evidenceShort, kindLabel, sourceKindLabel, stageLabel, t } from '../../lib/i18n';
import { EnumSelect } from '../common/EnumSelect';
import { useLocale } from '../common/i18n';
import { detectUserGuidance, suggestEvidence } from '../../lib/evidence';
import { validateForm, type ClaimFormValues, type FormErrors, type SourceFields } from '../../lib/capture/draft';
import type { CaptureActions, FormSession } from './state';

/** Warnings the rules raise about a claim being written (shown, never blocking). */
export function formWarnings(values: ClaimFormValues, session: FormSession, source: SourceFields): string[] {
  const warnings: string[] = [];
  const quote = session.passage.quote.exact;
  if (source.kind === 'third_party') {
    warnings.push(t('warnThirdParty'));
  }
  if (values.kind === 'algorithm' && detectUserGuidance(quote)) {
    warnings.push(t('warnGuidance'));
  }
  const model = values.model.trim().toLowerCase();
  if (model && session.pageModels.length && !session.pageModels.some((m) => m.toLowerCase() === model) && !quote.toLowerCase().includes(model)) {
    warnings.push(t('warnVersion', session.pageModels.slice(0, 3).join(', ')));
  }
  return warnings;
}

/** The form for tagging a passage (or editing a claim). */
export function ClaimForm({ session, actions }: { session: FormSession; actions: CaptureActions }) {
  useLocale();
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
  const termsInQuote = useMemo(() => findTerms(session.passage.quote.exact).map((match) => match.term), [session.passage.quote.exact]);

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
      aria-label={session.mode === 'edit' ? t('formEdit') : t('formTag')}
      data-testid="claim-form"
      // The form can be taller than the room below where it was placed: it scrolls rather than hide its Save button.
      style={{ left: `${session.at.x}px`, top: `${session.at.y}px`, maxHeight: `calc(var(--rl-page-height, 100vh) - ${session.at.y}px - 8px)` }}
      onSubmit={submit}
      onKeyDown={onKeyDown}
    >
      <header class="rl-form-head">
        <span class="rl-logo" aria-hidden="true">
          RL
        </span>
        <span class="rl-title">{session.mode === 'edit' ? t('formEdit') : t('formTag')}</span>
        <button type="button" class="rl-icon" aria-label={t('close')} onClick={() => actions.cancelForm()}>
          ×
        </button>
      </header>

      <blockquote class="rl-quote" title={session.passage.quote.exact}>
        {session.passage.quote.exact}
      </blockquote>

      <div class="rl-row">
        <label class="rl-field rl-grow">
          <span>{t('fieldModel')}</span>
          <input
            name="model"
            list="rl-models"
            value={values.model}
            autocomplete="off"
            placeholder={t('fieldModelPlaceholder')}
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
          <span>{t('fieldRecipe')}</span>
          <input name="recipe" value={values.recipe} placeholder={t('optional')} autocomplete="off" onInput={(e) => set('recipe', e.currentTarget.value)} />
        </label>
      </div>

      <div class="rl-row">
        <label class="rl-field rl-grow">
          <span>{t('fieldKind')}</span>
          <EnumSelect name="kind" values={CLAIM_KINDS} value={values.kind} label={kindLabel} onChange={(kind) => set('kind', kind)} />
        </label>
        <label class="rl-field rl-grow">
          <span>{t('fieldStage')}</span>
          <EnumSelect name="stage" values={STAGES} value={values.stage} label={stageLabel} empty={t('noStage')} onChange={(stage) => set('stage', stage)} />
        </label>
      </div>

      <label class="rl-field">
        <span>
          {parts.length > 1 ? t('fieldValueCount', parts.length) : t('fieldValue')} <small>{t('fieldValueHint')}</small>
        </span>
        <input
          name="value"
          value={values.value}
          autocomplete="off"
          placeholder={t('fieldValuePlaceholder')}
          aria-invalid={errors.value ? 'true' : 'false'}
          onInput={(e) => set('value', e.currentTarget.value)}
        />
        {errors.value && <em class="rl-error">{errors.value}</em>}
      </label>
      {(completions.length > 0 || termsInQuote.length > 0) && (
        <div class="rl-chips" aria-label={t('suggestedValues')}>
          {[...new Map([...termsInQuote, ...completions].map((term) => [term.canonical, term])).values()].slice(0, 8).map((term) => (
            <button
              type="button"
              key={term.canonical}
              class={`rl-chip rl-kind-${term.kind}`}
              title={`${kindLabel(term.kind)}${term.aliases.length ? ` · ${t('alsoKnownAs', term.aliases.slice(0, 3).join(', '))}` : ''}`}
              onClick={() => chooseTerm(term.canonical, term.kind, term.stage)}
            >
              {term.canonical}
            </button>
          ))}
        </div>
      )}

      <fieldset class="rl-field rl-evidence-field">
        <legend>{t('fieldEvidence')}</legend>
        <div class="rl-segmented" role="radiogroup" aria-label={t('evidenceLevel')}>
          {EVIDENCE_LEVELS.map((level) => (
            <label key={level} class={`rl-seg ${values.evidence === level ? 'rl-seg-on' : ''}`} title={evidenceLabel(level)}>
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
              <b>{level}</b> <span>{evidenceShort(level)}</span>
            </label>
          ))}
        </div>
        <p class={`rl-hint ${suggestion.notEvidence ? 'rl-warn' : ''}`} data-testid="evidence-reason">
          {t('evidenceSuggested', suggestion.level, suggestion.reason)}
        </p>
        {values.evidence !== suggestion.level && (
          <label class="rl-field">
            <span>{t('evidenceWhy', values.evidence, suggestion.level)}</span>
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
        <span>{t('fieldNote')}</span>
        <textarea name="note" rows={2} value={values.note} onInput={(e) => set('note', e.currentTarget.value)} />
      </label>

      <section class="rl-source" aria-label={t('sourceSection')}>
        <div class="rl-source-line">
          <span class="rl-source-kind">{sourceKindLabel(source.kind)}</span>
          <span>{source.publisher || t('publisherUnknown')}</span>
          <span>{source.published || t('noDate')}</span>
          <button type="button" class="rl-link" data-testid="source-edit" aria-expanded={editingSource} onClick={() => setEditingSource(!editingSource)}>
            {editingSource ? t('sourceDone') : t('sourceCorrect')}
          </button>
        </div>
        {editingSource && (
          <div class="rl-source-fields">
            <label class="rl-field">
              <span>{t('fieldTitle')}</span>
              <input name="sourceTitle" value={source.title} onInput={(e) => setSource({ ...source, title: e.currentTarget.value })} />
            </label>
            <div class="rl-row">
              <label class="rl-field rl-grow">
                <span>{t('fieldKind')}</span>
                <EnumSelect
                  name="sourceKind"
                  values={SOURCE_KINDS}
                  value={source.kind}
                  label={sourceKindLabel}
                  onChange={(kind) => setSource({ ...source, kind })}
                />
              </label>
              <label class="rl-field rl-grow">
                <span>{t('fieldPublisher')}</span>
                <input name="sourcePublisher" value={source.publisher} onInput={(e) => setSource({ ...source, publisher: e.currentTarget.value })} />
              </label>
              <label class="rl-field rl-narrow">
                <span>{t('fieldPublished')}</span>
                <input
                  name="sourcePublished"
                  type="date"
                  value={source.published}
                  onInput={(e) => setSource({ ...source, published: e.currentTarget.value })}
                />
              </label>
            </div>
            <p class="rl-hint">{t('sourceAppliesAll')}</p>
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
        <span class="rl-hint">{t('saveHint')}</span>
        <button type="button" class="rl-button" onClick={() => actions.cancelForm()}>
          {t('cancel')}
        </button>
        <button type="submit" class="rl-button rl-primary" data-testid="form-save" disabled={session.saving}>
          {session.saving ? t('saving') : parts.length > 1 ? t('saveClaims', parts.length) : t('saveClaim')}
        </button>
      </footer>
    </form>
  );
}
