/** A PDF's text model from its bytes, read by the viewer's pdf.js (its engine and data files, loaded on the first PDF only). */
import { PdfTextModel } from '../../lib/pdf';
import { TextSource } from '../../lib/pdf/extract';

/** Reads every page's text and builds the text model the viewer anchors on. Throws for a broken PDF. */
export async function readPdfText(bytes: Uint8Array): Promise<PdfTextModel> {
  const { openPdf } = await import('../pdf/pdfjs');
  const doc = await openPdf({ data: bytes }).promise;
  try {
    const pages = await new TextSource(doc).all();
    return PdfTextModel.build(
      pages.map((p) => p.runs),
      document.implementation.createHTMLDocument(''),
    );
  } finally {
    await doc.destroy();
  }
}
