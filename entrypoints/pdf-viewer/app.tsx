/**
 * The PDF viewer's session and interface, loaded by the entry while the PDF opens. Wiring only: it builds the
 * capture controller over the PDF's surface as the capture script does over a web page's, and hands both to the
 * session (`components/pdf`).
 */
import { render } from 'preact';
import { CaptureController } from '../../components/capture/controller';
import { createStore } from '../../components/common/store';
import { highlightStyles } from '../../components/pdf/highlights';
import { mark } from '../../components/pdf/marks';
import type { PdfOpening } from '../../components/pdf/opening';
import { PdfViewerApp } from '../../components/pdf/PdfViewerApp';
import { PdfSurface } from '../../components/pdf/pdf-surface';
import { PdfViewerSession } from '../../components/pdf/session';
import { initialViewerState } from '../../components/pdf/viewer-state';
import type { PlacedPassage, ViewerTarget } from '../../lib/pdf';
import { startPageLocale } from '../shared/locale';
import { createViewerApi } from './api';
// Loaded with this module (the entry's dynamic import resolves once the stylesheet is in), not by the page itself.
import '../../components/pdf/viewer.css';

/** Makes the session over the opening document and draws the viewer once its language is known. */
export function startViewer(target: ViewerTarget | null, opening: PdfOpening | null): void {
  performance.mark('recipe-lens:viewer-app');
  const api = createViewerApi();
  const viewer = createStore(initialViewerState);
  const surface = new PdfSurface({ title: () => viewer.get().title, file: () => viewer.get().file });
  const controller: CaptureController<PlacedPassage> = new CaptureController({
    surface,
    api,
    // The keys the capture UI does not take are the viewer's (find, zoom, pages).
    onKey: (event) => session.onKey(event),
    onAnchored: () => mark('pdfAnchoredAt'),
    // What the tests and the benchmarks read: the claims painted, and once settled, anchored and orphaned.
    onPaint: ({ painted, anchored, orphans, settled }) => {
      const data = document.documentElement.dataset;
      data.recipeLensPainted = String(painted);
      if (!settled) return;
      data.recipeLensClaims = String(anchored);
      data.recipeLensOrphans = String(orphans);
    },
  });
  const session: PdfViewerSession = new PdfViewerSession({ api, target, opening, viewer, surface, controller });
  const style = document.createElement('style');
  style.textContent = highlightStyles();
  document.head.append(style);
  void startPageLocale().then(() => {
    render(<PdfViewerApp session={session} />, document.getElementById('app')!);
  });
}
