import { openPdfEarly } from '../../components/pdf/opening';
import { parseViewerUrl } from '../../lib/pdf/links';

// The first page comes first. This entry is a few kilobytes: it starts opening the PDF (pdf.js's worker, the
// download, pdf.js itself, then the document and its first page) before the viewer's own code loads, and that
// code (the session, the interface, the language) loads beside it. The viewer's stylesheet comes with that code
// (`./app`): a stylesheet in the page would hold this entry back until it loaded.
performance.mark('recipe-lens:viewer-script');
const target = parseViewerUrl(location.href);
const opening = target ? openPdfEarly(target.file) : null;
// pdf.js's engine is shared by every viewer and outlives this page: the document is closed in it when the page goes
// away (the engine keeps no document of a closed viewer), and a page restored from the back-forward cache opens again.
addEventListener('pagehide', () => opening?.cancel());
addEventListener('pageshow', (event) => {
  if (event.persisted) location.reload();
});
void import('./app').then(({ startViewer }) => startViewer(target, opening));
