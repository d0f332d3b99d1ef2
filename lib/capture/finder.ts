/**
 * What the page does with the claim finder's candidates, without the DOM:
 * which candidates to offer (not those already claimed), how one is reported
 * to the panel, and the claim form's values for accepting one or for
 * recording the page as not disclosed (evidence-rules.md rule 3).
 */
import type { Candidate } from '../finder/find';
import type { ClaimKind, SourceKind, Stage } from '../schema';
import { suggestEvidence } from '../evidence';
import { t } from '../i18n';
import type { ClaimFormValues } from './draft';
import { chooseModel } from './prefill';

/** Longest sentence the panel and the popup are sent. */
export const REPORTED_SENTENCE = 400;

/** The value an "undisclosed" claim records when a page names no RL stage or algorithm (the survey's "Not disclosed: RL stages"). */
export const UNDISCLOSED_VALUE = 'RL stages';

/** A candidate claim as the finder reports it to the panel and the popup. */
export interface FinderCandidate {
  key: string;
  kind: ClaimKind;
  value: string;
  stage: Stage | null;
  model: string | null;
  /** The sentence (at most 400 characters). */
  sentence: string;
  /** 1 for the best-scored candidate, 2 for the next, … */
  rank: number;
}

/** What the claim finder found on a page (candidates in document order). */
export interface FinderReport {
  url: string;
  candidates: FinderCandidate[];
  talksAboutRl: boolean;
  /** The page talks about RL but no candidate names a stage or algorithm: offer "record as not disclosed". */
  suggestUndisclosed: boolean;
}

/** A span of the page's text, [start, end). */
export interface Span {
  start: number;
  end: number;
}

/** Candidates that do not overlap a passage already claimed (a saved claim is no longer a candidate). */
export function unclaimed<T extends Span>(candidates: readonly T[], claimed: readonly Span[]): T[] {
  return candidates.filter((c) => !claimed.some((s) => s.start < c.end && c.start < s.end));
}

/** Whether to offer "record as not disclosed": the finder suggests it and no "not disclosed" claim is stored for the page yet. */
export function offerUndisclosed(suggested: boolean, claims: readonly { kind: string }[]): boolean {
  return suggested && !claims.some((c) => c.kind === 'undisclosed');
}

/** A candidate as the panel and the popup see it. */
export function reportCandidate(c: Candidate): FinderCandidate {
  const sentence = c.sentence.length > REPORTED_SENTENCE ? `${c.sentence.slice(0, REPORTED_SENTENCE - 1)}…` : c.sentence;
  return { key: c.key, kind: c.kind, value: c.value, stage: c.stage, model: c.model, sentence, rank: c.rank };
}

/** What the page tells the form about itself. */
export interface PageFacts {
  kind: SourceKind;
  models: readonly string[];
}

/**
 * The claim form's values for accepting a candidate: its kind, value, stage
 * and model (else the model the sentence names from the page or the store),
 * and the evidence level the rules suggest for the page's source kind. A
 * negative finding ("we do not apply the reward model") is offered as such —
 * kind `undisclosed`, value "not used: …", with a note saying the source
 * states it — never as the value it negates.
 */
export function candidateValues(
  c: Pick<Candidate, 'kind' | 'value' | 'stage' | 'model' | 'sentence'> & Partial<Pick<Candidate, 'polarity' | 'negated'>>,
  page: PageFacts,
  storeModels: readonly string[],
): ClaimFormValues {
  const negative = c.polarity === 'negative';
  return {
    model: c.model ?? chooseModel(c.sentence, page.models, storeModels),
    recipe: '',
    kind: c.kind,
    stage: c.stage ?? '',
    value: c.value,
    evidence: suggestEvidence(page.kind, c.kind).level,
    evidenceReason: '',
    note: negative ? t('finderNotUsedNote', (c.negated?.length ? c.negated : [c.value.replace(/^not used: /, '')]).join(', ')) : '',
  };
}

/** The claim form's values for recording that the page, read on `date`, discloses no RL stage or algorithm. */
export function undisclosedValues(page: PageFacts, date: string): ClaimFormValues {
  return {
    model: page.models[0] ?? '',
    recipe: '',
    kind: 'undisclosed',
    stage: '',
    value: UNDISCLOSED_VALUE,
    evidence: suggestEvidence(page.kind, 'undisclosed').level,
    evidenceReason: '',
    note: t('finderUndisclosedNote', date),
  };
}
