/** The PDF viewer's session and interface, loaded by the entry while the PDF opens. */
import { render } from 'preact';
import { highlightStyles } from '../../components/pdf/highlights';
import type { PdfOpening } from '../../components/pdf/opening';
import { PdfViewerApp } from '../../components/pdf/PdfViewerApp';
import { PdfViewerSession } from '../../components/pdf/session';
import type { ViewerTarget } from '../../lib/pdf';
import { startPageLocale } from '../shared/locale';
import { createViewerApi } from './api';
// Loaded with this module (the entry's dynamic import resolves once the stylesheet is in), not by the page itself.
import '../../components/pdf/viewer.css';

/** Makes the session over the opening document and draws the viewer once its language is known. */
export function startViewer(target: ViewerTarget | null, opening: PdfOpening | null): void {
  performance.mark('recipe-lens:viewer-app');
  const session = new PdfViewerSession(createViewerApi(), target, opening);
  const style = document.createElement('style');
  style.textContent = highlightStyles();
  document.head.append(style);
  void startPageLocale().then(() => {
    render(<PdfViewerApp session={session} />, document.getElementById('app')!);
  });
}
