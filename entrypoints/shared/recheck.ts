/**
 * The recheck's reader for an extension page: it fetches with the extension's host permissions. The reader's code (the engine, the Public Suffix List, pdf.js) loads on the first source read, so a
 * page that only shows the report loads none of it.
 */
import type { SourceRead } from '../../components/recheck/api';
import { nowTimestamp } from '../../lib/time';

/** A reader for one run, its code loaded once the first source is read. */
export function lazyReader(): SourceRead {
  let ready: Promise<SourceRead> | null = null;
  return async (url, claims, signal) => {
    ready ??= Promise.all([import('../../components/recheck/read-source'), import('../../components/recheck/pdf-text'), import('../../lib/source/sites')]).then(
      ([{ sourceReader }, { readPdfText }, { siteOf }]) =>
        sourceReader({
          fetch: (input, init) => fetch(input, init),
          siteOf,
          readPdf: readPdfText,
          parseHtml: (html) => new DOMParser().parseFromString(html, 'text/html'),
          now: () => nowTimestamp(),
        }),
    );
    return (await ready)(url, claims, signal);
  };
}
