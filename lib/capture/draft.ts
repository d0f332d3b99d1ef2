/**
 * The claim form's values and how they become claim records: validation
 * with messages a curator can act on, several values sharing one passage,
 * and edits that keep a claim's id and creation time.
 */
import {
  CLAIM_SCHEMA,
  ClaimRecord,
  describeZodError,
  type ClaimKind,
  type Evidence,
  type Position,
  type Quote,
  type Source,
  type SourceKind,
  type Stage,
} from '../schema';
import { canonicalValue, splitValues } from '../taxonomy';
import { needsReason } from '../evidence';
import { t } from '../i18n';

/** The passage a claim quotes: W3C selectors plus the text as shown. */
export interface Passage {
  quote: Quote;
  position: Position | null;
}

/** Editable source metadata in the form. */
export interface SourceFields {
  title: string;
  kind: SourceKind;
  publisher: string;
  published: string;
}

/** What the claim form holds. */
export interface ClaimFormValues {
  model: string;
  recipe: string;
  kind: ClaimKind;
  stage: Stage | '';
  value: string;
  evidence: Evidence;
  evidenceReason: string;
  note: string;
}

/** Problems with the form, by field. */
export type FormErrors = Partial<Record<keyof ClaimFormValues | 'form', string>>;

/** Checks the form before saving; an empty result means it can be saved. */
export function validateForm(values: ClaimFormValues, suggested: Evidence): FormErrors {
  const errors: FormErrors = {};
  if (!values.model.trim()) errors.model = t('errModel');
  if (!splitValues(values.value).length) errors.value = t('errValue');
  else if (splitValues(values.value).some((v) => v.length > 200)) errors.value = t('errValueLong');
  if (needsReason(suggested, values.evidence) && !values.evidenceReason.trim()) {
    errors.evidenceReason = t('errReason', suggested, values.evidence);
  }
  return errors;
}

/** Turns the form's source fields and the page's URL into a record `source`. */
export function sourceFromFields(url: string, accessed: string, fields: SourceFields): Source {
  const published = fields.published.trim();
  return {
    url,
    title: fields.title.trim(),
    kind: fields.kind,
    publisher: fields.publisher.trim() || null,
    published: /^\d{4}-\d{2}-\d{2}$/.test(published) ? published : null,
    accessed,
  };
}

/** Inputs for building records besides the form itself. */
export interface BuildContext {
  passage: Passage;
  source: Source;
  suggested: Evidence;
  now: string;
  mintId: () => string;
  curator?: string;
  /** The claim being edited, if any: its id and created_at are kept. */
  editing?: ClaimRecord | null;
}

/**
 * Builds one claim per value ("GRPO + IcePop" → two claims sharing one
 * passage). When editing, the first value keeps the edited claim's id.
 * Throws with a readable message if a record would not validate.
 */
export function buildClaims(values: ClaimFormValues, ctx: BuildContext): ClaimRecord[] {
  const parts = splitValues(values.value).map(canonicalValue);
  const reason = values.evidenceReason.trim();
  return parts.map((value, index) => {
    const editing = index === 0 ? ctx.editing : null;
    const record = {
      ...(editing ?? {}),
      schema: CLAIM_SCHEMA,
      id: editing?.id ?? ctx.mintId(),
      model: values.model.trim(),
      recipe: values.recipe.trim() || null,
      kind: values.kind,
      stage: values.stage || null,
      value,
      evidence: values.evidence,
      evidence_reason: needsReason(ctx.suggested, values.evidence) || reason ? reason || null : null,
      quote: ctx.passage.quote,
      position: ctx.passage.position,
      source: ctx.source,
      link: editing?.link ?? null,
      note: values.note.trim(),
      curator: editing?.curator ?? ctx.curator ?? '',
      created_at: editing?.created_at ?? ctx.now,
      updated_at: ctx.now,
    };
    const parsed = ClaimRecord.safeParse(record);
    if (!parsed.success) throw new Error(`This claim cannot be saved: ${describeZodError(parsed.error)}`);
    return parsed.data;
  });
}

/** The form's values for an existing claim (editing). */
export function valuesFromClaim(claim: ClaimRecord): ClaimFormValues {
  return {
    model: claim.model,
    recipe: claim.recipe ?? '',
    kind: claim.kind,
    stage: claim.stage ?? '',
    value: claim.value,
    evidence: claim.evidence,
    evidenceReason: claim.evidence_reason ?? '',
    note: claim.note ?? '',
  };
}
