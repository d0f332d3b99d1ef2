/**
 * Curation warnings on claims and rows (`shared/spec/evidence-rules.md`).
 * Pure: no DOM, no browser APIs.
 */
import type { ClaimRecord } from '../schema';
import { detectUserGuidance } from '../evidence';
import { modelMatches, sourceModels } from './models';

/** What a warning is about. */
export type WarningCode = 'version_extrapolation' | 'a_without_report' | 'third_party' | 'user_guidance' | 'stale';

/** One warning on a claim (`claimId`) or on a whole row (`claimId: null`). */
export interface Warning {
  code: WarningCode;
  claimId: string | null;
  /** The warning in English. */
  message: string;
  /** What the message names, for showing it in another language: the claim's model then the source's models (`version_extrapolation`), the date and the months (`stale`). */
  args?: string[];
}

function listNames(names: readonly string[]): string {
  const quoted = names.map((n) => `“${n}”`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/**
 * The warnings one claim deserves, in this order:
 * `version_extrapolation` (the claim names a model the source is not about —
 * see `lib/survey/models.ts` for the exact rule), `a_without_report`
 * (level A from something other than a technical report), `third_party`
 * (a write-up by someone other than the lab) and `user_guidance` (an
 * algorithm claim whose passage is advice to users).
 */
export function claimWarnings(claim: ClaimRecord): Warning[] {
  const warnings: Warning[] = [];
  const about = sourceModels(claim.source);
  if (about.length > 0 && !about.some((name) => modelMatches(claim.model, name))) {
    warnings.push({
      code: 'version_extrapolation',
      claimId: claim.id,
      message: `The claim is about “${claim.model}” but the source is about ${listNames(about)}. Don’t carry claims across versions.`,
      args: [claim.model, ...about],
    });
  }
  if (claim.evidence === 'A' && claim.source.kind !== 'technical_report') {
    warnings.push({
      code: 'a_without_report',
      claimId: claim.id,
      message: 'Level A needs a technical report; this source is not one.',
    });
  }
  if (claim.source.kind === 'third_party') {
    warnings.push({
      code: 'third_party',
      claimId: claim.id,
      message: 'A third-party write-up is not evidence. Find and quote the lab’s own source.',
    });
  }
  if (claim.kind === 'algorithm' && detectUserGuidance(claim.quote.exact)) {
    warnings.push({
      code: 'user_guidance',
      claimId: claim.id,
      message: 'The passage advises users how to fine-tune; it says nothing about how the lab trained the model.',
    });
  }
  return warnings;
}
