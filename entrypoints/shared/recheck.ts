/** The recheck's access for an extension page: protocol calls, and a reader that fetches with the extension's host permissions. */
import type { RecheckApi } from '../../components/recheck/api';
import { readPdfText } from '../../components/recheck/pdf-text';
import { sourceReader } from '../../components/recheck/read-source';
import { siteOf } from '../../lib/source/sites';
import { nowTimestamp } from '../../lib/time';
import { callBackground, onChangeNotice } from './calls';

/** Builds the recheck's API for the options page or the evidence panel. */
export function createRecheckApi(): RecheckApi {
  return {
    call: (type, request) => callBackground(type, request),
    reader: () =>
      sourceReader({
        fetch: (input, init) => fetch(input, init),
        siteOf,
        readPdf: readPdfText,
        parseHtml: (html) => new DOMParser().parseFromString(html, 'text/html'),
        now: () => nowTimestamp(),
      }),
    onChange: (callback) => onChangeNotice(() => callback()),
  };
}
