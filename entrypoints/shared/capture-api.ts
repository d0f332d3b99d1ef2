/** The capture controller's calls to the background, as a document (a page's capture script, the PDF viewer) makes them. */
import type { CaptureApi } from '../../components/capture/surface';
import { callBackground } from './messaging';

/** The capture API through the message protocol. */
export function backgroundCaptureApi(): CaptureApi {
  return {
    claims: (key) => callBackground('document.claims', key),
    save: async (claims) => (await callBackground('claims.save', { claims })).claims,
    remove: async (ids) => (await callBackground('claims.delete', { ids })).deleted,
    restore: async (claims) => {
      await callBackground('claims.restore', { claims });
    },
    modelNames: async () => (await callBackground('models.names', {})).names,
    correctSource: async (source) => {
      await callBackground('source.correct', { source });
    },
    status: async (anchored, orphans) => {
      await callBackground('document.status', { anchored, orphans });
    },
    dismissed: async (url) => (await callBackground('dismissals.get', { url })).keys,
    dismiss: async (url, key, sentence) => {
      await callBackground('dismissals.add', { url, key, sentence });
    },
  };
}
