import { describe, expect, it } from 'vitest';
import { CLAIM_KINDS, EVIDENCE_LEVELS, SOURCE_KINDS, STAGES, type ClaimKind, type Stage } from '../../../lib/schema';
import {
  EVIDENCE_LABELS,
  KIND_LABELS,
  SOURCE_KIND_LABELS,
  STAGE_LABELS,
  TERMS,
  canonicalValue,
  completeValues,
  findTerms,
  lookupTerm,
  splitValues,
} from '../../../lib/taxonomy';

const found = (text: string): Array<[string, string]> => findTerms(text).map((m) => [m.term.canonical, m.matched]);

describe('labels', () => {
  it.each(STAGES.map((s) => [s]))('stage %s has a label', (stage) => {
    expect(STAGE_LABELS[stage].length).toBeGreaterThan(0);
  });
  it.each(CLAIM_KINDS.map((k) => [k]))('kind %s has a label', (kind) => {
    expect(KIND_LABELS[kind].length).toBeGreaterThan(0);
  });
  it.each(EVIDENCE_LEVELS.map((e) => [e]))('evidence %s has a label', (level) => {
    expect(EVIDENCE_LABELS[level].length).toBeGreaterThan(0);
  });
  it.each(SOURCE_KINDS.map((k) => [k]))('source kind %s has a label', (kind) => {
    expect(SOURCE_KIND_LABELS[kind].length).toBeGreaterThan(0);
  });
  it.each([
    ['reasoning_rl', 'Reasoning RL'],
    ['pretrain_midtrain', 'Pretrain / Midtrain'],
    ['sft_distillation', 'SFT / Distillation'],
    ['agentic_rl', 'Agentic / Tool RL'],
    ['general_rl', 'General / Preference RL'],
    ['vlm_omni_rl', 'VLM / Omni RL'],
    ['opd_merge', 'OPD / Distillation / Merge'],
  ] as Array<[Stage, string]>)('STAGE_LABELS.%s = %s', (stage, label) => {
    expect(STAGE_LABELS[stage]).toBe(label);
  });
  it.each([
    ['A', 'Technical report'],
    ['B', 'Official blog / model card'],
    ['C', 'Release only'],
  ] as const)('EVIDENCE_LABELS.%s = %s', (level, label) => {
    expect(EVIDENCE_LABELS[level]).toBe(label);
  });
});

describe('TERMS', () => {
  const key = (s: string) =>
    s
      .toLowerCase()
      .replace(/[\s\-–]+/g, ' ')
      .trim();

  it('gives every name (canonical or alias) to one term only', () => {
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const term of TERMS) {
      for (const name of [term.canonical, ...term.aliases]) {
        const prev = owner.get(key(name));
        if (prev !== undefined && prev !== term.canonical) clashes.push(`${name}: ${prev} / ${term.canonical}`);
        owner.set(key(name), term.canonical);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('uses only schema kinds and stages', () => {
    for (const term of TERMS) {
      expect(CLAIM_KINDS).toContain(term.kind);
      if (term.stage !== null) expect(STAGES).toContain(term.stage);
    }
  });

  it.each([
    ['Reasoning RL', 'stage', 'reasoning_rl'],
    ['Long-CoT cold start', 'stage', 'sft_distillation'],
    ['General RL', 'stage', 'general_rl'],
    ['OPD', 'algorithm', 'opd_merge'],
    ['RLVR', 'reward', 'reasoning_rl'],
    ['GRPO', 'algorithm', null],
    ['critic-based PPO', 'algorithm', null],
    ['IcePop', 'algorithm', null],
    ['model merge', 'algorithm', 'opd_merge'],
    ['rule-based reward', 'reward', null],
    ['anti-hack module', 'reward', null],
    ['slime', 'framework', null],
    ['forge', 'framework', null],
    ['verl', 'framework', null],
    ['OpenRLHF', 'framework', null],
    ['Megatron + SGLang', 'system', null],
    ['TITO', 'system', null],
    ['partial rollouts', 'system', null],
  ] as Array<[string, ClaimKind, Stage | null]>)('%s is a %s term with default stage %s', (canonical, kind, stage) => {
    const term = TERMS.find((t) => t.canonical === canonical);
    expect(term).toBeDefined();
    expect(term?.kind).toBe(kind);
    expect(term?.stage).toBe(stage);
  });

  it.each(STAGES.map((s) => [STAGE_LABELS[s], s] as const))('the flowchart label "%s" is a stage term for %s', (label, stage) => {
    const term = lookupTerm(label);
    expect(term?.kind).toBe('stage');
    expect(term?.stage).toBe(stage);
  });

  // Values curators stored in shared/fixtures/records must survive canonicalisation.
  it.each([
    ['Long-CoT cold start'],
    ['rule-based reward'],
    ['General RL'],
    ['slime'],
    ['Megatron + SGLang'],
    ['Reasoning RL'],
    ['cold-start SFT'],
    ['Preference RL'],
  ])('fixture value "%s" is already canonical', (value) => {
    expect(canonicalValue(value)).toBe(value);
  });
});

describe('findTerms', () => {
  it.each([
    [
      'We optimise with GRPO and PPO.',
      [
        ['GRPO', 'GRPO'],
        ['PPO', 'PPO'],
      ],
    ],
    ['We support GDPO and other pPo-like methods; suppose PPOs.', [['PPO', 'PPOs']]],
    ['ppo and grpo in lower case are not acronyms', []],
    [
      'DPO vs GDPO vs DPO-style',
      [
        ['DPO', 'DPO'],
        ['DPO', 'DPO'],
      ],
    ],
    [
      'Group Relative Policy Optimization (GRPO)',
      [
        ['GRPO', 'Group Relative Policy Optimization'],
        ['GRPO', 'GRPO'],
      ],
    ],
    ['group sequence policy optimization', [['GSPO', 'group sequence policy optimization']]],
    ['a critic-based PPO for long tasks', [['critic-based PPO', 'critic-based PPO']]],
    ['utilizing rule-based rewards to enhance', [['rule-based reward', 'rule-based rewards']]],
    ['rule based\n   reward', [['rule-based reward', 'rule based\n   reward']]],
    [
      'verifiable rewards and a PRM',
      [
        ['RLVR', 'verifiable rewards'],
        ['process reward', 'PRM'],
      ],
    ],
    ['process reward model', [['process reward', 'process reward model']]],
    ['connecting Megatron with SGLang;', [['Megatron + SGLang', 'Megatron with SGLang']]],
    [
      'REINFORCE++ beats RLOO',
      [
        ['REINFORCE++', 'REINFORCE++'],
        ['RLOO', 'RLOO'],
      ],
    ],
    [
      'GRPO + IcePop without KL',
      [
        ['GRPO', 'GRPO'],
        ['IcePop', 'IcePop'],
      ],
    ],
    [
      'on-policy distillation (OPD) across stages',
      [
        ['OPD', 'on-policy distillation'],
        ['OPD', 'OPD'],
      ],
    ],
    ['rejection sampling fine-tuning', [['rejection-sampling fine-tune', 'rejection sampling fine-tuning']]],
    [
      'rollout router replay and multi-turn rollout locking',
      [
        ['rollout routing replay', 'rollout router replay'],
        ['multi-turn rollout locking', 'multi-turn rollout locking'],
      ],
    ],
    [
      '(1) long chain-of-thought (CoT) cold start, (2) reasoning-based reinforcement learning (RL), (3) thinking mode fusion, and (4) general RL.',
      [
        ['Long-CoT cold start', 'long chain-of-thought (CoT) cold start'],
        ['Reasoning RL', 'reasoning-based reinforcement learning'],
        ['Thinking mode fusion', 'thinking mode fusion'],
        ['General RL', 'general RL'],
      ],
    ],
    ['slime is the RL framework behind GLM-5', [['slime', 'slime']]],
    ['slimed and forged are not frameworks', []],
    ['The Asynchronous RL framework', [['asynchronous RL', 'Asynchronous RL']]],
  ] as Array<[string, Array<[string, string]>]>)('in %j finds %j', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it.each([
    ['使用GRPO训练', [['GRPO', 'GRPO']]],
    [
      '采用规则奖励与可验证奖励',
      [
        ['rule-based reward', '规则奖励'],
        ['RLVR', '可验证奖励'],
      ],
    ],
    [
      '官方披露为异步 RL 框架，采用训练-推理解耦',
      [
        ['asynchronous RL', '异步 RL'],
        ['training-inference disaggregation', '训练-推理解耦'],
      ],
    ],
    ['异步RL框架', [['asynchronous RL', '异步RL']]],
    [
      'OPD（在线策略蒸馏）和模型合并',
      [
        ['OPD', 'OPD'],
        ['OPD', '在线策略蒸馏'],
        ['model merge', '模型合并'],
      ],
    ],
    ['强化学习是通用词，不是术语', []],
  ] as Array<[string, Array<[string, string]>]>)('next to CJK: in %j finds %j', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  it('reports offsets into the original text', () => {
    const text = 'Agentic RL uses TITO and Direct Double-sided Importance Sampling.';
    for (const m of findTerms(text)) expect(text.slice(m.index, m.index + m.length)).toBe(m.matched);
    expect(findTerms(text).map((m) => m.index)).toEqual([0, 16, 25]);
  });

  it('prefers the longest of overlapping mentions', () => {
    expect(found('the process reward model and the reward model')).toEqual([
      ['process reward', 'process reward model'],
      ['model-based reward', 'reward model'],
    ]);
    expect(found('Long-CoT cold start')).toEqual([['Long-CoT cold start', 'Long-CoT cold start']]);
  });

  it('scans a whole page quickly', () => {
    const chunk = 'In the second stage we scale RL with GRPO, rule-based rewards and asynchronous RL; support for 强化学习. ';
    const page = chunk.repeat(2000); // ~200k characters
    const start = performance.now();
    const matches = findTerms(page);
    const elapsed = performance.now() - start;
    expect(matches).toHaveLength(6000);
    expect(elapsed).toBeLessThan(2000);
  });
});

describe('canonicalValue', () => {
  it.each([
    ['group relative policy optimization', 'GRPO'],
    ['  Group Relative Policy Optimization  ', 'GRPO'],
    ['Group Relative Policy Optimization (GRPO)', 'GRPO'],
    ['grpo', 'GRPO'],
    ['Group Sequence Policy Optimization', 'GSPO'],
    ['on-policy distillation', 'OPD'],
    ['On Policy Distillation', 'OPD'],
    ['在线策略蒸馏', 'OPD'],
    ['模型合并', 'model merge'],
    ['规则奖励', 'rule-based reward'],
    ['Rule-based rewards', 'rule-based reward'],
    ['异步 RL', 'asynchronous RL'],
    ['async RL', 'asynchronous RL'],
    ['训练-推理解耦', 'training-inference disaggregation'],
    ['rollout router replay', 'rollout routing replay'],
    ['rejection sampling', 'rejection-sampling fine-tune'],
    ['curriculum sampling', 'RLCS'],
    ['Megatron with SGLang', 'Megatron + SGLang'],
    ['Reinforce++', 'REINFORCE++'],
    ['judge reward', 'model-based reward'],
    ['PRM', 'process reward'],
    ['veRL', 'verl'],
    ['General/Preference RL', 'General / Preference RL'],
    ['  MaxProof  ', 'MaxProof'],
    ['group-wise policy optimization', 'group-wise policy optimization'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(canonicalValue(input)).toBe(expected);
  });
});

describe('completeValues', () => {
  it.each([
    ['gr', undefined, 'GRPO'],
    ['GS', undefined, 'GSPO'],
    ['group seq', undefined, 'GSPO'],
    ['rule', 'reward', 'rule-based reward'],
    ['sl', 'framework', 'slime'],
    ['reas', 'stage', 'Reasoning RL'],
    ['在线', undefined, 'OPD'],
  ] as Array<[string, ClaimKind | undefined, string]>)('%j (kind %s) offers %s first', (prefix, kind, first) => {
    expect(completeValues(prefix, kind)[0]?.canonical).toBe(first);
  });

  it('filters by kind', () => {
    const result = completeValues('r', 'reward', 50);
    expect(result.length).toBeGreaterThan(0);
    expect(result.every((t) => t.kind === 'reward')).toBe(true);
  });

  it('puts canonical-prefix matches before alias and substring matches', () => {
    const names = completeValues('p', undefined, 50).map((t) => t.canonical);
    expect(names.slice(0, 4)).toEqual(['Pretrain / Midtrain', 'Preference RL', 'PPO', 'PARL']);
    expect(names.indexOf('process reward')).toBeLessThan(names.indexOf('critic-based PPO'));
  });

  it('respects the limit and lists terms for an empty prefix', () => {
    expect(completeValues('', undefined, 3)).toHaveLength(3);
    expect(completeValues('', 'framework').map((t) => t.canonical)).toEqual(['slime', 'forge', 'verl', 'OpenRLHF']);
    expect(completeValues('e')).toHaveLength(8);
    expect(completeValues('zzzz')).toEqual([]);
  });
});

describe('splitValues', () => {
  it.each([
    ['GRPO + IcePop', ['GRPO', 'IcePop']],
    ['GRPO+IcePop', ['GRPO', 'IcePop']],
    ['Megatron + SGLang', ['Megatron + SGLang']],
    ['slime, Megatron + SGLang', ['slime', 'Megatron + SGLang']],
    ['REINFORCE++', ['REINFORCE++']],
    ['REINFORCE++ + GRPO', ['REINFORCE++', 'GRPO']],
    ['DPO, rule-based rewards，GSPO', ['DPO', 'rule-based reward', 'GSPO']],
    ['DPO; GSPO；CISPO', ['DPO', 'GSPO', 'CISPO']],
    ['DPO、GSPO', ['DPO', 'GSPO']],
    ['RLVR and self-critique rubric reward', ['RLVR', 'self-critique rubric reward']],
    ['Megatron and SGLang', ['Megatron + SGLang']],
    ['GRPO, grpo, Group Relative Policy Optimization', ['GRPO']],
    ['CISPO with std-threshold filter', ['CISPO with std-threshold filter']],
    ['  ', []],
    ['GRPO, , IcePop', ['GRPO', 'IcePop']],
  ])('%j → %j', (input, expected) => {
    expect(splitValues(input)).toEqual(expected);
  });
});
