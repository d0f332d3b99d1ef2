import { startPdfWorker } from '../../components/pdf/worker';
import { render } from 'preact';
import { PdfViewerApp } from '../../components/pdf/PdfViewerApp';
import { PdfViewerSession } from '../../components/pdf/session';
import { highlightStyles } from '../../components/pdf/highlights';
import { parseViewerUrl } from '../../lib/pdf';
import { createViewerApi } from './api';
import { startPageLocale } from '../shared/locale';
import '../../components/pdf/viewer.css';

// The first page comes first: pdf.js's worker starts now, and the session (which downloads the PDF and loads pdf.js)
// is made before the language is read; only drawing the viewer waits for the language.
startPdfWorker();
performance.mark('recipe-lens:viewer-script');
const session = new PdfViewerSession(createViewerApi(), parseViewerUrl(location.href));
const style = document.createElement('style');
style.textContent = highlightStyles();
document.head.append(style);
void startPageLocale().then(() => {
  render(<PdfViewerApp session={session} />, document.getElementById('app')!);
});
