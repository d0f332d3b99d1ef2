/**
 * pdf.js's worker, started the moment the viewer's script runs: its 1.2 MB
 * script is parsed on its own thread while the viewer's code, its language
 * and pdf.js itself load on the main thread, instead of after them. The
 * worker is handed to pdf.js as a port (`components/pdf/pdfjs.ts`); where
 * workers cannot start (tests), pdf.js starts its own.
 */
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

/** The script pdf.js runs in its worker. */
export const PDF_WORKER_URL: string = workerUrl;

let started: Worker | null | undefined;

/** The worker, started on first call (the viewer calls this first thing); null when workers cannot start here. */
export function startPdfWorker(): Worker | null {
  if (started === undefined) {
    try {
      started = typeof Worker === 'function' ? new Worker(workerUrl, { type: 'module', name: 'pdf.js' }) : null;
    } catch {
      started = null;
    }
  }
  return started;
}
