/**
 * The survey records' tags, enumerations and model key without the schema
 * library: what a page needs to draw records it did not validate itself (the
 * panel's first rows), so zod stays off that page's first-paint path.
 * `lib/schema` re-exports every one of them beside its schemas.
 */

/** Schema tag of claim records, version 1. */
export const CLAIM_SCHEMA = 'rl-survey.claim/1';
/** Schema tag of model records, version 1. */
export const MODEL_SCHEMA = 'rl-survey.model/1';
/** Schema tag of source records (the last recheck of one source URL), version 1. */
export const SOURCE_SCHEMA = 'rl-survey.source/1';

/** What a recheck found of a source: every passage as it was, at least one edited or gone, or not readable. */
export const SOURCE_STATUSES = ['unchanged', 'changed', 'unreachable'] as const;

/** What a passage claims. */
export const CLAIM_KINDS = ['stage', 'algorithm', 'framework', 'reward', 'system', 'intention', 'undisclosed'] as const;

/** Pipeline stages of the seed's flowchart, in pipeline order. */
export const STAGES = ['pretrain_midtrain', 'sft_distillation', 'reasoning_rl', 'agentic_rl', 'general_rl', 'vlm_omni_rl', 'opd_merge'] as const;

/** Evidence levels, best first. */
export const EVIDENCE_LEVELS = ['A', 'B', 'C'] as const;

/** What sort of document a source is. */
export const SOURCE_KINDS = ['technical_report', 'official_blog', 'model_card', 'repository', 'release', 'third_party'] as const;

/** The key of a model record: one row per (model, recipe). */
export function modelKey(model: string, recipe: string | null | undefined): string {
  return recipe ? `${model}\u0000${recipe}` : model;
}

/** An absolute http(s) URL (what the schemas' `HttpUrl` accepts). */
export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
