// The claim finder's rules one by one (lib/finder/rules.ts): what a sentence names (negation, "not used", examples,
// descriptors), the value it is offered with, and each scoring rule's points and reason. Then the behaviour they make
// together: negated mentions offered as negative findings, the report's own adoptions ranked first, and sentences
// bounded by a PDF's headings and reference lists.
import { describe, expect, it } from 'vitest';
import { findCandidates, rankCandidates, scanMentionList, scoreSentence } from '../../../lib/finder';
import {
  adoptionRule,
  benchmarkRule,
  capabilityRule,
  definesRule,
  etAlRule,
  evaluationRule,
  eventRule,
  examplesRule,
  firstPersonRule,
  futureRule,
  mainValue,
  menuRule,
  moreTermsRule,
  negationOf,
  Negation,
  pipelineRule,
  pretrainingRule,
  readFacts,
  rlContextRule,
  rlNegatedRule,
  runOnRule,
  termRule,
  useRule,
  type Rule,
  type RuleInput,
} from '../../../lib/finder/rules';

/** The rule input of one sentence (the whole text, one group), optionally run on. */
function input(sentence: string, capped = false): RuleInput {
  const list = scanMentionList(sentence);
  const g = { start: 0, end: sentence.length, capped, from: 0, to: list.count };
  const facts = readFacts(sentence, list, g);
  return { text: sentence, list, g, facts, main: mainValue(facts, list, g, null, true), subjects: null };
}

/** A rule's points on a sentence and the reasons it gave. */
function apply(rule: Rule, sentence: string, capped = false): { points: number; reasons: string[] } {
  const reasons: string[] = [];
  const points = rule(input(sentence, capped), (p, r) => void reasons.push(`${r} ${p}`));
  return { points, reasons };
}

/** How each term mention of a sentence is negated, by the term's canonical value. */
function negations(sentence: string): Record<string, Negation> {
  const list = scanMentionList(sentence);
  const g = { start: 0, end: sentence.length, capped: false, from: 0, to: list.count };
  const out: Record<string, Negation> = {};
  for (let i = 0; i < list.count; i++) {
    const m = list.meanings[list.meaning[i]!]!;
    if (m.term) out[m.term.canonical] = negationOf(sentence, list, g, i);
  }
  return out;
}

describe('negation', () => {
  it.each([
    ['a plain negation over the rest of its clause', 'We do not apply the outcome or process neural reward model.', { 'model-based reward': Negation.NotUsed }],
    ['"without relying on …"', 'We train it with pure RL without relying on supervised data or process reward models.', { 'process reward': Negation.NotUsed }],
    [
      '"without" right before a term and its short form',
      'A model trained via RL without supervised fine-tuning (SFT) as a step.',
      { 'SFT / Distillation': Negation.NotUsed },
    ],
    ['an alternative', 'Instead of PPO, we adopt GSPO.', { PPO: Negation.NotUsed, GSPO: Negation.None }],
    ['"distinguishing itself from"', 'Our work is distinguishing itself from preference-based RLHF.', { RLHF: Negation.NotUsed }],
    ['a contrast names nothing', 'Unlike GRPO, we clip the ratio.', { GRPO: Negation.Contrast }],
    ['a comparison names nothing', 'Our model outperforms DAPO on maths.', { DAPO: Negation.Contrast }],
    ['a comma ends the negation', 'We do not filter prompts, and we train with GRPO.', { GRPO: Negation.None }],
    ['"but" ends the negation', 'We do not use a critic but GRPO instead.', { GRPO: Negation.None }],
    ['a later verb of use ends the negation', 'We do not filter the prompts and then use GRPO for every run.', { GRPO: Negation.None }],
    ['"not only" is no negation', 'We not only use GRPO but also DAPO.', { GRPO: Negation.None, DAPO: Negation.None }],
    ['"with and without" is a comparison', 'We compare runs with and without the decoupled PPO objective.', { PPO: Negation.None }],
    ['Chinese', '我们没有使用PPO。', { PPO: Negation.NotUsed }],
  ])('%s', (_name, sentence, expected) => {
    expect(negations(sentence)).toMatchObject(expected);
  });

  it('lets the first mention of a term decide: a later one refers back to it', () => {
    const { facts } = input('We do not apply the reward model, because we find that the reward model may suffer from reward hacking.');
    expect(facts.notUsed.map((t) => t.canonical)).toEqual(['model-based reward']);
    expect(facts.positive.map((t) => t.canonical)).not.toContain('model-based reward');
  });
});

describe('the value a sentence is offered with', () => {
  it.each([
    [
      'the heaviest positive term, its stage from a stage term',
      'In the reasoning RL stage we use GRPO.',
      { kind: 'algorithm', value: 'GRPO', stage: 'reasoning_rl', source: 'positive' },
    ],
    [
      'a negative finding when only a "not used" term is named',
      'We do not apply the process reward model.',
      { kind: 'undisclosed', value: 'not used: process reward', source: 'not-used' },
    ],
    [
      'a negative finding beside a bare RL mention, with its term’s stage',
      'Trained with RL without SFT as a preliminary step.',
      { kind: 'undisclosed', value: 'not used: SFT / Distillation', stage: 'sft_distillation' },
    ],
    [
      'the positive term when one is named beside a negated one',
      'Unlike PPO, we train with GRPO without SFT.',
      { kind: 'algorithm', value: 'GRPO', source: 'positive' },
    ],
    [
      'a bare RL mention read from its qualifier',
      'We then apply RL across more than 20 general-domain tasks.',
      { kind: 'stage', value: 'General RL', source: 'generic' },
    ],
    ['a term that only describes something else', 'We build an agentic RL framework.', { source: 'descriptor' }],
    ['the negated term, scored down, when every mention is contrasted', 'Unlike GRPO, the method has no critic.', { value: 'GRPO', source: 'negated' }],
  ])('%s', (_name, sentence, expected) => {
    expect(input(sentence).main).toMatchObject(expected);
  });
});

describe('rules', () => {
  it.each<[string, Rule, string, number, boolean]>([
    ['term: algorithm 3', termRule, 'We use GRPO.', 3, false],
    ['term: a "not used" finding weighs its term', termRule, 'We do not use PPO.', 3, false],
    ['term: a bare RL mention 1', termRule, 'We apply RL.', 1, false],
    ['term: only contrasted −3', termRule, 'Unlike GRPO, it has no critic.', -3, false],
    ['pre-training −2.5', pretrainingRule, 'Pre-training uses 36T tokens.', -2.5, false],
    ['pre-training: not for post-training', pretrainingRule, 'We use GRPO.', 0, false],
    ['more terms +0.5 each', moreTermsRule, 'We use GRPO with rule-based rewards in reasoning RL.', 1, false],
    ['RL context +0.5', rlContextRule, 'We use GRPO for RL.', 0.5, false],
    ['examples only −1.5', examplesRule, 'Popular methods such as GRPO are easy.', -1.5, false],
    ['a menu of algorithms −1.5', menuRule, 'It offers PPO, GRPO, DAPO and RLOO.', -1.5, false],
    ['RL negated −0.5', rlNegatedRule, 'GRPO is used without RL from scratch.', -0.5, false],
    ['a verb of use +2', useRule, 'The policy is trained with GSPO.', 2, false],
    ['a weaker cue +1', useRule, 'This paper introduces GSPO.', 1, false],
    ['own recipe +2: "we adopt"', adoptionRule, 'We adopt GRPO for reasoning RL.', 2, false],
    ['own recipe +2: "we propose"', adoptionRule, 'In this work, we propose CISPO, a novel RL algorithm.', 2, false],
    ['own recipe +2: a later finite verb of the same clause', adoptionRule, 'We collect 3,995 pairs, and employed GRPO to update the model.', 2, false],
    ['own recipe: not a participle far from "we"', adoptionRule, 'We ran many more experiments using RLOO.', 0, false],
    ['own recipe: not "we do not apply"', adoptionRule, 'We do not apply the reward model.', 0, false],
    ['own recipe: not said of something else', adoptionRule, 'We compare baselines that use GRPO.', 0, false],
    ['own recipe: not for plans', adoptionRule, 'We will use GRPO next year.', 0, false],
    ['own recipe: not for evaluation', adoptionRule, 'We use verl to evaluate the throughput.', 0, false],
    ['defines a framework +1.5', definesRule, 'slime is the RL framework behind GLM-4.5.', 1.5, false],
    ['pipeline wording +1', pipelineRule, 'The second stage uses GRPO.', 1, false],
    ['first person +1', firstPersonRule, 'We use GRPO.', 1, false],
    ['not used, not in the first person −1.5', firstPersonRule, 'It is trained without SFT.', -1.5, false],
    ['et al. −2', etAlRule, 'Shao et al. use GRPO.', -2, false],
    ['et al.: nothing for the method adopted', etAlRule, 'We adopt GRPO (Shao et al., 2024).', 0, false],
    ['benchmark words −1 each', benchmarkRule, 'GRPO reaches SOTA on the leaderboard.', -2, false],
    ['capability −1.5', capabilityRule, 'It supports GRPO.', -1.5, false],
    ['evaluation −1.5', evaluationRule, 'We use verl for a fair comparison.', -1.5, false],
    ['plans −1', futureRule, 'We will use GRPO.', -1, false],
    ['news −1.5', eventRule, 'Our GRPO talk at the meetup.', -1.5, false],
    ['a run-on −2.5', runOnRule, 'GRPO PPO DAPO', -2.5, true],
  ])('%s', (_name, rule, sentence, points, capped) => {
    const { points: got, reasons } = apply(rule, sentence, capped);
    expect(got).toBe(points);
    expect(reasons).toHaveLength(points === 0 ? 0 : 1);
  });
});

describe('negative findings', () => {
  it.each([
    [
      'We do not apply the outcome or process neural reward model, because we find that the neural reward model may suffer from reward hacking.',
      'not used: model-based reward',
    ],
    [
      'In this paper, we improve reasoning using pure reinforcement learning (RL) without relying on supervised data or process reward models.',
      'not used: process reward',
    ],
    ['We do not use PPO in this work.', 'not used: PPO'],
  ])('offers "%s" as a negative finding, never as the value it negates', (sentence, value) => {
    const [c] = findCandidates(sentence).candidates;
    expect(c).toMatchObject({ kind: 'undisclosed', value, polarity: 'negative' });
    expect(c!.values.every((v) => v.startsWith('not used: '))).toBe(true);
    expect(c!.negated).toContain(value.replace('not used: ', ''));
  });

  it('offers a model trained without SFT as "not used: SFT" with its stage, said of the page’s model', () => {
    const sentence =
      'DeepSeek-R1-Zero, a model trained via large-scale reinforcement learning (RL) without supervised fine-tuning (SFT) as a preliminary step, demonstrates remarkable reasoning.';
    const [c] = findCandidates(sentence, { models: ['DeepSeek-R1-Zero'] }).candidates;
    expect(c).toMatchObject({ kind: 'undisclosed', value: 'not used: SFT / Distillation', stage: 'sft_distillation', model: 'DeepSeek-R1-Zero' });
    expect(c!.reasons.some((r) => r.startsWith('said of DeepSeek-R1-Zero'))).toBe(true);
  });

  it('does not turn a comparison with and without a term into "not used"', () => {
    const s = scoreSentence('We compare configurations with and without the decoupled PPO objective.')!;
    expect(s).toMatchObject({ polarity: 'positive', value: 'PPO' });
  });

  it('never counts a "not used" finding as disclosing a stage', () => {
    const page = 'Qwen9 was improved with large-scale reinforcement learning. Reinforcement learning made it better. We do not use PPO in this work.';
    expect(findCandidates(page).suggestUndisclosed).toBe(true);
  });
});

describe('the report’s own recipe ranks first', () => {
  it.each([
    [
      'we adopt, cited',
      'We adopt Group Relative Policy Optimization (GRPO) (Shao et al., 2024) to save the training costs of RL.',
      'GRPO [12] is widely used for reasoning RL in prior work.',
    ],
    ['we propose', 'In this work, we propose CISPO, a novel RL algorithm.', 'CISPO is a recent RL algorithm that clips importance weights.'],
    ['is trained with', 'Qwen9 is trained with GSPO in the reasoning stage.', 'GSPO is used in the reasoning stage of several models.'],
    [
      'employ … as',
      'We ultimately collect 3,995 pairs, and employed GRPO (Shao et al., 2024) to update the model parameters.',
      'GRPO (Shao et al., 2024) estimates the baseline from group scores.',
    ],
    ['the report’s own system', 'AReaL adopts a staleness-enhanced PPO variant.', 'Most systems use PPO with synchronous rollouts.'],
  ])('%s', (_name, own, other) => {
    const { candidates } = findCandidates(`${other} ${own}`, { models: ['Qwen9'], own: ['AReaL'], minScore: -100 });
    const [first] = rankCandidates(candidates);
    expect(first!.sentence).toBe(own);
    expect(first!.adopts).toBe(true);
  });
});

describe('sentences bounded by a PDF’s layout', () => {
  const heading = '4.2 Reasoning RL';
  const text = `${heading} We employ GRPO to update the model. References [1] Shao et al. DeepSeekMath: GRPO for maths 2024.`;

  it('starts a sentence after a heading break, so the heading is not glued to it', () => {
    const { candidates } = findCandidates(text, { breaks: [heading.length + 1] });
    expect(candidates.map((c) => c.sentence)).toContain('We employ GRPO to update the model.');
    expect(candidates.every((c) => !c.sentence.startsWith(heading) || c.sentence === heading)).toBe(true);
  });

  it('leaves out what lies in a skipped range (a reference list)', () => {
    const start = text.indexOf('References');
    const all = findCandidates(text, { minScore: -100 }).candidates;
    const skipped = findCandidates(text, { minScore: -100, skip: [{ start, end: text.length }] }).candidates;
    expect(all.some((c) => c.start >= start)).toBe(true);
    expect(skipped.some((c) => c.start >= start)).toBe(false);
  });
});
