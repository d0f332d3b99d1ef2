/** The PDF viewer's ViewerApi: the viewer's caller, the background's calls and change notices to this tab, file access and the engine's keeper. */
import { browser } from 'wxt/browser';
import type { ViewerApi } from '../../components/pdf/api';
import { keepPdfEngine } from '../../components/pdf/worker';
import { callAsViewer } from '../shared/calls';
import { answerAsDocument, onChangeNotice } from '../shared/messaging';

/** Builds the viewer's access to the store and the browser. */
export function createViewerApi(): ViewerApi {
  return {
    call: callAsViewer,
    // The background reaches this tab like a content script (tabs.sendMessage reaches extension pages too).
    listen: (handlers) => answerAsDocument(handlers),
    // An extension page also hears the change notices the background broadcasts to pages.
    onChange: (callback) => onChangeNotice(callback),
    fileAccess: async () => {
      const ext = browser.extension as unknown as { isAllowedFileSchemeAccess?: () => Promise<boolean> } | undefined;
      return ext?.isAllowedFileSchemeAccess ? ext.isAllowedFileSchemeAccess() : null;
    },
    keepEngine: () => keepPdfEngine(() => callAsViewer('pdf.engine', { keep: true })),
  };
}
