/**
 * Reading a fetched source in Node, for `survey recheck`: HTML parsed by linkedom (a parser only: no script runs,
 * nothing is fetched, markup in the text stays text), PDFs read by pdf.js (its legacy build, the worker's code run in
 * this process) into the same text model the extension's viewer builds.
 */
import { parseHTML } from 'linkedom';
import { PdfTextModel, type TextRun } from '../../lib/pdf';
import { pageHtml } from '../../lib/recheck/content';

export { charsetOf, isPdf } from '../../lib/recheck/content';

/**
 * The boundary points of a range, which is all the anchoring asks of one. linkedom's `Range` has no `setStart`, so
 * its documents make these instead.
 */
class BoundaryRange {
  startContainer: Node | null = null;
  startOffset = 0;
  endContainer: Node | null = null;
  endOffset = 0;
  setStart(node: Node, offset: number): void {
    this.startContainer = node;
    this.startOffset = offset;
    if (this.endContainer === null) this.setEnd(node, offset);
  }
  setEnd(node: Node, offset: number): void {
    this.endContainer = node;
    this.endOffset = offset;
  }
  get collapsed(): boolean {
    return this.startContainer === this.endContainer && this.startOffset === this.endOffset;
  }
}

function withRanges(document: Document): Document {
  (document as unknown as { createRange: () => BoundaryRange }).createRange = () => new BoundaryRange();
  return document;
}

/** An HTML page's document, parsed and inert. */
export function parsePage(body: Uint8Array, contentType: string | null): Document {
  const { document } = parseHTML(pageHtml(body, contentType));
  return withRanges(document as unknown as Document);
}

/** A blank document (for a PDF's text model, which builds its text in detached nodes). */
export function blankDocument(): Document {
  return withRanges(parseHTML('<!doctype html><html><body></body></html>').document as unknown as Document);
}

/**
 * The matrix pdf.js's display layer makes one of as it loads (`new DOMMatrix()`), in a process without one. A recheck
 * only reads text (the worker's own arithmetic places it) and never draws, so nothing here computes: a value holder
 * whose methods keep it as it is. The package ships no native canvas, so pdf.js's own polyfill is not there to load.
 */
class TextOnlyMatrix {
  a = 1;
  b = 0;
  c = 0;
  d = 1;
  e = 0;
  f = 0;
  constructor(init?: ArrayLike<number>) {
    if (init && init.length >= 6)
      [this.a, this.b, this.c, this.d, this.e, this.f] = Array.from(init).slice(0, 6) as [number, number, number, number, number, number];
  }
  multiplySelf(): this {
    return this;
  }
  preMultiplySelf(): this {
    return this;
  }
  invertSelf(): this {
    return this;
  }
  translate(): this {
    return this;
  }
  scale(): this {
    return this;
  }
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | null = null;

/** pdf.js, loaded on the first PDF only, its worker's code in this process (no worker thread or file to find). */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= (async () => {
    const scope = globalThis as { DOMMatrix?: unknown };
    scope.DOMMatrix ??= TextOnlyMatrix;
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    // As it loads, pdf.js warns that it cannot draw (no native canvas): true, and beside the point of reading text.
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (!/^Warning: Cannot (?:load "@napi-rs\/canvas"|polyfill)/.test(String(args[0]))) warn(...args);
    };
    try {
      return await import('pdfjs-dist/legacy/build/pdf.mjs');
    } finally {
      console.warn = warn;
    }
  })();
  return pdfjs;
}

/** A PDF's text model, as the extension's viewer builds it from pdf.js's text runs. Throws for a broken PDF. */
export async function readPdf(body: Uint8Array): Promise<PdfTextModel> {
  const { getDocument } = await loadPdfJs();
  const doc = await getDocument({ data: body, isEvalSupported: false, verbosity: 0, useSystemFonts: false }).promise;
  try {
    const pages: TextRun[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      pages.push(
        content.items
          .filter((i): i is Extract<typeof i, { str: string }> => 'str' in i)
          .map((i) => ({ str: i.str, hasEOL: i.hasEOL, transform: i.transform, width: i.width, fontName: i.fontName })),
      );
      page.cleanup();
    }
    return PdfTextModel.build(pages, blankDocument());
  } finally {
    await doc.destroy();
  }
}
