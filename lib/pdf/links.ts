/**
 * Addresses around the PDF viewer: the viewer's own URL for a PDF (with the
 * page or claim to show), the `#page=N` link every PDF reader understands,
 * and telling a PDF address or response apart. Pure: no browser APIs.
 */

/** The viewer page inside the extension. */
export const VIEWER_PATH = '/pdf-viewer.html';

/** What the viewer should open and show. */
export interface ViewerTarget {
  /** The PDF's address (http(s) or file). */
  file: string;
  /** 1-based page to show first, if any. */
  page: number | null;
  /** Claim to reveal, if any. */
  claim: string | null;
}

/** Splits a URL at its fragment. */
function splitHash(url: string): [string, string] {
  const at = url.indexOf('#');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
}

/** The page a fragment asks for (`page=5`, `page=5&zoom=100`, `#page=5`), or null. */
export function pageFromFragment(fragment: string): number | null {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const raw = params.get('page');
  if (!raw || !/^\d{1,6}$/.test(raw)) return null;
  const page = Number(raw);
  return page >= 1 ? page : null;
}

/** The viewer's URL for a target: `<viewer>?file=<PDF address>#page=N&claim=ID` (the PDF's own fragment becomes the viewer's). */
export function viewerUrl(viewer: string, target: { file: string; page?: number | null; claim?: string | null }): string {
  const [file, fragment] = splitHash(target.file);
  const hash = new URLSearchParams();
  const page = target.page ?? pageFromFragment(fragment);
  if (page) hash.set('page', String(page));
  if (target.claim) hash.set('claim', target.claim);
  const tail = hash.toString();
  return `${viewer}?file=${encodeURIComponent(file)}${tail ? `#${tail}` : ''}`;
}

/** Reads a viewer URL back into its target; null when it names no PDF. */
export function parseViewerUrl(href: string): ViewerTarget | null {
  let u: URL;
  try {
    u = new URL(href);
  } catch {
    return null;
  }
  const file = u.searchParams.get('file');
  if (!file || !/^(https?|file):\/\//i.test(file)) return null;
  const hash = new URLSearchParams(u.hash.replace(/^#/, ''));
  const claim = hash.get('claim');
  return { file, page: pageFromFragment(u.hash), claim: claim && /^[A-Za-z0-9_-]{8,64}$/.test(claim) ? claim : null };
}

/** Whether `href` is this extension's viewer (given the viewer's own URL). */
export function isViewerUrl(href: string | undefined, viewer: string): boolean {
  return !!href && (href === viewer || href.startsWith(`${viewer}?`) || href.startsWith(`${viewer}#`));
}

/** A link that opens a PDF at a page in any reader: the address without fragment, then `#page=N`. */
export function pdfPageLink(url: string, page: number): string {
  return `${splitHash(url)[0]}#page=${page}`;
}

/** Whether an address looks like a PDF by itself (a `.pdf` path, an arXiv pdf link). */
export function isLikelyPdfUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (!/^(https?|file):$/.test(u.protocol)) return false;
  if (/\.pdf$/i.test(u.pathname)) return true;
  const host = u.hostname.toLowerCase();
  if ((host === 'arxiv.org' || host === 'www.arxiv.org' || host === 'export.arxiv.org') && /^\/pdf\//.test(u.pathname)) return true;
  if (host === 'openreview.net' && u.pathname === '/pdf') return true;
  return false;
}

/** Whether response headers describe a PDF shown inline (not a download the server asked to save). */
export function isInlinePdfResponse(contentType: string | null | undefined, disposition: string | null | undefined, url?: string): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (/^\s*attachment/i.test(disposition ?? '')) return false;
  if (type === 'application/pdf' || type === 'application/x-pdf') return true;
  // Some servers send PDFs as generic binary: trust the address then.
  return type === 'application/octet-stream' && !!url && isLikelyPdfUrl(url);
}
