import { describe, expect, it } from 'vitest';
import { detectUserGuidance, needsReason, suggestEvidence } from '../../../lib/evidence';
import { CLAIM_KINDS, SOURCE_KINDS, type ClaimKind, type Evidence, type SourceKind } from '../../../lib/schema';

describe('suggestEvidence', () => {
  // One row per rule of evidence-rules.md "Suggested level".
  it.each([
    ['technical_report', 'stage', 'A'],
    ['technical_report', 'algorithm', 'A'],
    ['technical_report', 'reward', 'A'],
    ['technical_report', 'system', 'A'],
    ['technical_report', 'framework', 'B'],
    ['technical_report', 'intention', 'B'],
    ['official_blog', 'stage', 'B'],
    ['official_blog', 'algorithm', 'B'],
    ['official_blog', 'framework', 'B'],
    ['model_card', 'reward', 'B'],
    ['model_card', 'intention', 'B'],
    ['repository', 'framework', 'B'],
    ['repository', 'system', 'B'],
    ['release', 'stage', 'C'],
    ['release', 'framework', 'C'],
    ['technical_report', 'undisclosed', 'C'],
    ['official_blog', 'undisclosed', 'C'],
    ['model_card', 'undisclosed', 'C'],
    ['repository', 'undisclosed', 'C'],
    ['release', 'undisclosed', 'C'],
    ['third_party', 'algorithm', 'C'],
    ['third_party', 'undisclosed', 'C'],
  ] as Array<[SourceKind, ClaimKind, Evidence]>)('%s + %s → %s', (sourceKind, kind, level) => {
    expect(suggestEvidence(sourceKind, kind).level).toBe(level);
  });

  it.each(SOURCE_KINDS.flatMap((s) => CLAIM_KINDS.map((k) => [s, k] as const)))(
    '%s + %s has a short plain reason and marks only third-party sources as not evidence',
    (sourceKind, kind) => {
      const s = suggestEvidence(sourceKind, kind);
      expect(s.reason.length).toBeGreaterThan(10);
      expect(s.reason.length).toBeLessThan(160);
      expect(s.reason).not.toMatch(/_/); // no enum identifiers in sentences
      expect(s.notEvidence === true).toBe(sourceKind === 'third_party');
    },
  );

  it('states the algorithm rule the way a curator reads it', () => {
    expect(suggestEvidence('technical_report', 'algorithm').reason).toBe('Technical report stating an algorithm → A.');
  });

  it.each([['framework'], ['intention']] as Array<[ClaimKind]>)('technical report + %s leaves raising it to the curator', (kind) => {
    expect(suggestEvidence('technical_report', kind).reason).toMatch(/how it was used.*your call/);
  });

  it('tells the curator to find the primary source for third-party write-ups', () => {
    const s = suggestEvidence('third_party', 'stage');
    expect(s.notEvidence).toBe(true);
    expect(s.reason).toMatch(/not evidence/i);
    expect(s.reason).toMatch(/lab’s own/);
  });
});

describe('needsReason', () => {
  it.each([
    ['A', 'A', false],
    ['B', 'B', false],
    ['C', 'C', false],
    ['B', 'A', true],
    ['A', 'B', true],
    ['C', 'B', true],
    ['B', 'C', true],
  ] as Array<[Evidence, Evidence, boolean]>)('suggested %s, chosen %s → %s', (suggested, chosen, expected) => {
    expect(needsReason(suggested, chosen)).toBe(expected);
  });
});

describe('detectUserGuidance', () => {
  it.each([
    ['You can fine-tune Qwen3.6 with SFT, DPO or GRPO using LLaMA-Factory.'],
    ['We recommend using LLaMA-Factory for fine-tuning.'],
    ['we recommend using ms-swift or Unsloth to fine-tune the model'],
    ['Users may further train the model with DPO on their own data.'],
    ['Developers can post-train the checkpoints with GRPO.'],
    ['If you want to fine-tune the model, please refer to our training examples.'],
    ['To fine-tune the model, use the scripts in the finetune folder.'],
    ['The model weights are released. You should use LoRA for low-resource finetuning.'],
    ['用户可以使用 SFT、DPO 或 GRPO 对模型进行微调。'],
    ['建议使用 LLaMA-Factory 进行微调。'],
    ['您可以基于该模型继续训练。'],
  ])('flags user guidance: %j', (quote) => {
    expect(detectUserGuidance(quote)).toBe(true);
  });

  it.each([
    ['In the first stage, we fine-tuned the models using diverse long CoT data.'],
    ['The second stage focused on scaling up computational resources for RL, utilizing rule-based rewards.'],
    ['We train GLM-5 with GRPO + IcePop and remove the KL term.'],
    ['slime is the RL framework behind GLM-5.2, GLM-5.1, GLM-5'],
    ['Users may notice faster responses in thinking mode.'],
    ['You can try Qwen3 on chat.qwen.ai today.'],
    ['We recommend using a temperature of 0.6 for best results.'],
    ['我们使用 GRPO 进行强化学习训练。'],
    ['用户可以在网页端体验该模型。'],
    [''],
  ])('does not flag the lab’s own training or non-training advice: %j', (quote) => {
    expect(detectUserGuidance(quote)).toBe(false);
  });
});
