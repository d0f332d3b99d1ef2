/**
 * What a PDF is: a technical report, with its title, authors, publisher,
 * date, arXiv id and models read from the document's metadata and its first
 * page. Pure: the metadata and the first page's text runs are passed in, and
 * a `Document` only to build the small page the model guesser reads.
 */
import { guessModels, modelTokens, normalizeDate, normalizeUrl, publisherForHost, publisherForSiteName, publisherForTitle } from '../source';
import type { DetectedSource } from '../source';
import { arxivAbsUrl, arxivFromText, arxivFromUrl, type ArxivId } from './arxiv';
import { runSize, smallCapitals } from './layout';

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

/**
 * One line of a page: its text as displayed (small capitals in their displayed case, superscripts left out), the
 * largest font size on it, and whether it runs upright.
 */
export interface PageLine {
  text: string;
  size: number;
  upright: boolean;
  /** The text as the PDF spells it, when small capitals made `text` differ ("AREAL" for "AReaL"). */
  raw?: string;
  /** The text with each superscript (affiliation marks, footnote marks) read as a comma, when the line has any. */
  names?: string;
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
  let from = 0;
  runs.forEach((run, r) => {
    if (run.hasEOL) {
      const line = lineOf(runs, from, r + 1);
      if (line) lines.push(line);
      from = r + 1;
    }
  });
  const last = lineOf(runs, from, runs.length);
  if (last) lines.push(last);
  return lines;
}

/** One line from runs [from, to): displayed text, raw text, names with superscripts as separators. */
function lineOf(runs: readonly PositionedRun[], from: number, to: number): PageLine | null {
  let size = 0;
  let baseline = 0;
  let upright = true;
  for (let r = from; r < to; r++) {
    const run = runs[r]!;
    if (!run.str.trim()) continue;
    const [a = 0, b = 0] = run.transform;
    if (Math.abs(b) > Math.abs(a)) upright = false;
    const s = runSize(run);
    if (s > size) {
      size = s;
      baseline = run.transform[5] ?? 0;
    }
  }
  const lowered = smallCapitals(runs, from, to);
  let text = '';
  let raw = '';
  let names = '';
  let superscripts = false;
  for (let r = from; r < to; r++) {
    const run = runs[r]!;
    const sup = upright && run.str.trim() !== '' && runSize(run) < size * 0.8 && (run.transform[5] ?? 0) > baseline + size * 0.15;
    if (sup) {
      superscripts = true;
      names += ',';
      continue;
    }
    raw += run.str;
    text += lowered.get(r) ?? run.str;
    names += lowered.get(r) ?? run.str;
  }
  const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
  if (!clean(raw) && !superscripts) return null;
  const line: PageLine = { text: clean(text), size, upright };
  if (lowered.size) line.raw = clean(raw);
  if (superscripts) line.names = clean(names);
  return line;
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

/** The title lines at the top of a first page: the largest upright type, up to three consecutive lines (displayed and raw text). */
function titleLines(lines: readonly PageLine[]): { title: string; raw: string; end: number; size: number } | null {
  const candidates = lines.map((l, i) => ({ l, i })).filter(({ l }) => l.upright && /\p{L}{2}/u.test(l.text) && !arxivFromText(l.text));
  const head = candidates.slice(0, 40);
  const max = Math.max(0, ...head.map(({ l }) => l.size));
  if (max <= 0) return null;
  const first = head.find(({ l }) => l.size >= max * 0.95);
  if (!first) return null;
  const picked = [first.l];
  let end = first.i;
  for (let i = first.i + 1; i < lines.length && picked.length < 3; i++) {
    const l = lines[i]!;
    if (!l.upright || l.size < max * 0.95) break;
    picked.push(l);
    end = i;
  }
  return { title: picked.map((l) => l.text).join(' '), raw: picked.map((l) => l.raw ?? l.text).join(' '), end, size: max };
}

/**
 * Author names from a line of names: split at commas, "and", semicolons and footnote marks. Digits stay: a
 * superscript affiliation mark is already a comma in the line's `names` (from its position), and a name such as
 * "MiniMax-M1" or "Kimi k1.5" keeps its number; only a lone number between commas is dropped.
 */
function namesIn(line: string): string[] {
  return line
    .replace(/[*†‡§¶∗✉]+/g, ',')
    .split(/\s*(?:,|;|\band\b|&|·)\s*/)
    .map((s) => s.trim())
    .filter((s) => s.length > 1 && s.length < 80 && /\p{L}/u.test(s) && !/^\d+$/.test(s));
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
    const names = l.names ?? l.text;
    if (!l.upright || /@|https?:|www\./i.test(l.text) || !looksLikeNames(names)) continue;
    out.push(...namesIn(names));
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

const foldCase = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Names without repeats (case ignored), first spelling kept. */
function dedupe(names: readonly string[]): string[] {
  const seen = new Set<string>();
  return names.filter((n) => {
    const k = n.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The models the title names, first, in the case the page displays them: the model pattern reads the title as the
 * PDF spells it ("KIMI K1.5", small capitals), and each name is taken from the displayed title at the same place
 * ("Kimi k1.5"). The title's own model leads the list, so a passage naming no model is not prefilled with a
 * neighbouring variant from the abstract.
 */
function titleModels(title: string, top: { title: string; raw: string } | null): string[] {
  const shown = top && foldCase(top.title) === foldCase(title) ? top : { title, raw: title };
  if (shown.title.length !== shown.raw.length) return modelTokens(title);
  const out: string[] = [];
  let from = 0;
  for (const token of modelTokens(shown.raw)) {
    const at = shown.raw.indexOf(token, from);
    if (at < 0) continue;
    out.push(shown.title.slice(at, at + token.length));
    from = at + token.length;
  }
  return out;
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
  // The metadata's title, unless it is a file name, in the case the first page displays it (small capitals).
  const shown = top && metaTitle && foldCase(metaTitle) === foldCase(top.raw) ? top.title : metaTitle;
  const title = metaTitle && !isJunkTitle(metaTitle) ? shown : (top?.title ?? (metaTitle || input.url.split('/').pop() || 'PDF document'));
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
  const guessed = guessModels(summaryDocument(doc, title, input.headings, opening), url ?? '');
  const models = dedupe([...titleModels(title, top), ...guessed]).slice(0, 8);
  return { url, title, kind: 'technical_report', publisher, published, accessed: today, models, authors, arxiv };
}
