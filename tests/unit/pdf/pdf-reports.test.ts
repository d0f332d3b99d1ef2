// The two real reports in ../shared/fixtures/pdfs, read with pdf.js as the viewer reads them, against the ground truth
// written by hand in tests/unit/fixtures/pdf-reports.json: furniture left out, the passages a curator tags present as a
// reader sees them, the front matter, and the finder's own-recipe and negative sentences.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCandidates, rankCandidates } from '../../../lib/finder';
import { PdfTextModel, detectPdfSource, linesOf, type PdfInfo, type TextRun } from '../../../lib/pdf';

const PDFS = path.resolve(__dirname, '../../../../shared/fixtures/pdfs');

interface Truth {
  reports: Array<{
    file: string;
    url: string;
    pages: number;
    frontMatter: { title: string; authors: string[]; publisher: string | null; model: string | null; published: string };
    furniture: { runningHeader: string | null; other: Array<{ page: number; text: string }> };
    passages: Array<{ page: number; text: string; hyphen?: string; crossesPage?: boolean }>;
    finder: { own: string[]; negative: Array<{ opening: string; value: string }> };
  }>;
}

const TRUTH = JSON.parse(readFileSync(path.join(__dirname, '../fixtures', 'pdf-reports.json'), 'utf8')) as Truth;

/** Every page's runs (pdf.js `getTextContent`, as lib/pdf/extract.ts keeps them) and the metadata of a shared report. */
async function readReport(file: string): Promise<{ pages: TextRun[][]; info: PdfInfo }> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const root = path.resolve(__dirname, '../../../node_modules/pdfjs-dist');
  const doc = await getDocument({
    data: new Uint8Array(readFileSync(path.join(PDFS, file))),
    isEvalSupported: false,
    cMapUrl: `${root}/cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${root}/standard_fonts/`,
  }).promise;
  const pages: TextRun[][] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    const items = content.items.filter((i) => 'str' in i) as Array<{ str: string; hasEOL: boolean; transform: number[]; width: number; fontName: string }>;
    pages.push(items.map((i) => ({ str: i.str, hasEOL: i.hasEOL, transform: i.transform, width: i.width, fontName: i.fontName })));
  }
  const info = (await doc.getMetadata()).info as PdfInfo;
  await doc.destroy();
  return { pages, info };
}

describe.runIf(existsSync(PDFS))('the shared real reports', () => {
  for (const report of TRUTH.reports) {
    describe(report.file, () => {
      let loaded: Promise<{ model: PdfTextModel; pages: TextRun[][]; info: PdfInfo }> | null = null;
      const load = () => {
        loaded ??= readReport(report.file).then(({ pages, info }) => {
          document.body.replaceChildren();
          return { model: PdfTextModel.build(pages, document), pages, info };
        });
        return loaded;
      };

      it('leaves out exactly the furniture written down: page numbers and stamps, and no running header', async () => {
        const { model } = await load();
        expect(model.pageCount).toBe(report.pages);
        const furniture = model.reading!.furniture;
        const numbers = furniture.filter((f) => /^\d+$/.test(f.text));
        expect(numbers.every((f) => f.text === String(f.page))).toBe(true);
        expect(numbers.length).toBeGreaterThanOrEqual(report.pages - 1);
        expect(furniture.filter((f) => !/^\d+$/.test(f.text))).toEqual(report.furniture.other);
        expect(report.furniture.runningHeader).toBeNull();
      });

      it('holds every passage to tag as a reader sees it, with line-end hyphens joined or kept as in the word', async () => {
        const { model } = await load();
        for (const p of report.passages) {
          const at = model.text.indexOf(p.text);
          expect(at, p.text).toBeGreaterThanOrEqual(0);
          expect(model.pageAt(at)).toBe(p.page);
          if (p.crossesPage) expect(model.pageAt(at + p.text.length - 1)).toBe(p.page + 1);
          // The earlier form (every run, line ends as spaces) did not hold the hyphenated passages.
          if (p.hyphen) expect(model.earlierText.includes(p.text), p.text).toBe(false);
          const placed = model.place(at, at + p.text.length)!;
          expect(placed.segments.map((s) => s.page)).toEqual(p.crossesPage ? [p.page, p.page + 1] : [p.page]);
        }
      });

      it('reads the front matter', async () => {
        const { pages, info } = await load();
        const source = detectPdfSource({ url: report.url, info, lines: linesOf(pages[0] as never), headings: [] }, '2026-12-01', document);
        const f = report.frontMatter;
        expect(source.title).toBe(f.title);
        expect(source.authors.slice(0, f.authors.length)).toEqual(f.authors);
        expect(source.publisher).toBe(f.publisher);
        expect(source.published).toBe(f.published);
        expect(source.models[0] ?? null).toBe(f.model);
      });

      it('finds the report’s own-recipe sentences and never offers a negated value as a positive claim', async () => {
        const { model, pages, info } = await load();
        const source = detectPdfSource({ url: report.url, info, lines: linesOf(pages[0] as never), headings: [] }, '2026-12-01', document);
        const { candidates } = findCandidates(model.text, { ...model.finderHints(), models: source.models });
        const found = report.finder.own.filter((o) => candidates.some((c) => c.sentence.includes(o)));
        expect(found.length / report.finder.own.length).toBeGreaterThanOrEqual(0.8);
        for (const n of report.finder.negative) {
          const offered = candidates.filter((c) => c.sentence.includes(n.opening));
          for (const c of offered) expect(c.polarity === 'negative' || !c.values.includes(n.value)).toBe(true);
        }
        // At least half of the top ten state the report's own recipe (positive or negative).
        const top = rankCandidates(candidates).slice(0, 10);
        const own = top.filter((c) => [...report.finder.own, ...report.finder.negative.map((n) => n.opening)].some((o) => c.sentence.includes(o)));
        expect(own.length).toBeGreaterThanOrEqual(5);
      });
    });
  }
});
