// The finder's whole output on large generated pages, pinned by digest: a change that speeds the finder up must not
// change a single candidate (offsets, scores, reasons, values). When a change of the rules is meant to move results,
// check the new output and update the digests below (the failure prints them).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generatePage, renderText } from '../../../scripts/bench/harness/corpus.mjs';
import { findCandidates, scanMentionList, splitSentences, type FinderOptions } from '../../../lib/finder';

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

const page = generatePage({ seed: 2026, targetChars: 300_000, passages: 0, id: 'pinned', title: 'Pinned finder page' }).html;
const text = renderText(page);
/** The same page with its line breaks and blank lines kept (tags dropped): PDF-like text, where a blank line ends a sentence. */
const raw = page.replace(/<[^>]+>/g, '');
const models = ['Qwen3-235B-A22B', 'GLM-5', 'DeepSeek-R1'];
const all = { limit: 1e9, minScore: -100 };

/** PDF-style hints on the collapsed text: a break every 5,000 characters and a skipped range every 40,000. */
function hints(t: string): FinderOptions {
  const breaks: number[] = [];
  for (let at = 5_000; at < t.length; at += 5_000) breaks.push(at);
  const skip: Array<{ start: number; end: number }> = [];
  for (let at = 20_000; at + 3_000 < t.length; at += 40_000) skip.push({ start: at, end: at + 3_000 });
  return { breaks: Int32Array.from(breaks), skip, own: ['GLM-5'] };
}

describe('finder output pinned on large generated pages', () => {
  it.each([
    ['the benchmark’s options', text, { models }, '7ac9c593d4818bc6'],
    ['every sentence, with page models', text, { models, ...all }, '4127fc46ee1203d7'],
    ['every sentence, PDF hints', text, { ...hints(text), ...all }, '2f6eddafa3d4a494'],
    ['every sentence of the text with line breaks', raw, all, 'bebe12b0d154bbb1'],
    ['a short list', text, { models, limit: 3 }, '7026188a8d1410eb'],
    ['a bar few sentences clear', text, { minScore: 9.5 }, '8f9bcca7cf9a423d'],
  ] as const)('%s', (_name, input, options, expected) => {
    const result = findCandidates(input, options as FinderOptions);
    expect(result.candidates.length).toBeGreaterThan(0);
    expect(digest(result)).toBe(expected);
  });

  it('the mention list and the sentence split', () => {
    const list = scanMentionList(raw);
    const mentions = {
      count: list.count,
      start: [...list.start.subarray(0, list.count)],
      end: [...list.end.subarray(0, list.count)],
      meaning: [...list.meaning.subarray(0, list.count)],
      stops: [...list.stops.at.subarray(0, list.stops.count)],
    };
    expect(digest(mentions)).toBe('3f32ff1a42996bc2');
    expect(digest(splitSentences(raw.slice(0, 60_000)))).toBe('f1f98f7d4e8d142a');
  });
});
