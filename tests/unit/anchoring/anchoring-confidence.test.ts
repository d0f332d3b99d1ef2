// The confidence model of approximate anchoring (lib/anchoring/confidence.ts) and the word overlap it measures
// edited sentences with (lib/anchoring/overlap.ts), on hand-made evidence.
import { describe, expect, it } from 'vitest';
import {
  ACCEPT_MARGIN,
  ACCEPT_SCORE,
  chanceSimilarity,
  contextEvidence,
  judge,
  placeScore,
  positionEvidence,
  quoteEvidence,
  requiredMargin,
  type PlaceEvidence,
} from '../../../lib/anchoring/confidence';
import { wordOverlap } from '../../../lib/anchoring/overlap';

/** Evidence for a place: a 90-character quote, nothing known about context and position unless given. */
function place(over: Partial<PlaceEvidence> = {}): PlaceEvidence {
  return { similarity: 0.9, prefix: null, suffix: null, offset: null, spread: 100, informative: 1, outOfOrder: false, ...over };
}

describe('features', () => {
  it('chance similarity falls with the quote length', () => {
    expect(chanceSimilarity(20)).toBeGreaterThan(chanceSimilarity(60));
    expect(chanceSimilarity(60)).toBeGreaterThan(chanceSimilarity(200));
    expect(chanceSimilarity(1000)).toBeGreaterThan(0.4);
  });

  it('quote evidence: nothing at chance, full when verbatim, less for a short quote', () => {
    expect(quoteEvidence(place({ similarity: chanceSimilarity(90) }), 90)).toBe(0);
    expect(quoteEvidence(place({ similarity: 1 }), 90)).toBe(1);
    expect(quoteEvidence(place({ similarity: 1 }), 20)).toBeLessThan(0.5);
    // Found once on the page, verbatim: full from 32 characters, unless it would have moved there.
    expect(quoteEvidence(place({ similarity: 1, unique: true }), 40)).toBe(1);
    expect(quoteEvidence(place({ similarity: 1, unique: true, outOfOrder: true }), 40)).toBeLessThan(1);
    // Between intact context, half of it kept is the floor.
    expect(quoteEvidence(place({ similarity: 0.5, prefix: 1, suffix: 1 }), 20)).toBe(0);
    expect(quoteEvidence(place({ similarity: 0.8, prefix: 1, suffix: 1 }), 20)).toBeCloseTo(0.6);
  });

  it('context evidence: an intact side counts most, a verbatim one more, none stored is zero', () => {
    expect(contextEvidence(place())).toBe(0);
    const verbatim = contextEvidence(place({ prefix: 1, suffix: 1 }));
    const nearly = contextEvidence(place({ prefix: 0.97, suffix: 0.97 }));
    const oneSide = contextEvidence(place({ prefix: 1, suffix: 0.1 }));
    const changed = contextEvidence(place({ prefix: 0.2, suffix: 0.1 }));
    expect(verbatim).toBe(1);
    expect(nearly).toBeLessThan(verbatim);
    expect(oneSide).toBeGreaterThan(changed);
    expect(changed).toBeLessThan(0.2);
  });

  it('position evidence: high where expected, falling with the distance, negative where the passage would have moved', () => {
    expect(positionEvidence(place())).toBe(0);
    const here = positionEvidence(place({ offset: 0 }));
    const near = positionEvidence(place({ offset: 100 }));
    const far = positionEvidence(place({ offset: 5000 }));
    expect(here).toBe(1);
    expect(near).toBeCloseTo(0.5);
    expect(far).toBeLessThan(0.05);
    expect(positionEvidence(place({ offset: 0, outOfOrder: true }))).toBe(-1);
    expect(positionEvidence(place({ offset: 0, informative: 0.2 }))).toBeCloseTo(0.2);
  });

  it('the lead required grows with the number of look-alikes', () => {
    expect(requiredMargin(ACCEPT_MARGIN, 1)).toBe(ACCEPT_MARGIN);
    expect(requiredMargin(ACCEPT_MARGIN, 3)).toBeGreaterThan(requiredMargin(ACCEPT_MARGIN, 2));
  });
});

describe('judge', () => {
  it('accepts a similar place that is clearly the best, with reasons and a confidence of 0.5 or more', () => {
    const best = place({ similarity: 0.92, prefix: 1, suffix: 0.3, offset: 4 });
    const j = judge(best, place({ similarity: 0.62, prefix: 0.1, suffix: 0.2, offset: 3000 }), 90);
    expect(j.accepted).toBe(true);
    expect(j.confidence).toBeGreaterThanOrEqual(0.5);
    expect(j.confidence).toBeLessThanOrEqual(0.95);
    expect(j.score).toBeGreaterThanOrEqual(ACCEPT_SCORE);
    expect(j.reasons).toEqual(expect.arrayContaining(['prefix intact', '4 characters from where expected']));
  });

  it('rejects a place a look-alike nearly matches, saying so', () => {
    const best = place({ similarity: 0.95, prefix: 0.7, suffix: 0.6, offset: 3000 });
    const twin = place({ similarity: 0.95, prefix: 0.69, suffix: 0.6, offset: 3200 });
    const j = judge(best, twin, 90);
    expect(j.accepted).toBe(false);
    expect(j.confidence).toBeLessThan(0.5);
    expect(j.reasons.at(-1)).toBe('another place is nearly as likely');
  });

  it('rejects a place with too little of the quote left, however good its context and position', () => {
    const j = judge(place({ similarity: chanceSimilarity(90) + 0.01, prefix: 1, suffix: 1, offset: 0 }), null, 90);
    expect(j.accepted).toBe(true); // between intact context, above half kept
    const k = judge(place({ similarity: 0.45, prefix: 1, suffix: 1, offset: 0 }), null, 90);
    expect(k.accepted).toBe(false);
    expect(k.reasons.at(-1)).toBe('too little of the quote is left');
  });

  it('asks a passage that would have moved to be nearly verbatim', () => {
    const moved = place({ similarity: 0.8, prefix: 0.5, suffix: 0.6, offset: 2000, outOfOrder: true });
    expect(judge(moved, null, 90).accepted).toBe(false);
    expect(judge({ ...moved, similarity: 0.99 }, null, 90).accepted).toBe(true);
  });

  it('scores more evidence higher', () => {
    const weak = placeScore(place({ similarity: 0.7 }), 90);
    const stronger = placeScore(place({ similarity: 0.7, prefix: 1 }), 90);
    const strongest = placeScore(place({ similarity: 0.7, prefix: 1, offset: 0 }), 90);
    expect(weak).toBeLessThan(stronger);
    expect(stronger).toBeLessThan(strongest);
  });
});

describe('word overlap', () => {
  it('measures a sentence that kept its words but gained a clause', () => {
    const quote = 'NCCL Parameter Synchronization: Uses NCCL primitives between Rollouter and Trainer.';
    const text = 'Intro. NCCL Parameter Synchronization: Based on NCCL primitives, refer to the engine, between Rollouter and Trainer. Next.';
    const w = wordOverlap(quote, text, 0, text.length);
    expect(w.kept).toBeGreaterThan(0.8);
    expect(w.similarity).toBeGreaterThan(0.6);
    expect(text.slice(w.start as number, w.end as number)).toMatch(
      /^NCCL Parameter Synchronization: Based on NCCL primitives, refer to the engine, between Rollouter and Trainer\.?$/,
    );
  });

  it('does not count lone short words as kept', () => {
    const w = wordOverlap('the model is trained with a reward', 'a cat sat on the mat in the sun', 0, 31);
    expect(w.kept).toBe(0);
    expect(w.start).toBeNull();
  });

  it('splits CJK text into characters', () => {
    const w = wordOverlap('我们使用强化学习训练模型', '最后我们使用强化学习微调模型。', 0, 15);
    expect(w.kept).toBeGreaterThan(0.7);
  });
});
