/**
 * Human-readable labels for the schema's enums, in the wording of the seed
 * article (`shared/seed`) and `shared/spec/evidence-rules.md`.
 */
import type { ClaimKind, Evidence, SourceKind, Stage } from '../schema';

/** Display label of each pipeline stage, as in the seed's flowchart. */
export const STAGE_LABELS: Record<Stage, string> = {
  pretrain_midtrain: 'Pretrain / Midtrain',
  sft_distillation: 'SFT / Distillation',
  reasoning_rl: 'Reasoning RL',
  agentic_rl: 'Agentic / Tool RL',
  general_rl: 'General / Preference RL',
  vlm_omni_rl: 'VLM / Omni RL',
  opd_merge: 'OPD / Distillation / Merge',
};

/** Display label of each claim kind. */
export const KIND_LABELS: Record<ClaimKind, string> = {
  stage: 'Stage',
  algorithm: 'Algorithm',
  framework: 'Framework',
  reward: 'Reward',
  system: 'System design',
  intention: 'Design intention',
  undisclosed: 'Not disclosed',
};

/** Display label of each evidence level. */
export const EVIDENCE_LABELS: Record<Evidence, string> = {
  A: 'Technical report',
  B: 'Official blog / model card',
  C: 'Release only',
};

/** Display label of each source kind. */
export const SOURCE_KIND_LABELS: Record<SourceKind, string> = {
  technical_report: 'Technical report',
  official_blog: 'Official blog',
  model_card: 'Model card',
  repository: 'Repository',
  release: 'Release',
  third_party: 'Third-party write-up',
};
