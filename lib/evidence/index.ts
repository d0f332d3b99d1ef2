/**
 * Evidence-level suggestion and curation warnings (`shared/spec/evidence-rules.md`).
 * Pure: no DOM, no browser APIs.
 */
import { type MessageKey, sourceKindLabel, t } from '../i18n';
import type { ClaimKind, Evidence, SourceKind } from '../schema';

export { detectUserGuidance } from './guidance';

/** The level the rules suggest for a claim, with a sentence a curator understands. */
export interface EvidenceSuggestion {
  /** Suggested level. */
  level: Evidence;
  /** Why, in one short sentence, in the language of the UI. */
  reason: string;
  /** True when the source is not evidence at all (a third-party write-up). */
  notEvidence?: boolean;
}

/** How a claim of each kind is named in the reason ("an algorithm"), in the language of the UI. */
function claimPhrase(kind: ClaimKind): string {
  return t(`claimPhrase_${kind}` as MessageKey);
}

const RECIPE_KINDS: ReadonlySet<ClaimKind> = new Set<ClaimKind>(['stage', 'algorithm', 'reward', 'system']);

/**
 * Suggests the evidence level of a claim from its source kind and claim kind.
 * Rules, first match wins: third-party → C, not evidence; `undisclosed` → C;
 * technical report + stage/algorithm/reward/system → A; technical report +
 * framework/intention → B (curator's call); official blog / model card /
 * repository → B; release → C.
 */
export function suggestEvidence(sourceKind: SourceKind, kind: ClaimKind): EvidenceSuggestion {
  if (sourceKind === 'third_party') {
    return { level: 'C', reason: t('evidenceWhyThirdParty'), notEvidence: true };
  }
  if (kind === 'undisclosed') {
    return { level: 'C', reason: t('evidenceWhyUndisclosed') };
  }
  const what = claimPhrase(kind);
  switch (sourceKind) {
    case 'technical_report':
      if (RECIPE_KINDS.has(kind)) return { level: 'A', reason: t('evidenceWhyReportRecipe', what) };
      return { level: 'B', reason: t('evidenceWhyReportOther', what) };
    case 'official_blog':
    case 'model_card':
    case 'repository':
      return { level: 'B', reason: t('evidenceWhyFirstParty', sourceKindLabel(sourceKind), what) };
    case 'release':
      return { level: 'C', reason: t('evidenceWhyRelease') };
  }
}

/** True when the chosen level differs from the suggested one, so the claim needs an `evidence_reason`. */
export function needsReason(suggested: Evidence, chosen: Evidence): boolean {
  return suggested !== chosen;
}
