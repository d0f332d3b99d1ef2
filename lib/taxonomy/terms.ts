/**
 * The starting taxonomy of `shared/spec/evidence-rules.md` as data: every
 * term has one canonical spelling (what goes into a claim's `value`), the
 * claim kind it belongs to, the stage it implies (if any) and the aliases a
 * source or a curator may use for it. Curators extend this list.
 *
 * Stage terms come in two grains: the seed flowchart's coarse labels
 * ("General / Preference RL") and the finer names sources and the seed's table
 * actually use ("General RL", "Preference RL", "Long-CoT cold start"). Each
 * finer name is its own term so that canonicalising never rewrites what the
 * source said into a broader bucket.
 */
import type { ClaimKind, Stage } from '../schema';

/** One taxonomy entry: canonical spelling, kind, default stage and aliases. */
export interface Term {
  /** The spelling stored in a claim's `value`. */
  canonical: string;
  /** The claim kind the term belongs to. */
  kind: ClaimKind;
  /** The stage the term implies, or null when it can appear in several. */
  stage: Stage | null;
  /** Other spellings (English variants, expansions, Chinese names). */
  aliases: string[];
}

const t = (canonical: string, kind: ClaimKind, stage: Stage | null, aliases: string[] = []): Term => ({
  canonical,
  kind,
  stage,
  aliases,
});

/** Every known term, grouped stages → algorithms → rewards → frameworks → systems. */
export const TERMS: readonly Term[] = [
  // ── Stages: the flowchart's labels ──────────────────────────────────────
  t('Pretrain / Midtrain', 'stage', 'pretrain_midtrain', [
    'pretraining',
    'pre-training',
    'pretrain',
    'mid-training',
    'midtraining',
    'midtrain',
    'continued pre-training',
    'continual pre-training',
    '预训练',
    '中期训练',
  ]),
  t('SFT / Distillation', 'stage', 'sft_distillation', ['SFT', 'supervised fine-tuning', 'supervised finetuning', 'SFT distillation', '监督微调']),
  t('Reasoning RL', 'stage', 'reasoning_rl', [
    'reasoning reinforcement learning',
    'reasoning-based reinforcement learning',
    'reasoning-based RL',
    'reasoning-oriented reinforcement learning',
    'reasoning-oriented RL',
    '推理 RL',
    '推理强化学习',
  ]),
  t('Agentic / Tool RL', 'stage', 'agentic_rl', ['tool RL', 'tool-use RL', 'tool-integrated RL', '工具 RL']),
  t('General / Preference RL', 'stage', 'general_rl'),
  t('VLM / Omni RL', 'stage', 'vlm_omni_rl', [
    'VLM RL',
    'Omni RL',
    'multimodal RL',
    'multimodal reinforcement learning',
    'visual RL',
    '多模态 RL',
    '多模态强化学习',
  ]),
  t('OPD / Distillation / Merge', 'stage', 'opd_merge'),
  // ── Stages: finer names used by sources and the seed's table ─────────────
  t('Long-CoT cold start', 'stage', 'sft_distillation', [
    'long chain-of-thought cold start',
    'long chain-of-thought (CoT) cold start',
    'long CoT cold start',
    'long-CoT cold-start',
    '长思维链冷启动',
  ]),
  t('cold-start SFT', 'stage', 'sft_distillation', ['cold-start data', 'cold start', 'cold-start fine-tuning', 'cold-start supervised fine-tuning', '冷启动']),
  t('Thinking mode fusion', 'stage', null, ['thinking-mode fusion', '思考模式融合']),
  t('Agentic RL', 'stage', 'agentic_rl', ['agentic reinforcement learning', 'agent RL', '智能体 RL', '智能体强化学习', 'Agentic 强化学习']),
  t('General RL', 'stage', 'general_rl', ['general reinforcement learning', 'general-domain RL', '通用 RL', '通用强化学习']),
  t('Preference RL', 'stage', 'general_rl', ['preference reinforcement learning', 'preference-based RL', '偏好 RL', '偏好强化学习']),
  t('RLHF', 'stage', 'general_rl', ['reinforcement learning from human feedback', '人类反馈强化学习']),

  // ── Algorithms ──────────────────────────────────────────────────────────
  t('PPO', 'algorithm', null, ['Proximal Policy Optimization', '近端策略优化']),
  t('critic-based PPO', 'algorithm', null, ['critic based PPO', 'PPO with a critic', 'PPO with critic']),
  t('GRPO', 'algorithm', null, ['Group Relative Policy Optimization', 'Group-Relative Policy Optimization']),
  t('GSPO', 'algorithm', null, ['Group Sequence Policy Optimization']),
  t('CISPO', 'algorithm', null, ['Clipped IS-weight Policy Optimization']),
  t('DAPO', 'algorithm', null, ['Decoupled Clip and Dynamic Sampling Policy Optimization']),
  t('DPO', 'algorithm', null, ['Direct Preference Optimization', '直接偏好优化']),
  t('REINFORCE++', 'algorithm', null, []),
  t('RLOO', 'algorithm', null, ['REINFORCE Leave-One-Out', 'leave-one-out REINFORCE']),
  t('IcePop', 'algorithm', null, []),
  t('Direct Double-sided Importance Sampling', 'algorithm', null, ['double-sided importance sampling']),
  t('rejection-sampling fine-tune', 'algorithm', null, [
    'rejection-sampling fine-tuning',
    'rejection sampling fine-tuning',
    'rejection-sampling finetuning',
    'rejection sampling',
    '拒绝采样',
  ]),
  t('OPD', 'algorithm', 'opd_merge', ['on-policy distillation', '在线策略蒸馏', '同策略蒸馏']),
  t('PARL', 'algorithm', 'agentic_rl', ['Parallel-Agent Reinforcement Learning', 'Parallel-Agent RL', 'parallel agent reinforcement learning']),
  t('RLCS', 'algorithm', null, ['curriculum sampling', 'Reinforcement Learning with Curriculum Sampling', '课程采样']),
  t('online mirror descent', 'algorithm', null, ['在线镜像下降']),
  t('model merge', 'algorithm', 'opd_merge', ['model merging', 'weight merging', 'checkpoint merging', '模型合并', '模型融合']),

  // ── Rewards ─────────────────────────────────────────────────────────────
  t('rule-based reward', 'reward', null, ['rule based reward', '规则奖励', '基于规则的奖励']),
  t('RLVR', 'reward', 'reasoning_rl', [
    'verifiable reward',
    'reinforcement learning with verifiable rewards',
    'reinforcement learning from verifiable rewards',
    '可验证奖励',
  ]),
  t('self-critique rubric reward', 'reward', null, ['self-critiqued rubric reward', 'rubric reward', 'rubric-based reward']),
  t('model-based reward', 'reward', null, ['judge reward', 'reward model', 'LLM-as-a-judge reward', 'generative reward model', '奖励模型']),
  t('process reward', 'reward', null, ['PRM', 'process reward model', 'process-based reward', '过程奖励']),
  t('std-threshold filter', 'reward', null, ['std threshold filter', 'std-threshold filtering', 'standard-deviation threshold filter']),
  t('anti-hack module', 'reward', null, ['anti-hacking module', 'anti-hack', 'anti-reward-hacking module']),

  // ── Frameworks ──────────────────────────────────────────────────────────
  t('slime', 'framework', null, []),
  t('forge', 'framework', null, []),
  t('verl', 'framework', null, ['HybridFlow']),
  t('OpenRLHF', 'framework', null, []),

  // ── Systems ─────────────────────────────────────────────────────────────
  t('Megatron + SGLang', 'system', null, ['Megatron+SGLang', 'Megatron with SGLang', 'Megatron and SGLang', 'Megatron-SGLang']),
  t('asynchronous RL', 'system', null, ['async RL', 'asynchronous reinforcement learning', 'asynchronous rollout', 'async rollout', '异步 RL', '异步强化学习']),
  t('training-inference disaggregation', 'system', null, [
    'train-inference disaggregation',
    'disaggregated training and inference',
    'training–inference disaggregation',
    '训练-推理解耦',
    '训推解耦',
    '训推分离',
  ]),
  t('TITO', 'system', null, ['token-in-token-out', 'token in, token out']),
  t('rollout routing replay', 'system', null, ['rollout router replay']),
  t('multi-turn rollout locking', 'system', null, ['multi-turn rollout lock']),
  t('partial rollouts', 'system', null, ['partial rollout']),
];
