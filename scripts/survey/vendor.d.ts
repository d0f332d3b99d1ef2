// Types for pdf.js's worker module, which `survey recheck` runs in its own process (only what it reads).
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  /** The message handler pdf.js's fake worker looks for on `globalThis.pdfjsWorker`. */
  export const WorkerMessageHandler: unknown;
}
