/**
 * A PDF opened before the viewer's interface exists. The viewer's entry is a
 * few kilobytes that call this first: pdf.js's worker starts, the PDF
 * downloads, pdf.js loads, and the document opens (then its first page is
 * asked for) while the viewer's own code, its language and its interface
 * load beside them. The session takes the opening over once it exists.
 */
import { downloadPdf } from './download';
import type { OpeningPdf, PDFDocumentProxy, PDFPageProxy } from './pdfjs';
import { startPdfWorker } from './worker';

/** A document being opened. */
export interface PdfOpening {
  /** The address it is opened from. */
  readonly file: string;
  /** The document (rejects when it cannot be opened). */
  readonly doc: Promise<PDFDocumentProxy>;
  /** Its first page, asked for as soon as the document is open. */
  readonly firstPage: Promise<PDFPageProxy>;
  /** Hears the download's progress in [0,1] (the latest value at once); returns a function that stops hearing it. */
  onProgress(listener: (fraction: number) => void): () => void;
  /** Stops opening, or closes the document opened. */
  cancel(): void;
}

/** What opening needs: the worker, the download and pdf.js (tests give their own). */
export interface OpeningDeps {
  startWorker(): unknown;
  download(url: string, onProgress: (fraction: number) => void): Promise<Uint8Array>;
  loadPdfjs(): Promise<{ openPdf(source: { data: Uint8Array } | { url: string }, onProgress?: (fraction: number) => void): OpeningPdf }>;
}

const browserDeps: OpeningDeps = {
  startWorker: startPdfWorker,
  download: downloadPdf,
  loadPdfjs: () => import('./pdfjs'),
};

/**
 * Starts opening the PDF at `file` at once: the worker, the download (an http(s) address; a local file is read
 * by pdf.js itself) and pdf.js side by side, the document as soon as both are there, then its first page.
 */
export function openPdfEarly(file: string, deps: OpeningDeps = browserDeps): PdfOpening {
  deps.startWorker();
  let progress = 0;
  const listeners = new Set<(fraction: number) => void>();
  const report = (fraction: number) => {
    progress = fraction;
    for (const listener of listeners) listener(fraction);
  };
  const bytes = /^https?:/i.test(file) ? deps.download(file, report) : null;
  bytes?.then(
    () => performance.mark('recipe-lens:pdf-bytes'),
    () => undefined,
  );
  const lib = deps.loadPdfjs();
  let task: OpeningPdf | null = null;
  let cancelled = false;
  const doc = (async () => {
    const { openPdf } = await lib;
    const data = bytes ? await bytes : null;
    if (cancelled) throw new Error('The PDF was closed before it opened.');
    task = openPdf(data ? { data } : { url: file }, report);
    return task.promise;
  })();
  const firstPage = doc.then((d) => d.getPage(1));
  // Whoever takes the opening over hears its failure; nothing is left unhandled meanwhile.
  for (const promise of [bytes, lib, doc, firstPage]) promise?.catch(() => undefined);
  return {
    file,
    doc,
    firstPage,
    onProgress(listener) {
      listeners.add(listener);
      listener(progress);
      return () => listeners.delete(listener);
    },
    cancel() {
      cancelled = true;
      (task as OpeningPdf | null)?.cancel();
    },
  };
}
