// String-level matching behind the anchorer: the bit-parallel edit distance
// against a plain DP, and the bounded approximate search on a large text.
import { describe, expect, it } from 'vitest';
import { findExact, findFuzzy, maxErrorsFor } from '../../../lib/anchoring/match';
import { ApproxPattern, levenshtein, similarity } from '../../../lib/anchoring/myers';
import { rng } from '../../support/random';

function randomString(rand: () => number, length: number, alphabet: string): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
  return s;
}

/** Reference: D[m][j] for every text prefix, by the textbook DP (infix: free start; anchored: start at 0). */
function referenceScores(pattern: string, text: string, anchored: boolean): number[] {
  const m = pattern.length;
  let col = Array.from({ length: m + 1 }, (_, i) => i);
  const out: number[] = [];
  for (let j = 1; j <= text.length; j++) {
    const next = [anchored ? j : 0];
    for (let i = 1; i <= m; i++) {
      const sub = (col[i - 1] as number) + (pattern[i - 1] === text[j - 1] ? 0 : 1);
      next.push(Math.min(sub, (col[i] as number) + 1, (next[i - 1] as number) + 1));
    }
    col = next;
    out.push(col[m] as number);
  }
  return out;
}

describe('ApproxPattern (bit-parallel edit distance)', () => {
  it.each([1, 5, 31, 32, 33, 64, 65, 100])('agrees with the plain DP for patterns of length %i', (m) => {
    const rand = rng(m * 7919);
    for (let trial = 0; trial < 20; trial++) {
      const alphabet = trial % 2 === 0 ? 'ab' : 'abcdefgh ';
      const pattern = randomString(rand, m, alphabet);
      const text = randomString(rand, 20 + Math.floor(rand() * 150), alphabet);
      const ap = new ApproxPattern(pattern);
      expect(Array.from(ap.scan(text, 0, text.length, 1, 'infix'))).toEqual(referenceScores(pattern, text, false));
      expect(Array.from(ap.scan(text, 0, text.length, 1, 'anchored'))).toEqual(referenceScores(pattern, text, true));
      const reversedPattern = [...pattern].reverse().join('');
      const reversedText = [...text].reverse().join('');
      const back = new ApproxPattern(reversedPattern);
      expect(Array.from(back.scan(text, text.length - 1, text.length, -1, 'anchored'))).toEqual(referenceScores(reversedPattern, reversedText, true));
    }
  });

  it('levenshtein and similarity', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(similarity('abcd', 'abcd')).toBe(1);
    expect(similarity('', '')).toBe(1);
    expect(similarity('abcd', 'wxyz')).toBe(0);
  });
});

describe('findExact / findFuzzy', () => {
  it('finds every exact occurrence, overlapping ones included', () => {
    expect(findExact('aaaa', 'aa')).toEqual([0, 1, 2]);
    expect(findExact('abc', '')).toEqual([]);
    expect(findExact('ab'.repeat(50), 'ab', 10)).toHaveLength(10);
  });

  it.each([
    ['substitution', 'the quick brown fox jumps', 'the quick brown cat jumps', 3],
    ['insertion', 'trained with GRPO on math', 'trained with the GRPO on math', 4],
    ['deletion', 'trained with GRPO on math', 'trained with GRPO math', 3],
  ])('locates a span with a %s', (_name, pattern, variant, distance) => {
    const text = `lorem ipsum ${variant} dolor sit amet`;
    const [best] = findFuzzy(text, pattern);
    expect(best).toBeDefined();
    expect(text.slice(best!.start, best!.end)).toBe(variant);
    expect(best!.distance).toBe(distance);
  });

  it('returns nothing beyond the edit budget', () => {
    expect(maxErrorsFor(4)).toBe(2);
    expect(maxErrorsFor(100)).toBe(25);
    expect(findFuzzy('we train with PPO and DPO', 'reinforcement')).toEqual([]);
  });

  describe('on a ~2 MB text', () => {
    const words = 'model policy reward rollout training stage reasoning agent data token the of and with for a to in RL GRPO PPO'.split(' ');
    const rand = rng(42);
    const parts: string[] = [];
    let size = 0;
    while (size < 2_000_000) {
      const w = words[Math.floor(rand() * words.length)] as string;
      const s = rand() < 0.02 ? `${w}${Math.floor(rand() * 100000)}` : w;
      parts.push(s);
      size += s.length + 1;
    }
    const text = parts.join(' ');
    const at = 1_234_567;
    const original = text.slice(at, at + 4000);
    // Perturb the original: a few word-level edits spread over the quote.
    const edited = original
      .split(' ')
      .map((w, i) => (i % 97 === 5 ? 'CHANGED' : i % 211 === 9 ? '' : w))
      .join(' ');
    const page = text.slice(0, at) + edited + text.slice(at + 4000);

    it('finds a 4000-character quote with scattered edits quickly', () => {
      const t0 = performance.now();
      const spans = findFuzzy(page, original, { hint: null });
      const ms = performance.now() - t0;
      const best = spans[0];
      expect(best).toBeDefined();
      expect(Math.abs(best!.start - at)).toBeLessThan(10);
      expect(Math.abs(best!.end - (at + edited.length))).toBeLessThan(10);
      expect(best!.distance).toBeGreaterThan(0);
      expect(best!.distance).toBeLessThan(maxErrorsFor(original.length));
      expect(ms).toBeLessThan(1500);
    });

    it.each([
      ['with', 100_000],
      ['without', null],
    ])('finds a lightly edited medium quote %s a position hint', (_w, hint) => {
      const quote = 'the quick brown fox jumps over the lazy dog and keeps running far away';
      const pageWithQuote = page.slice(0, 100_000) + quote.replace('lazy', 'sleepy') + page.slice(100_000);
      const t0 = performance.now();
      const spans = findFuzzy(pageWithQuote, quote, { hint });
      expect(performance.now() - t0).toBeLessThan(1500);
      expect(spans[0]?.start).toBe(100_000);
      expect(spans[0]?.end).toBe(100_000 + quote.length + 2);
    });

    it('finds a quote whose seed chunks are all too common only through the position hint', () => {
      // 128 characters: long enough that the 2 MB text is not scanned whole.
      const quote = 'Lorem-ipsum-dolor-sit-amet-consectetur-adipiscing-elit-sed-do-eiusmod-tempor-incididunt-ut-labore-et-dolore-magna-aliqua-Ut-enim';
      expect(quote).toHaveLength(128);
      // Scatter every 16-character chunk (the seeds) 20 times, so no seed says where the quote is.
      const pieces = [page.slice(0, 300_000)];
      for (let copy = 0; copy < 20; copy++) {
        for (let q = 0; q < 128; q += 16) {
          const at = 300_000 + copy * 5000 + q * 10;
          pieces.push(` ${quote.slice(q, q + 16)} `, page.slice(at, at + 400));
        }
      }
      const before = pieces.join('') + ' ';
      const pageWithQuote = before + quote.replace('dolor', 'dolar') + ' ' + page.slice(500_000);
      expect(findFuzzy(pageWithQuote, quote, { hint: null })).toEqual([]);
      const spans = findFuzzy(pageWithQuote, quote, { hint: before.length + 40 });
      expect(spans[0]?.start).toBe(before.length);
      expect(spans[0]?.distance).toBe(1);
    });

    it('scans the whole text for a short quote and gives up quickly when absent', () => {
      const t0 = performance.now();
      const spans = findFuzzy(page, 'zyxwvutsrq');
      expect(performance.now() - t0).toBeLessThan(1500);
      expect(spans).toEqual([]);
    });
  });
});
