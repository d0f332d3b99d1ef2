/**
 * PDFs for the end-to-end tests, generated on the fly with Chromium's own
 * printing (`page.pdf()`) from pages written here or from the shared real
 * pages: nothing binary is committed. Also reads a generated PDF's text per
 * page with pdf.js in Node, so tests can pick passages (one across a page
 * break, say) from what the file really holds.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { SHARED_FIXTURES } from './harness';

/** Prints HTML to a PDF (A4, with an outline from the headings) in a fresh tab of `context`. */
export async function printPdf(context: BrowserContext, html: string, options: { title?: string } = {}): Promise<Buffer> {
  const page = await context.newPage();
  try {
    await page.setContent(html, { waitUntil: 'load' });
    if (options.title) await page.evaluate((t) => (document.title = t), options.title);
    return await page.pdf({
      format: 'A4',
      outline: true,
      tagged: true,
      printBackground: true,
      margin: { top: '18mm', bottom: '18mm', left: '16mm', right: '16mm' },
    });
  } finally {
    await page.close();
  }
}

/** Prints one of the shared real pages (`../shared/fixtures/pages/<file>`) to a PDF. */
export async function printSharedPage(context: BrowserContext, file: string): Promise<Buffer> {
  return printPdf(context, readFileSync(path.join(SHARED_FIXTURES, file), 'utf8'));
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A section of a report: a heading and paragraphs, optionally set in two columns. */
export interface ReportSection {
  heading: string;
  paragraphs: string[];
  columns?: boolean;
  /** Start the section on a new page. */
  newPage?: boolean;
}

/** A technical-report-like page: title, authors, date, an arXiv stamp in the margin, abstract and sections. */
export function reportHtml(report: { title: string; authors: string; date: string; arxiv?: string; abstract: string; sections: ReportSection[] }): string {
  const stamp = report.arxiv
    ? `<div style="position:absolute;left:0;top:170mm;transform:rotate(-90deg);transform-origin:left top;font:14px serif;color:#777;white-space:nowrap">arXiv:${escape(report.arxiv)} [cs.CL] ${escape(report.date)}</div>`
    : '';
  const sections = report.sections
    .map(
      (s) => `<section style="${s.newPage ? 'break-before:page;' : ''}">
  <h2>${escape(s.heading)}</h2>
  <div style="${s.columns ? 'columns:2;column-gap:8mm;' : ''}">${s.paragraphs.map((p) => `<p>${escape(p)}</p>`).join('\n')}</div>
</section>`,
    )
    .join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(report.title)}</title>
<style>body{font:12pt/1.45 'DejaVu Serif','Liberation Serif',serif;margin:0;padding-left:10mm;position:relative} h1{text-align:center;font-size:22pt;margin:0 0 8pt} .authors{text-align:center;font-size:12pt} .date{text-align:center;font-size:11pt;color:#444;margin-bottom:14pt} h2{font-size:14pt;margin:14pt 0 6pt} p{margin:0 0 8pt;text-align:justify} .abstract{margin:0 8%}</style>
</head><body>${stamp}
<h1>${escape(report.title)}</h1>
<div class="authors">${escape(report.authors)}</div>
<div class="date">${escape(report.date)}</div>
<div class="abstract"><h2>Abstract</h2><p>${escape(report.abstract)}</p></div>
${sections}
</body></html>`;
}

/** Sentences about one page of the long report, all different from every other page's. */
export function longPageSentences(n: number): string[] {
  const algos = ['GRPO', 'GSPO', 'CISPO', 'DAPO', 'PPO', 'RLOO', 'REINFORCE++'];
  const rewards = ['rule-based reward', 'a rubric reward', 'a process reward', 'a verifiable reward', 'a judge model'];
  return [
    `Stage ${n} of the curriculum trains the policy with ${algos[n % algos.length]} at a learning rate of ${n} times ten to the minus seven.`,
    `During stage ${n}, rollouts are scored with ${rewards[n % rewards.length]} and trajectories shorter than ${n * 16} tokens are filtered out.`,
    `The ablation for stage ${n} shows that removing the KL penalty changes accuracy by ${(n % 9) + 0.5} points on the held-out set.`,
    `We keep ${n * 3} checkpoints from stage ${n} and merge the best ${(n % 4) + 2} of them before the next stage begins.`,
    `Appendix note ${n}: the batch for stage ${n} holds ${n * 8} prompts with ${(n % 6) + 4} samples each, drawn without replacement.`,
  ];
}

/** A report of `pages` pages (one section per page), for the lazy-rendering, import and benchmark tests. */
export function longReportHtml(pages: number): string {
  const sections: ReportSection[] = [];
  for (let n = 1; n <= pages; n++) sections.push({ heading: `Section ${n}`, paragraphs: longPageSentences(n), newPage: n > 1 });
  return reportHtml({
    title: 'Orion-2 Technical Report',
    authors: 'Orion Team',
    date: '12 March 2026',
    abstract: 'Orion-2 is trained in many small stages; each section below describes one of them.',
    sections,
  });
}

/** The report most tests tag: three pages, a two-column section, an arXiv stamp. */
export const ZETA = {
  title: 'Zeta-3 Technical Report',
  arxiv: '2603.01234v1',
  grpo: 'In the reasoning stage, Zeta-3 is optimised with Group Relative Policy Optimization using rule-based rewards for mathematics and code.',
  async: 'Our asynchronous rollout system decouples generation from training so that no accelerator waits for the slowest trajectory.',
  column: 'The second column explains that partial rollouts are resumed on the next step instead of being discarded.',
  merge: 'After the general stage, the three expert checkpoints are merged by averaging their weights with equal coefficients.',
  html(edit: 'none' | 'edited' = 'none'): string {
    const filler = (k: number) =>
      `Paragraph ${k} describes the data pipeline in more detail: prompts are deduplicated, decontaminated against the benchmarks, and balanced across domains before training.`;
    return reportHtml({
      title: this.title,
      authors: 'Zeta Team',
      date: '3 March 2026',
      arxiv: this.arxiv,
      abstract: 'We describe how Zeta-3 was post-trained: a cold start, a reasoning stage with verifiable rewards, agentic training and a general stage.',
      sections: [
        { heading: '1 Introduction', paragraphs: [filler(1), filler(2), filler(3)] },
        {
          heading: '2 Reasoning RL',
          paragraphs: [
            edit === 'edited'
              ? 'In the reasoning stage, Zeta-3 is optimised with Group Relative Policy Optimization using rule-based rewards for mathematics and for code.'
              : this.grpo,
            filler(4),
            filler(5),
          ],
        },
        {
          heading: '3 Systems',
          columns: true,
          newPage: true,
          paragraphs: [
            filler(6),
            edit === 'edited' ? 'Generation now runs on separate machines, and the trainer never pauses for generation at all.' : this.async,
            filler(7),
            filler(8),
            this.column,
            filler(9),
          ],
        },
        { heading: '4 Merging', paragraphs: [filler(10), this.merge, filler(11)] },
      ],
    });
  },
};

/** The text of each page of a PDF as the viewer's model reads it (runs joined, line ends as spaces, white space collapsed). */
export async function pdfPageTexts(pdf: Buffer): Promise<string[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  const out: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    let text = '';
    for (const item of content.items) {
      if (!('str' in item)) continue;
      text += item.str;
      if (item.hasEOL) text += ' ';
    }
    out.push(text.replace(/\s+/g, ' ').trim());
  }
  await doc.destroy();
  return out;
}
