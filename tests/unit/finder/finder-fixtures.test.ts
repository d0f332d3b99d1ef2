// The claim finder on the shared real pages: every curated record is among the candidates, and at
// least half of each page's top ten candidates are claim-worthy by the hand-written judgments in
// tests/unit/fixtures/finder-judgments.json (matched by candidate key, so the figure is reproducible).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTextIndex, normalizeQuoteText } from '../../../lib/anchoring';
import { findCandidates, rankCandidates, type Candidate } from '../../../lib/finder';
import { guessModels } from '../../../lib/source';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures');
const PAGES_JSON = path.join(FIXTURES, 'pages.json');

interface PageEntry {
  file: string;
  url: string;
  records: string | null;
}

interface Judgment {
  key: string;
  sentence: string;
  worthy: boolean;
  reason: string;
}

const JUDGMENTS = JSON.parse(readFileSync(path.join(__dirname, '../fixtures', 'finder-judgments.json'), 'utf8')) as { pages: Record<string, Judgment[]> };

/** Loads a page into the global test document (as tests/unit/anchoring/anchoring.test.ts does) and runs the finder on its text. */
function runPage(entry: PageEntry): { text: string; models: string[]; candidates: Candidate[] } {
  const html = readFileSync(path.join(FIXTURES, entry.file), 'utf8');
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  document.head.innerHTML = parsed.head.innerHTML;
  document.body.innerHTML = parsed.body.innerHTML;
  const models = guessModels(document, entry.url);
  const text = buildTextIndex(document.body).text;
  return { text, models, candidates: findCandidates(text, { models }).candidates };
}

/** The quotes of a page's records. */
function recordQuotes(entry: PageEntry): Array<{ id: string; exact: string }> {
  if (!entry.records) return [];
  return readFileSync(path.join(FIXTURES, entry.records), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { id: string; schema: string; quote?: { exact: string } })
    .filter((r) => r.schema === 'rl-survey.claim/1' && r.quote)
    .map((r) => ({ id: r.id, exact: normalizeQuoteText(r.quote!.exact) }));
}

/** Whether a candidate covers a quote: it holds at least 80% of the quote, or the quote holds the candidate. */
function covers(text: string, c: Candidate, exact: string): boolean {
  const at = text.indexOf(exact);
  if (at < 0) return c.sentence.includes(exact) || exact.includes(c.sentence);
  const overlap = Math.min(c.end, at + exact.length) - Math.max(c.start, at);
  return overlap >= 0.8 * exact.length || (c.start >= at && c.end <= at + exact.length);
}

if (existsSync(PAGES_JSON)) {
  const pages = JSON.parse(readFileSync(PAGES_JSON, 'utf8')) as PageEntry[];

  describe('claim finder on the shared real pages', () => {
    it('has pages and judgments for each', () => {
      expect(pages.length).toBeGreaterThan(0);
      for (const p of pages) expect(Object.keys(JUDGMENTS.pages)).toContain(p.file);
    });

    it.each(pages.map((p) => [p.file, p] as const))('%s: every record is among the candidates', (_file, entry) => {
      const { text, candidates } = runPage(entry);
      const missing = recordQuotes(entry)
        .filter((q) => !candidates.some((c) => covers(text, c, q.exact)))
        .map((q) => `${q.id}: ${q.exact}`);
      expect(missing).toEqual([]);
    });

    it.each(pages.map((p) => [p.file, p] as const))('%s: at least half of the top ten candidates are claim-worthy', (file, entry) => {
      const { candidates } = runPage(entry);
      const top = rankCandidates(candidates).slice(0, 10);
      const judged = JUDGMENTS.pages[file] ?? [];
      const byKey = new Map(judged.map((j) => [j.key, j]));
      // Every top candidate must have been judged by hand (a changed sentence needs a new judgment).
      const unjudged = top.filter((c) => !byKey.has(c.key)).map((c) => `${c.key} ${c.sentence}`);
      expect(unjudged).toEqual([]);
      const worthy = top.filter((c) => byKey.get(c.key)?.worthy).length;
      // A page with nothing to find may instead return very few candidates.
      if (!entry.records && top.length <= 3) return;
      expect(top.length).toBeGreaterThan(0);
      expect(worthy / top.length).toBeGreaterThanOrEqual(0.5);
    });
  });
} else {
  describe('claim finder on the shared real pages (fixtures absent)', () => {
    it('are not available here, so their cases are not run', () => {
      expect(existsSync(PAGES_JSON)).toBe(false);
    });
  });
}
