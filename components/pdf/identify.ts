/** What a PDF is: its source (title, authors, publisher, arXiv id, address) from its metadata, first page and outline, and its fingerprint. */
import { detectPdfSource, linesOf, type PdfSource, type TextSource } from '../../lib/pdf';
import { today } from '../../lib/time';
import type { PDFDocumentProxy } from './pdfjs';
import type { ViewerState } from './viewer-state';

/** A document's source and the fingerprint it is stored under when it has no address. */
export interface Identity {
  source: PdfSource;
  fingerprint: string;
}

/** Reads the metadata and the first page of `doc` (opened from `file`) with its outline's headings. */
export async function identifyPdf(doc: PDFDocumentProxy, text: TextSource, file: string, outline: Promise<Array<{ title: string }> | null>): Promise<Identity> {
  const [meta, first, headings] = await Promise.all([doc.getMetadata().catch(() => null), text.page(1).catch(() => ({ runs: [], styles: {} })), outline]);
  const info = (meta?.info ?? {}) as Record<string, unknown>;
  const source = detectPdfSource({ url: file, info, lines: linesOf(first.runs), headings: (headings ?? []).map((o) => o.title) }, today(), document);
  return { source, fingerprint: doc.fingerprints[0] ?? doc.fingerprints[1] ?? 'unknown' };
}

/** The viewer's header fields for a source. */
export function headerOf(source: PdfSource): Pick<ViewerState, 'title' | 'authors' | 'publisher' | 'published' | 'arxiv' | 'sourceUrl'> {
  return {
    title: source.title,
    authors: source.authors,
    publisher: source.publisher,
    published: source.published,
    arxiv: source.arxiv ? `${source.arxiv.id}${source.arxiv.version ? `v${source.arxiv.version}` : ''}` : null,
    sourceUrl: source.url,
  };
}
