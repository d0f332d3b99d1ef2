/**
 * pdf.js, configured for an extension page: the worker and the data files
 * (character maps, standard fonts) come from the extension itself, never the
 * network, and no code is generated at run time (`isEvalSupported: false`).
 * Loaded on demand (`import()`), so the viewer's page paints and the PDF's
 * bytes download while pdf.js loads; its worker was started before, by the
 * viewer's first line (`components/pdf/worker.ts`).
 */
import { getDocument, GlobalWorkerOptions, PDFWorker, type PDFDocumentLoadingTask, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist';
import { PDF_WORKER_URL, startPdfWorker } from './worker';

GlobalWorkerOptions.workerSrc = PDF_WORKER_URL;

/** pdf.js's document and page types, for the viewer's other modules. */
export type { PDFDocumentProxy, PDFPageProxy };

/** The worker: the one the viewer started early, else pdf.js's own, started as this module loads. */
performance.mark('recipe-lens:pdfjs-loaded');
const port = startPdfWorker();
// pdf.js types the port as a Worker; it only posts to it and listens to it, which a shared worker's port does too.
const worker = port ? PDFWorker.create({ port: port as Worker }) : new PDFWorker();

/** An opening document: its promise and a way to stop it. */
export interface OpeningPdf {
  promise: Promise<PDFDocumentProxy>;
  cancel(): void;
}

/** Opens a PDF from its bytes, or from its address (a local file, read by pdf.js itself), reporting progress in [0,1]. */
export function openPdf(source: { data: Uint8Array } | { url: string }, onProgress?: (fraction: number) => void): OpeningPdf {
  const here = (path: string) => new URL(path, location.href).href;
  const task: PDFDocumentLoadingTask = getDocument({
    ...source,
    worker,
    isEvalSupported: false,
    // JPEGs decoded by the browser (WebCodecs' ImageDecoder) in the worker rather than in JavaScript. pdf.js turns this
    // off by default on Chromium for bugs fixed in Chrome 125 (pdf.js#19060, then #20961); this build needs Chrome 134.
    isImageDecoderSupported: true,
    cMapUrl: here('/pdfjs/cmaps/'),
    cMapPacked: true,
    standardFontDataUrl: here('/pdfjs/standard_fonts/'),
    withCredentials: false,
  });
  if (onProgress) task.onProgress = ({ loaded, total }: { loaded: number; total: number }) => onProgress(total > 0 ? Math.min(1, loaded / total) : 0);
  return { promise: task.promise, cancel: () => void task.destroy() };
}
