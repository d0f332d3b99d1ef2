/** The PDF viewer's ViewerApi: protocol calls to the background, and its calls and notices to this tab. */
import { browser } from 'wxt/browser';
import type { ViewerApi } from '../../components/pdf/api';
import { answerAsDocument, callBackground, onChangeNotice } from '../shared/messaging';

/** Builds the viewer's access to the store and the browser. */
export function createViewerApi(): ViewerApi {
  return {
    claims: ({ url, fingerprint, arxiv }) => callBackground('document.claims', { url, pdf: { fingerprint, arxiv } }),
    save: async (claims) => (await callBackground('claims.save', { claims })).claims,
    remove: async (ids) => (await callBackground('claims.delete', { ids })).deleted,
    restore: async (claims) => {
      await callBackground('claims.restore', { claims });
    },
    modelNames: async () => (await callBackground('models.names', {})).names,
    correctSource: async (source) => {
      await callBackground('source.correct', { source });
    },
    dismissed: async (url) => (await callBackground('dismissals.get', { url })).keys,
    dismiss: async (url, key, sentence) => {
      await callBackground('dismissals.add', { url, key, sentence });
    },
    status: async (anchored, orphans) => {
      await callBackground('document.status', { anchored, orphans });
    },
    // The background reaches this tab like a content script (tabs.sendMessage reaches extension pages too).
    listen: (handlers) => answerAsDocument(handlers),
    onChange: (callback) => onChangeNotice(callback),
    fileAccess: async () => {
      const ext = browser.extension as unknown as { isAllowedFileSchemeAccess?: () => Promise<boolean> } | undefined;
      return ext?.isAllowedFileSchemeAccess ? ext.isAllowedFileSchemeAccess() : null;
    },
  };
}
