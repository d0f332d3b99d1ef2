/**
 * Rule 5 of the evidence rules: advice to users ("you can fine-tune with
 * SFT/DPO/GRPO") says nothing about how the lab trained its model.
 */

/** Words that make a passage about training (not just about usage). */
const TRAINING =
  /fine-?tun|finetun|\btrain|post-?train|\bSFT\b|\bDPO\b|\bGRPO\b|\bPPO\b|\bRLHF\b|\bRL\b|reinforcement learning|\bLoRA\b|LLaMA-Factory|Axolotl|Unsloth|ms-swift|\bTRL\b|微调|训练|强化学习|后训练/i;

/** Phrases addressed to the reader or to users, in English and Chinese. */
const ADDRESSED_TO_USERS: readonly RegExp[] = [
  /\byou\s+(?:can|could|may|might|should|will be able to|are (?:encouraged|welcome|able) to)\b/i,
  /\b(?:users?|developers?|practitioners|the community)\s+(?:can|could|may|might|should|are (?:encouraged|welcome|able) to)\b/i,
  /\bwe\s+(?:recommend|suggest|encourage|advise)\b/i,
  /\b(?:it is|it's)\s+(?:recommended|suggested|advised)\b/i,
  /\bif you (?:want|wish|need|would like|plan) to\b/i,
  /(?:^|[.!?:]\s+)(?:to fine-?tune|for fine-?tuning|to train)\b[^.]*,/i,
  /(?:用户|开发者|您|你)(?:也)?(?:可以|可|能够|能|需要|应该)/,
  /(?:推荐|建议)(?:您|你|用户|开发者)?(?:使用|采用|用)/,
];

/**
 * True when a passage reads as advice to users ("you can fine-tune with…",
 * "we recommend using … for fine-tuning", "用户可以…微调") rather than the
 * lab describing its own training. Both an address to users and a training
 * word are required, so "users may notice faster replies" is not flagged.
 */
export function detectUserGuidance(quote: string): boolean {
  const text = quote.replace(/\s+/g, ' ');
  // Judge sentence by sentence so the two signals must co-occur.
  const sentences = text.split(/(?<=[.!?;])\s+|(?<=[。！？；])/u);
  return sentences.some((s) => TRAINING.test(s) && ADDRESSED_TO_USERS.some((re) => re.test(s)));
}
