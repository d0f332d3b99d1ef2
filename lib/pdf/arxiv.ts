/**
 * arXiv identifiers: read from arXiv URLs (abs, pdf, html) and from the
 * `arXiv:2501.12948v2 [cs.CL] 22 Jan 2025` stamp arXiv prints on a paper's
 * first page. New-style ids are `YYMM.NNNN(N)`, old-style `archive/YYMMNNN`.
 */

/** An arXiv identifier without its version, and the version when one is stated. */
export interface ArxivId {
  id: string;
  version: number | null;
}

const NEW_ID = '(\\d{2}(?:0[1-9]|1[0-2])\\.\\d{4,5})';
const OLD_ID = '([a-z][a-z-]*(?:\\.[A-Z]{2})?\\/\\d{2}(?:0[1-9]|1[0-2])\\d{3})';
const VERSION = '(?:v(\\d{1,3}))?';
const ARXIV_HOSTS = new Set(['arxiv.org', 'www.arxiv.org', 'export.arxiv.org']);
const PATH_RE = new RegExp(`^/(?:abs|pdf|html|format)/(?:${NEW_ID}|${OLD_ID})${VERSION}(?:\\.pdf)?/?$`);
const STAMP_RE = new RegExp(`arXiv\\s*:\\s*(?:${NEW_ID}|${OLD_ID})${VERSION}(?![\\d])`, 'i');

function fromMatch(m: RegExpExecArray | null): ArxivId | null {
  if (!m) return null;
  const id = m[1] ?? m[2];
  if (!id) return null;
  return { id, version: m[3] ? Number(m[3]) : null };
}

/** The arXiv id of an arxiv.org abs / pdf / html URL, or null. */
export function arxivFromUrl(url: string): ArxivId | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (!ARXIV_HOSTS.has(u.hostname.toLowerCase())) return null;
  return fromMatch(PATH_RE.exec(u.pathname));
}

/** The arXiv id stamped in a text (`arXiv:2501.12948v2`), or null. */
export function arxivFromText(text: string): ArxivId | null {
  return fromMatch(STAMP_RE.exec(text));
}

/** The abstract page of an arXiv id: the address that stands for every version of the report. */
export function arxivAbsUrl(id: string): string {
  return `https://arxiv.org/abs/${id}`;
}

/** The PDF of an arXiv id (the newest version unless one is given). */
export function arxivPdfUrl(id: string, version?: number | null): string {
  return `https://arxiv.org/pdf/${id}${version ? `v${version}` : ''}`;
}

/** The address to fetch a report's PDF from: an arXiv abstract page becomes its PDF, anything else stays. */
export function pdfAddressOf(url: string): string {
  const id = arxivFromUrl(url);
  return id && /\/abs\//.test(url) ? arxivPdfUrl(id.id, id.version) : url;
}
