/**
 * Evidence-level suggestion and curation warnings (`shared/spec/evidence-rules.md`).
 * Pure: no DOM, no browser APIs.
 */
import type { ClaimKind, Evidence, SourceKind } from '../schema';
import { SOURCE_KIND_LABELS } from '../taxonomy';

export { detectUserGuidance } from './guidance';

/** The level the rules suggest for a claim, with a sentence a curator understands. */
export interface EvidenceSuggestion {
  /** Suggested level. */
  level: Evidence;
  /** Why, in one short sentence. */
  reason: string;
  /** True when the source is not evidence at all (a third-party write-up). */
  notEvidence?: boolean;
}

const CLAIM_PHRASE: Record<ClaimKind, string> = {
  stage: 'a stage',
  algorithm: 'an algorithm',
  framework: 'a framework',
  reward: 'a reward design',
  system: 'a system design',
  intention: 'a design intention',
  undisclosed: 'that something is not disclosed',
};

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
    return {
      level: 'C',
      reason: 'A third-party write-up is not evidence: find the lab’s own blog, model card, repository or report and quote that.',
      notEvidence: true,
    };
  }
  if (kind === 'undisclosed') {
    return { level: 'C', reason: 'A “not disclosed” finding is C whatever the source.' };
  }
  const source = SOURCE_KIND_LABELS[sourceKind];
  const what = CLAIM_PHRASE[kind];
  switch (sourceKind) {
    case 'technical_report':
      if (RECIPE_KINDS.has(kind)) return { level: 'A', reason: `Technical report stating ${what} → A.` };
      return {
        level: 'B',
        reason: `Technical report naming ${what} → B; raise it to A only if the report describes how it was used (your call).`,
      };
    case 'official_blog':
    case 'model_card':
    case 'repository':
      return { level: 'B', reason: `${source} stating ${what} → B: part of the picture, not a full recipe.` };
    case 'release':
      return { level: 'C', reason: 'A release shows capabilities, not the RL recipe → C.' };
  }
}

/** True when the chosen level differs from the suggested one, so the claim needs an `evidence_reason`. */
export function needsReason(suggested: Evidence, chosen: Evidence): boolean {
  return suggested !== chosen;
}
