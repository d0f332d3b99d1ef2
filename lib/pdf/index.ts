/**
 * PDFs in Recipe Lens, the parts that need no pdf.js: the whole-document text
 * model (selectors over all pages, page segments for painting), text-layer
 * geometry, source detection from metadata and the first page, arXiv ids and
 * viewer links.
 */
export { PdfTextModel, type PageSegment, type PlacedPassage, type RunPoint, type TextRun, type TextModelOptions } from './text-model';
export {
  readDocument,
  layoutLines,
  smallCapitals,
  keepsHyphen,
  runSize,
  type DocumentReading,
  type PageReading,
  type HyphenJoin,
  type LayoutLine,
  type LayoutRun,
} from './layout';
export {
  spanBox,
  stretchFor,
  multiply,
  ascentRatio,
  canvasDensity,
  MAX_CANVAS_PIXELS,
  QUICK_DRAW_SHARE,
  type Matrix,
  type RunShape,
  type RunStyle,
  type SpanBox,
} from './geometry';
export {
  detectPdfSource,
  linesOf,
  isJunkTitle,
  labOf,
  looksLikeNames,
  pdfDate,
  type PageLine,
  type PdfInfo,
  type PdfSource,
  type PdfSourceInput,
  type PositionedRun,
} from './source';
export { TextSource, type PageText, type PlacedRun, type TextDocumentLike, type TextPageLike } from './extract';
export { arxivAbsUrl, arxivPdfUrl, arxivFromText, arxivFromUrl, pdfAddressOf, type ArxivId } from './arxiv';
export {
  VIEWER_PATH,
  viewerUrl,
  parseViewerUrl,
  isViewerUrl,
  pdfPageLink,
  pageFromFragment,
  isLikelyPdfUrl,
  isInlinePdfResponse,
  type ViewerTarget,
} from './links';
