/** The PDF viewer's ViewerApi: protocol calls to the background, and its calls and notices to this tab. */
import { browser } from 'wxt/browser';
import type { ViewerApi } from '../../components/pdf/api';
import { ChangeNotice, Envelope, backgroundToContent, callBackground, dispatch, fromOurBackground, routes } from '../../lib/messages';

/** Builds the viewer's access to the store and the browser. */
export function createViewerApi(): ViewerApi {
  return {
    claims: (doc) => callBackground('pdf.claims', doc),
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
      await callBackground('pdf.status', { anchored, orphans });
    },
    // The background reaches this tab like a content script (tabs.sendMessage reaches extension pages too). Unlike a
    // content script, this page also hears every other page's calls to the background: it must stay silent for those.
    listen(handlers) {
      const table = routes([{ schemas: backgroundToContent, rule: fromOurBackground, handlers: handlers as never }]);
      const listener = (message: unknown, sender: Parameters<typeof dispatch>[2]) => {
        const envelope = Envelope.safeParse(message);
        if (!envelope.success || !Object.hasOwn(backgroundToContent, envelope.data.type) || sender.tab) return undefined;
        return dispatch(table, message, sender);
      };
      browser.runtime.onMessage.addListener(listener as never);
      return () => browser.runtime.onMessage.removeListener(listener as never);
    },
    onChange(callback) {
      const listener = (message: unknown) => {
        const notice = ChangeNotice.safeParse(message);
        if (notice.success) callback(notice.data.url);
      };
      browser.runtime.onMessage.addListener(listener);
      return () => browser.runtime.onMessage.removeListener(listener);
    },
    fileAccess: async () => {
      const ext = browser.extension as unknown as { isAllowedFileSchemeAccess?: () => Promise<boolean> } | undefined;
      return ext?.isAllowedFileSchemeAccess ? ext.isAllowedFileSchemeAccess() : null;
    },
  };
}
