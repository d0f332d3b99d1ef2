/**
 * Reading one source for a recheck in an extension page: fetched over the extension's host permissions without
 * cookies (`credentials: 'omit'`) within the recheck's limits, a page parsed by the browser's own parser into an inert
 * document (`DOMParser`: no script runs, nothing loads), a PDF read by pdf.js into the viewer's text model; then its
 * claims rechecked and the findings made ready to store. Never throws for what a source does: a failure is its
 * `unreachable` reason.
 */
import type { SiteOf } from '../../lib/source/url';
import type { PdfTextModel } from '../../lib/pdf';
import {
  fetchSource,
  findingsOf,
  HostLimiter,
  isPdf,
  pageHtml,
  RECHECK_LIMITS,
  recheckPage,
  recheckPdf,
  unreachableSource,
  type FetchLimits,
  type SourceFindings,
  type SourceRecheck,
} from '../../lib/recheck';
import type { ClaimRecord } from '../../lib/schema';

/** What reading needs from the browser. */
export interface ReaderDeps {
  fetch: typeof fetch;
  siteOf: SiteOf;
  /** A PDF's text model from its bytes. */
  readPdf(bytes: Uint8Array): Promise<PdfTextModel>;
  /** An inert document from HTML text. */
  parseHtml(html: string): Document;
  /** The time now as an RFC 3339 timestamp. */
  now(): string;
  limits?: FetchLimits;
}

/** A signal that aborts when either does. */
function either(a: AbortSignal | null | undefined, b: AbortSignal): AbortSignal {
  return a ? AbortSignal.any([a, b]) : b;
}

/** Reads sources for one run: at most the limits' requests at a time per host across all of them. */
export function sourceReader(deps: ReaderDeps): (url: string, claims: readonly ClaimRecord[], signal: AbortSignal) => Promise<SourceFindings> {
  const limits = deps.limits ?? RECHECK_LIMITS;
  const limiter = new HostLimiter(limits.perHost);
  return async (url, claims, signal) => {
    // A browser hides where a manual redirect goes, so redirects are followed and the final address is judged.
    const omit: typeof fetch = (input, init) => deps.fetch(input, { ...init, credentials: 'omit', redirect: 'follow', signal: either(init?.signal, signal) });
    const fetched = await limiter.run(url, () => fetchSource(url, { fetch: omit, siteOf: deps.siteOf }, limits));
    let result: SourceRecheck;
    if (!fetched.ok) result = unreachableSource(url, claims, fetched.reason);
    else if (isPdf(fetched.contentType, fetched.body)) {
      try {
        result = recheckPdf(url, await deps.readPdf(fetched.body), claims);
      } catch (error) {
        result = unreachableSource(url, claims, `not a readable PDF (${error instanceof Error ? error.message : String(error)})`);
      }
    } else result = recheckPage(url, deps.parseHtml(pageHtml(fetched.body, fetched.contentType)), claims);
    return findingsOf(result, deps.now());
  };
}
