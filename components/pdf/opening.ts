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

/** What opening needs: the worker, the download and pdf.js (tests give their own), and a way to prepare a page's drawing. */
export interface OpeningDeps {
  startWorker(): unknown;
  download(url: string, onProgress: (fraction: number) => void): Promise<Uint8Array>;
  loadPdfjs(): Promise<{ openPdf(source: { data: Uint8Array } | { url: string }, onProgress?: (fraction: number) => void): OpeningPdf }>;
  /** Has pdf.js build a page's drawing instructions and decode its images now (none: nothing is prepared). */
  prepare?(page: PDFPageProxy): Promise<unknown>;
}

/**
 * Has pdf.js build the page's drawing instructions, decode its images and load its fonts now, by drawing it once on a
 * one-pixel canvas. What pdf.js builds does not depend on the size it is drawn at, and it keeps it with the page for
 * the same kind of drawing: the viewer's first canvas, drawn later on this same page, draws from it at once.
 */
function prepareDrawing(page: PDFPageProxy): Promise<unknown> {
  const canvas = document.createElement('canvas');
  canvas.width = 1;
  canvas.height = 1;
  const width = page.getViewport({ scale: 1 }).width;
  return page.render({ canvas, viewport: page.getViewport({ scale: 1 / Math.max(1, width) }) }).promise.finally(() => {
    canvas.width = 0;
    canvas.height = 0;
  });
}

const browserDeps: OpeningDeps = {
  startWorker: startPdfWorker,
  download: downloadPdf,
  loadPdfjs: () => import('./pdfjs'),
  prepare: prepareDrawing,
};

/** How to open. */
export interface OpeningOptions {
  /** Prepare the first page's drawing as soon as it is there (not when the viewer opens at another page). */
  prepareFirstPage?: boolean;
}

/**
 * Starts opening the PDF at `file` at once: the worker, the download (an http(s) address; a local file is read
 * by pdf.js itself) and pdf.js side by side, the document as soon as both are there, then its first page.
 */
export function openPdfEarly(file: string, deps: OpeningDeps = browserDeps, options: OpeningOptions = {}): PdfOpening {
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
  // The first page's drawing is prepared while the viewer's own code is still loading, rather than once it is in.
  const prepared = options.prepareFirstPage && deps.prepare ? firstPage.then((page) => (cancelled ? null : deps.prepare!(page))) : null;
  // Whoever takes the opening over hears its failure; nothing is left unhandled meanwhile.
  for (const promise of [bytes, lib, doc, firstPage, prepared]) promise?.catch(() => undefined);
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
