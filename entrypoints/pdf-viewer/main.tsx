import { render } from 'preact';
import { PdfViewerApp } from '../../components/pdf/PdfViewerApp';
import { PdfViewerSession } from '../../components/pdf/session';
import { highlightStyles } from '../../components/pdf/highlights';
import { parseViewerUrl } from '../../lib/pdf';
import { createViewerApi } from './api';
import { startPageLocale } from '../shared/locale';
import '../../components/pdf/viewer.css';

performance.mark('recipe-lens:viewer-script');
const style = document.createElement('style');
style.textContent = highlightStyles();
document.head.append(style);
void startPageLocale().then(() => {
  const session = new PdfViewerSession(createViewerApi(), parseViewerUrl(location.href));
  render(<PdfViewerApp session={session} />, document.getElementById('app')!);
});
