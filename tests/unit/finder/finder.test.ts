// The claim finder (lib/finder) on sentences written here: matching, sentence splitting, ranking.
import { describe, expect, it } from 'vitest';
import { findTerms, TERMS } from '../../../lib/taxonomy';
import { findCandidates, rankCandidates, scanMentions, scoreSentence, sentenceKey, splitSentences, DEFAULT_MIN_SCORE } from '../../../lib/finder';

/** The single candidate found in a one-sentence text (fails when there is none). */
function only(text: string, models?: string[]) {
  const { candidates } = findCandidates(text, { models });
  expect(candidates, `no candidate in: ${text}`).toHaveLength(1);
  return candidates[0]!;
}

describe('matcher', () => {
  it.each([
    ['aliases map to canonical terms', 'We use Group Relative Policy Optimization and rule based rewards.', ['GRPO', 'rule-based reward']],
    ['hyphens, dashes and line breaks are one separator', 'on-policy\n distillation and rule‐based\treward', ['OPD', 'rule-based reward']],
    ['acronyms are case-sensitive', 'grpo and GRPO', ['GRPO']],
    ['word boundaries: no PPO inside support, no DPO inside GDPO', 'support GDPO DPO', ['DPO']],
    ['CJK next to a name is a boundary', '使用GRPO训练，采用基于规则的奖励', ['GRPO', 'rule-based reward']],
    ['plural s', 'verifiable rewards and partial rollouts', ['RLVR', 'partial rollouts']],
    ['longest name wins', 'critic-based PPO and long chain-of-thought (CoT) cold start', ['critic-based PPO', 'Long-CoT cold start']],
    ['cue words never hide terms', 'reasoning-based reinforcement learning', ['Reasoning RL']],
  ])('%s', (_name, text, expected) => {
    const terms = scanMentions(text)
      .filter((m) => m.role === 'term')
      .map((m) => m.term?.canonical);
    expect(terms).toEqual(expected);
  });

  it.each([
    ['every name, comma-separated', TERMS.flatMap((t) => [t.canonical, ...t.aliases]).join(', ')],
    [
      'every name inside Chinese text',
      TERMS.flatMap((t) => [t.canonical, ...t.aliases])
        .map((n) => `我们采用${n}训练`)
        .join('。'),
    ],
    [
      'every name glued to words and plurals',
      TERMS.flatMap((t) => [t.canonical, ...t.aliases])
        .map((n) => `x${n} ${n}s ${n}x (${n})`)
        .join(' '),
    ],
  ])('finds exactly what the taxonomy’s findTerms finds: %s', (_name, text) => {
    const taxonomy = findTerms(text).map((m) => `${m.index}:${m.index + m.length}:${m.term.canonical}`);
    const finder = scanMentions(text)
      .filter((m) => m.role === 'term')
      .map((m) => `${m.start}:${m.end}:${m.term?.canonical}`);
    expect(finder).toEqual(taxonomy);
  });

  it('reports exact offsets', () => {
    const text = 'Then we adopt  GSPO-style clipping.';
    const m = scanMentions(text).find((x) => x.role === 'term')!;
    expect(text.slice(m.start, m.end)).toBe('GSPO');
  });

  it('finds bare RL mentions but not RL glued to a name', () => {
    const roles = (t: string) =>
      scanMentions(t)
        .filter((m) => m.role === 'rl')
        .map((m) => t.slice(m.start, m.end));
    expect(roles('We scale RL and reinforcement learning; 强化学习')).toEqual(['RL', 'reinforcement learning', '强化学习']);
    expect(roles('Kimina-Prover-RL and RL-Factory')).toEqual([]);
  });
});

describe('sentence splitting', () => {
  it.each([
    [
      'abbreviations do not split',
      'We follow prior work, e.g. Shao et al. 2024 and Fig. 3 shows it. Next one.',
      ['We follow prior work, e.g. Shao et al. 2024 and Fig. 3 shows it.', 'Next one.'],
    ],
    ['versions and decimals do not split', 'Qwen3.5 uses a clip of 0.2 and v0.1.0 ships. Done.', ['Qwen3.5 uses a clip of 0.2 and v0.1.0 ships.', 'Done.']],
    ['list numbers do not split', '2. Model Summary We apply RL. 3. Downloads', ['2. Model Summary We apply RL.', '3. Downloads']],
    ['Chinese terminators', '我们采用GRPO。然后使用DPO！是否有效？是的；结束', ['我们采用GRPO。', '然后使用DPO！', '是否有效？', '是的；', '结束']],
    ['closing quotes stay with the sentence', 'He said “we use GRPO.” Then PPO.', ['He said “we use GRPO.”', 'Then PPO.']],
    [
      'semicolons split clauses',
      'Supports training with Megatron; Flexible data generation.',
      ['Supports training with Megatron;', 'Flexible data generation.'],
    ],
    [
      'a lower-case name after a real word starts a sentence',
      'It serves many engines. slime instead optimizes for SGLang.',
      ['It serves many engines.', 'slime instead optimizes for SGLang.'],
    ],
    ['but not after an abbreviation', 'Models, etc. and more i.e. these.', ['Models, etc. and more i.e. these.']],
    ['initials do not split', 'Work by J. Smith on GRPO. Next.', ['Work by J. Smith on GRPO.', 'Next.']],
  ])('%s', (_name, text, expected) => {
    expect(splitSentences(text).map((s) => s.text)).toEqual(expected);
  });

  it('caps run-ons (collapsed lists and tables) at about 400 characters around the term', () => {
    const filler = Array.from({ length: 120 }, (_, i) => `item${i}`).join(' ');
    const text = `${filler} we adopt GRPO here ${filler}`;
    const { candidates } = findCandidates(text, { minScore: -100 });
    expect(candidates).toHaveLength(1);
    const c = candidates[0]!;
    expect(c.end - c.start).toBeLessThanOrEqual(400);
    expect(c.sentence).toContain('we adopt GRPO here');
    expect(c.reasons.some((r) => r.startsWith('run-on'))).toBe(true);
  });
});

/** Claims a curator would record: each must be a candidate with this value. */
const TRUE_CLAIMS: Array<[string, string, string]> = [
  ['EN verb of use + algorithm', 'We use GRPO to train Qwen3-32B on math and code prompts.', 'GRPO'],
  ['EN stage + reward', 'In the second stage, we adopt rule-based rewards to scale up reasoning RL.', 'rule-based reward'],
  ['EN participle + preposition', 'The policy was trained with GSPO on verifiable rewards.', 'GSPO'],
  ['EN framework behind a model', 'slime is the RL framework behind GLM-4.5 and GLM-4.6.', 'slime'],
  [
    'EN pipeline of stages',
    'Our pipeline includes a long chain-of-thought cold start, reasoning RL, thinking mode fusion and general RL.',
    'Long-CoT cold start',
  ],
  ['EN bare RL read from a qualifier', 'Finally, in the fourth stage, we applied RL across more than 20 general-domain tasks.', 'General RL'],
  ['EN system design', 'We adopt a fully asynchronous RL system with partial rollouts to keep the GPUs busy.', 'asynchronous RL'],
  ['EN negation of one term, claim on another', 'Unlike GRPO, we train the model with CISPO to keep every token’s gradient.', 'CISPO'],
  ['EN instead of', 'Instead of PPO, we adopt GSPO for stability on MoE models.', 'GSPO'],
  ['ZH 采用 + algorithm', '我们采用GRPO算法进行强化学习训练。', 'GRPO'],
  ['ZH stage + reward', '在第二阶段，我们使用基于规则的奖励进行推理强化学习。', 'rule-based reward'],
  ['ZH 通过…训练', '该模型通过可验证奖励进行训练，并在数学和代码上取得提升。', 'RLVR'],
  ['ZH 不同于 … 我们采用', '不同于GRPO，我们采用CISPO算法。', 'CISPO'],
  ['an example cue ended by a verb', 'Reasoning models like DeepSeek-R1 use GRPO with verifiable rewards.', 'GRPO'],
];

/** Passages that are not claims: none may be a candidate at the default threshold. */
const NOT_CLAIMS: Array<[string, string]> = [
  ['numbered citation', 'GRPO [12] and PPO [31] are popular choices in prior work.'],
  ['author-year citation', 'Group Relative Policy Optimization (Shao et al., 2024) estimates the baseline from group scores.'],
  [
    'reference-list entry',
    'Shao, Z., et al. DeepSeekMath: Pushing the limits of mathematical reasoning in open language models with GRPO. arXiv preprint arXiv:2402.03300, 2024.',
  ],
  ['baseline table row', 'Method AIME MATH-500 GPQA GRPO 45.3 67.2 51.0 PPO 44.1 65.9 49.8 DAPO 47.0 68.3 52.2'],
  ['comparison with baselines', 'Our model outperforms GRPO and DAPO baselines on AIME 2024 and GPQA.'],
  ['negation only', 'Unlike GRPO, the method has no critic.'],
  ['user guidance', 'You can fine-tune Qwen3 with SFT, DPO or GRPO using LLaMA-Factory.'],
  ['ZH user guidance', '用户可以使用GRPO对模型进行微调。'],
  ['heading', 'Reinforcement Learning with Verifiable Rewards'],
  ['navigation', 'Home Blog GRPO PPO DPO About'],
  ['capability menu', 'Supports PPO, GRPO, GSPO, DAPO, RLOO and REINFORCE++ out of the box.'],
  ['examples only', 'Popular methods such as GRPO and DAPO are easy to try.'],
  ['code', 'trainer = GRPOTrainer(model=policy, reward_fn=rule_based, kl_coef=0.001) # GRPO'],
  ['news of an event', 'We will present our GRPO tutorial at the NeurIPS workshop.'],
];

describe('ranking: presence and absence', () => {
  it.each(TRUE_CLAIMS)('claim (%s) is a candidate', (_name, sentence, value) => {
    const c = only(sentence);
    expect(c.values).toContain(value);
    expect(c.value).toBe(value);
    expect(c.score).toBeGreaterThanOrEqual(DEFAULT_MIN_SCORE);
  });

  it.each(NOT_CLAIMS)('non-claim (%s) is not a candidate', (_name, sentence) => {
    const { candidates } = findCandidates(sentence);
    expect(candidates.map((c) => `${c.score}: ${c.reasons.join('; ')}`)).toEqual([]);
  });

  it.each(NOT_CLAIMS)('non-claim (%s) scores below every claim', (_name, sentence) => {
    const worstClaim = Math.min(...TRUE_CLAIMS.map(([, s]) => scoreSentence(s)?.score ?? Infinity));
    expect(scoreSentence(sentence)?.score ?? -Infinity).toBeLessThan(worstClaim);
  });

  it('explains each score', () => {
    const s = scoreSentence('We use GRPO [3] to train Qwen3.')!;
    expect(s.reasons.some((r) => r.includes('algorithm “GRPO”'))).toBe(true);
    expect(s.reasons.some((r) => r.includes('verb of use'))).toBe(true);
    expect(s.reasons.some((r) => r.includes('first person'))).toBe(true);
    expect(s.reasons.some((r) => r.includes('citation'))).toBe(true);
  });

  it.each([
    ['a bare RL mention needs a cue', 'RL is popular.'],
    ['no term at all', 'The weather is nice today.'],
  ])('no candidate: %s', (_name, sentence) => {
    expect(findCandidates(sentence).candidates).toEqual([]);
  });
});

describe('ranking: order', () => {
  // Pairs: the first sentence must outrank the second.
  it.each([
    ['claim over citation', 'We adopt GRPO for reasoning RL.', 'GRPO [12] is used for reasoning RL.'],
    ['claim over baseline comparison', 'We train Qwen3 with DAPO.', 'Compared with DAPO, our method improves AIME by 3.2 points.'],
    ['positive over contrast', 'We use CISPO to train the model.', 'Unlike CISPO, we clip the ratio.'],
    ['own training over advice', 'We fine-tuned the model with DPO.', 'You can fine-tune the model with DPO.'],
    ['page model over other model', 'Qwen3 was trained with GSPO.', 'Llama-4 was trained with GSPO.'],
    ['algorithm over framework mention', 'We train with GRPO.', 'We train with verl.'],
    ['ZH claim over ZH comparison', '我们采用GSPO进行训练。', '相比GSPO，该方法更稳定。'],
  ])('%s', (_name, better, worse) => {
    const text = `${worse} ${better}`;
    const { candidates } = findCandidates(text, { models: ['Qwen3'], minScore: -100 });
    const ranked = rankCandidates(candidates);
    expect(ranked.map((c) => c.sentence)[0]).toBe(better);
    expect(ranked[0]!.rank).toBe(1);
  });

  it('a heading scores below a sentence, and a heading glued to the next sentence (collapsed text) does not hide it', () => {
    expect(scoreSentence('Rule-Based Rewards')!.score).toBeLessThan(scoreSentence('We use rule-based rewards for math.')!.score);
    const c = only('Rule-Based Rewards We use rule-based rewards for math.');
    expect(c.sentence).toContain('We use rule-based rewards for math.');
  });

  it('returns the best `limit` candidates in document order with their rank', () => {
    const text = [
      'GRPO [4] is common.',
      'We use GRPO for the reasoning stage of Qwen3.',
      'Unlike PPO, we drop the critic.',
      'Our general RL stage adopts a rubric reward.',
      'Method GRPO 45.3 67.2 51.0 PPO 44.1 65.9',
    ].join(' ');
    const all = findCandidates(text, { models: ['Qwen3'], minScore: -100 });
    expect(all.candidates.map((c) => c.start)).toEqual([...all.candidates.map((c) => c.start)].sort((a, b) => a - b));
    const top2 = findCandidates(text, { models: ['Qwen3'], minScore: -100, limit: 2 });
    expect(top2.candidates.map((c) => c.sentence)).toEqual(['We use GRPO for the reasoning stage of Qwen3.', 'Our general RL stage adopts a rubric reward.']);
    expect(top2.candidates.map((c) => c.rank).sort()).toEqual([1, 2]);
    for (const c of all.candidates) expect(text.slice(c.start, c.end)).toBe(c.sentence);
  });

  it('reports stage, kind and model', () => {
    const c = only('In the reasoning RL stage, Qwen3-235B-A22B is trained with GRPO.', ['Qwen3-235B-A22B']);
    expect(c.kind).toBe('algorithm');
    expect(c.value).toBe('GRPO');
    expect(c.values).toEqual(['GRPO', 'Reasoning RL']);
    expect(c.stage).toBe('reasoning_rl');
    expect(c.model).toBe('Qwen3-235B-A22B');
  });
});

describe('dismissal and negative findings', () => {
  const RL_PAGE = [
    'Qwen9 is our most capable model yet.',
    'It was improved with large-scale reinforcement learning.',
    'Reinforcement learning also made it better at following instructions.',
    'Reward design will be described in a later report.',
  ].join(' ');

  it('a page that talks about RL but names no stage, algorithm or reward suggests "not disclosed"', () => {
    const r = findCandidates(RL_PAGE);
    expect(r.talksAboutRl).toBe(true);
    expect(r.suggestUndisclosed).toBe(true);
  });

  it('a page that names an algorithm in use does not', () => {
    const r = findCandidates(`${RL_PAGE} We use GRPO with a rule-based reward.`);
    expect(r.talksAboutRl).toBe(true);
    expect(r.suggestUndisclosed).toBe(false);
  });

  it('reward talk alone is not RL talk', () => {
    const r = findCandidates('Earn rewards with every order. Rewards expire after a year. Our reward program is free.');
    expect(r.talksAboutRl).toBe(false);
    expect(r.suggestUndisclosed).toBe(false);
  });

  it('a page that does not talk about RL suggests nothing', () => {
    const r = findCandidates('Our new model is faster and supports 119 languages. It was pretrained on 36T tokens.');
    expect(r.talksAboutRl).toBe(false);
    expect(r.suggestUndisclosed).toBe(false);
  });

  it('a page that only mentions algorithms in citations suggests "not disclosed"', () => {
    const r = findCandidates(`${RL_PAGE} GRPO [3] and PPO [7] are described in prior work.`);
    expect(r.suggestUndisclosed).toBe(true);
  });

  it('dismissed keys are not returned, and dismissing the only disclosure brings the suggestion back', () => {
    const text = `${RL_PAGE} We use GRPO with a rule-based reward.`;
    const before = findCandidates(text);
    const claim = before.candidates.find((c) => c.value === 'GRPO')!;
    const after = findCandidates(text, { dismissed: new Set([claim.key]) });
    expect(after.candidates.map((c) => c.key)).not.toContain(claim.key);
    expect(after.suggestUndisclosed).toBe(true);
  });

  it('keys hash the normalised sentence: stable across offsets, case and white space', () => {
    const a = findCandidates('Intro. We use GRPO for RL.').candidates[0]!;
    const b = findCandidates('Other text here. We  use GRPO for RL.').candidates[0]!;
    expect(a.key).toBe(b.key);
    expect(a.key).toBe(sentenceKey('we use grpo for rl.'));
    expect(sentenceKey('We use PPO for RL.')).not.toBe(a.key);
    expect(a.key).toMatch(/^[0-9a-f]{16}$/);
  });
});
