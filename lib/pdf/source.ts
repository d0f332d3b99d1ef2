/**
 * What a PDF is: a technical report, with its title, authors, publisher,
 * date, arXiv id and models read from the document's metadata and its first
 * page. Pure: the metadata and the first page's text runs are passed in, and
 * a `Document` only to build the small page the model guesser reads.
 */
import { guessModels, normalizeDate, normalizeUrl, publisherForHost, publisherForSiteName, publisherForTitle } from '../source';
import type { DetectedSource } from '../source';
import { arxivAbsUrl, arxivFromText, arxivFromUrl, type ArxivId } from './arxiv';

/** The PDF's document-information dictionary, as pdf.js's `getMetadata().info` gives it. */
export interface PdfInfo {
  Title?: unknown;
  Author?: unknown;
  Subject?: unknown;
  Keywords?: unknown;
  CreationDate?: unknown;
}

/** A text run with what line grouping needs: its string, line end, and transform (font size and baseline). */
export interface PositionedRun {
  str: string;
  hasEOL: boolean;
  transform: readonly number[];
}

/** One line of a page: its text, the largest font size on it, and whether it runs upright. */
export interface PageLine {
  text: string;
  size: number;
  upright: boolean;
}

/** What the detector reads. */
export interface PdfSourceInput {
  /** Where the PDF was opened (http(s) or file). */
  url: string;
  info: PdfInfo;
  /** The first page's lines, in reading order. */
  lines: readonly PageLine[];
  /** Outline (bookmark) titles, top level first. */
  headings: readonly string[];
}

/** What `detectPdfSource` finds out: a `source` prefill (URL null when only a local file is known), authors and arXiv id. */
export interface PdfSource extends Omit<DetectedSource, 'url'> {
  url: string | null;
  authors: string[];
  arxiv: ArxivId | null;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '');

/** Groups text runs into lines (a line ends after a run with `hasEOL`). */
export function linesOf(runs: readonly PositionedRun[]): PageLine[] {
  const lines: PageLine[] = [];
  let parts: string[] = [];
  let size = 0;
  let upright = true;
  const flush = () => {
    const joined = parts.join('').replace(/\s+/g, ' ').trim();
    if (joined) lines.push({ text: joined, size, upright });
    parts = [];
    size = 0;
    upright = true;
  };
  for (const run of runs) {
    if (run.str) {
      parts.push(run.str);
      const [a = 0, b = 0, c = 0, d = 0] = run.transform;
      if (run.str.trim()) {
        size = Math.max(size, Math.hypot(c, d));
        if (Math.abs(b) > Math.abs(a)) upright = false;
      }
    }
    if (run.hasEOL) flush();
  }
  flush();
  return lines;
}

/** Whether a metadata title is a file name or a tool's placeholder rather than the report's title. */
export function isJunkTitle(title: string): boolean {
  const t = title.trim();
  if (t.length < 4) return true;
  if (/\.(pdf|dvi|tex|docx?|pptx?|odt|ps)$/i.test(t)) return true;
  if (/^(microsoft (word|powerpoint)|untitled|title|slide \d+|arxiv:)/i.test(t)) return true;
  if (/^[\w-]+$/.test(t) && /[_\d]/.test(t)) return true; // main_v3, 2501_12948
  return false;
}

/** The title lines at the top of a first page: the largest upright type, up to three consecutive lines. */
function titleLines(lines: readonly PageLine[]): { title: string; end: number; size: number } | null {
  const candidates = lines.map((l, i) => ({ l, i })).filter(({ l }) => l.upright && /\p{L}{2}/u.test(l.text) && !arxivFromText(l.text));
  const head = candidates.slice(0, 40);
  const max = Math.max(0, ...head.map(({ l }) => l.size));
  if (max <= 0) return null;
  const first = head.find(({ l }) => l.size >= max * 0.95);
  if (!first) return null;
  const picked = [first.l.text];
  let end = first.i;
  for (let i = first.i + 1; i < lines.length && picked.length < 3; i++) {
    const l = lines[i]!;
    if (!l.upright || l.size < max * 0.95) break;
    picked.push(l.text);
    end = i;
  }
  return { title: picked.join(' '), end, size: max };
}

/** Author names from a line of names: split at commas, "and", semicolons and footnote marks. */
function namesIn(line: string): string[] {
  return line
    .replace(/[*†‡§¶∗✉]+|\d+(?=[,\s]|$)/g, ',')
    .split(/\s*(?:,|;|\band\b|&|·)\s*/)
    .map((s) => s.trim())
    .filter((s) => s.length > 1 && s.length < 80 && /\p{L}/u.test(s));
}

/** Whether a line reads as a list of names ("Ada Lovelace, Alan Turing and Qwen Team"), not a sentence or a date. */
export function looksLikeNames(line: string): boolean {
  if (normalizeDate(line) && line.length <= 40) return false;
  if (/[:;!?]|\.\s|\.$/.test(line.replace(/\b[A-Z]\./g, ''))) return false;
  const names = namesIn(line);
  if (!names.length || names.length > 30) return false;
  return names.every((name) => {
    const words = name.split(/\s+/);
    return words.length <= 5 && words.every((w) => /^(\p{Lu}|\p{Lo}|de|van|von|der|da|di|la|le|al\.?)/u.test(w));
  });
}

/** Authors: the metadata's Author, else the lines between the title and the abstract. */
function findAuthors(info: PdfInfo, lines: readonly PageLine[], title: { end: number; size: number } | null): string[] {
  const fromInfo = text(info.Author);
  if (fromInfo) return namesIn(fromInfo).slice(0, 20);
  if (!title) return [];
  const out: string[] = [];
  for (let i = title.end + 1; i < lines.length && i <= title.end + 4; i++) {
    const l = lines[i]!;
    if (/^(abstract|introduction|contents)\b/i.test(l.text) || l.size >= title.size * 0.95) break;
    if (!l.upright || /@|https?:|www\./i.test(l.text) || !looksLikeNames(l.text)) continue;
    out.push(...namesIn(l.text));
  }
  return out.slice(0, 20);
}

/** The lab an author string names ("Qwen Team", "DeepSeek-AI", "Kimi Team"), if the lab table knows it. */
export function labOf(name: string): string | undefined {
  const plain = name.replace(/\s+/g, ' ').trim();
  const bare = plain.replace(/(?:[-\s]+(?:ai|team|inc\.?|research|lab|labs))+$/i, '');
  return publisherForSiteName(plain) ?? publisherForSiteName(bare) ?? undefined;
}

/** A PDF date (`D:20250122093000+00'00'`) as `YYYY-MM-DD`, or null. */
export function pdfDate(value: unknown): string | null {
  const m = /^(?:D:)?(\d{4})(\d{2})(\d{2})/.exec(text(value));
  return m ? normalizeDate(`${m[1]}-${m[2]}-${m[3]}`) : null;
}

/** Builds the small page the model guesser reads: title, headings, opening lines. */
function summaryDocument(doc: Document, title: string, headings: readonly string[], opening: readonly string[]): Document {
  const page = doc.implementation.createHTMLDocument(title);
  const h1 = page.createElement('h1');
  h1.textContent = title;
  page.body.append(h1);
  for (const heading of headings.slice(0, 40)) {
    const h2 = page.createElement('h2');
    h2.textContent = heading;
    page.body.append(h2);
  }
  for (const line of opening.slice(0, 3)) {
    const p = page.createElement('p');
    p.textContent = line;
    page.body.append(p);
  }
  return page;
}

/**
 * Describes a PDF as a source: always a technical report; URL normalised
 * (a local file is known by its arXiv abstract page, or not at all); title
 * from the metadata unless it is a file name, else the first page's largest
 * type; authors from the metadata or the lines under the title; publisher
 * from a lab named among the authors, the lab's own site, or the title's
 * model family; date from arXiv's stamp, a date line on the first page, or
 * the file's creation date; arXiv id from the URL, the stamp or the metadata.
 */
export function detectPdfSource(input: PdfSourceInput, today: string, doc: Document): PdfSource {
  const { info, lines } = input;
  const remote = /^https?:/i.test(input.url);
  const top = titleLines(lines);
  const metaTitle = text(info.Title);
  const title = metaTitle && !isJunkTitle(metaTitle) ? metaTitle : (top?.title ?? (metaTitle || input.url.split('/').pop() || 'PDF document'));
  const stamp = lines.find((l) => arxivFromText(l.text));
  const arxiv = arxivFromUrl(input.url) ?? (stamp ? arxivFromText(stamp.text) : null) ?? arxivFromText(`${text(info.Subject)} ${text(info.Keywords)}`);
  const url = remote ? normalizeUrl(input.url) : arxiv ? arxivAbsUrl(arxiv.id) : null;
  const authors = findAuthors(info, lines, top);
  let host = '';
  try {
    host = remote ? new URL(input.url).hostname : '';
  } catch {
    host = '';
  }
  const publisher =
    authors.map(labOf).find((lab) => lab !== undefined) ??
    lines
      .slice(0, 12)
      .map((l) => labOf(l.text))
      .find((lab) => lab !== undefined) ??
    (host ? publisherForHost(host) : undefined) ??
    publisherForTitle(title) ??
    null;
  const dateLine = lines.slice(0, 30).find((l) => l.text.length <= 40 && normalizeDate(l.text));
  const published = (stamp ? normalizeDate(stamp.text) : null) ?? (dateLine ? normalizeDate(dateLine.text) : null) ?? pdfDate(info.CreationDate);
  const opening = lines.filter((l) => l.upright && l.text.length > 60).map((l) => l.text);
  const models = guessModels(summaryDocument(doc, title, input.headings, opening), url ?? '');
  return { url, title, kind: 'technical_report', publisher, published, accessed: today, models, authors, arxiv };
}
