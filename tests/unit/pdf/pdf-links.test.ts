import { describe, expect, it } from 'vitest';
import {
  arxivAbsUrl,
  arxivFromText,
  arxivFromUrl,
  arxivPdfUrl,
  isInlinePdfResponse,
  isLikelyPdfUrl,
  isViewerUrl,
  pageFromFragment,
  parseViewerUrl,
  pdfAddressOf,
  pdfPageLink,
  viewerUrl,
} from '../../../lib/pdf';

const VIEWER = 'chrome-extension://abcdefghijklmnop/pdf-viewer.html';

describe('viewer addresses', () => {
  it('round-trips a PDF address, its page and a claim through the viewer URL', () => {
    const url = viewerUrl(VIEWER, { file: 'https://example.org/r.pdf?a=1&b=2', page: 37, claim: 'clm_7Qm2xK9pT4aB' });
    expect(url).toBe(`${VIEWER}?file=https%3A%2F%2Fexample.org%2Fr.pdf%3Fa%3D1%26b%3D2#page=37&claim=clm_7Qm2xK9pT4aB`);
    expect(parseViewerUrl(url)).toEqual({ file: 'https://example.org/r.pdf?a=1&b=2', page: 37, claim: 'clm_7Qm2xK9pT4aB' });
  });

  it("keeps the PDF's own #page=N as the viewer's page", () => {
    expect(parseViewerUrl(viewerUrl(VIEWER, { file: 'https://arxiv.org/pdf/2501.12948#page=5' }))).toEqual({
      file: 'https://arxiv.org/pdf/2501.12948',
      page: 5,
      claim: null,
    });
  });

  it.each([
    ['no file', `${VIEWER}`],
    ['a script address', `${VIEWER}?file=javascript%3Aalert(1)`],
    ['not a URL', 'nonsense'],
  ])('reads no target from %s', (_name, href) => {
    expect(parseViewerUrl(href)).toBeNull();
  });

  it('ignores claim ids that are not ids and pages that are not pages', () => {
    expect(parseViewerUrl(`${VIEWER}?file=https%3A%2F%2Fa.org%2Fx.pdf#page=0&claim=<b>`)).toEqual({ file: 'https://a.org/x.pdf', page: null, claim: null });
    expect(pageFromFragment('#page=12&zoom=100')).toBe(12);
    expect(pageFromFragment('page=abc')).toBeNull();
  });

  it('tells the viewer apart from other extension pages', () => {
    expect(isViewerUrl(`${VIEWER}?file=x`, VIEWER)).toBe(true);
    expect(isViewerUrl(VIEWER.replace('pdf-viewer', 'options'), VIEWER)).toBe(false);
    expect(isViewerUrl(undefined, VIEWER)).toBe(false);
  });

  it('links a PDF claim to its page for any reader', () => {
    expect(pdfPageLink('https://example.org/r.pdf#page=2', 9)).toBe('https://example.org/r.pdf#page=9');
  });
});

describe('telling a PDF apart', () => {
  it.each([
    ['https://example.org/paper.pdf', true],
    ['https://example.org/paper.PDF?download=0', true],
    ['https://arxiv.org/pdf/2501.12948v2', true],
    ['https://openreview.net/pdf?id=abc', true],
    ['file:///reports/report.pdf', true],
    ['https://arxiv.org/abs/2501.12948', false],
    ['https://example.org/paper.html', false],
    ['chrome://settings', false],
  ])('%s looks like a PDF: %s', (url, expected) => {
    expect(isLikelyPdfUrl(url)).toBe(expected);
  });

  it.each([
    ['application/pdf', null, true],
    ['application/pdf; charset=binary', 'inline; filename="r.pdf"', true],
    ['application/x-pdf', null, true],
    ['application/pdf', 'attachment; filename="r.pdf"', false],
    ['text/html', null, false],
    ['application/octet-stream', null, false],
  ])('a %s response (%s) is an inline PDF: %s', (type, disposition, expected) => {
    expect(isInlinePdfResponse(type, disposition, 'https://example.org/download')).toBe(expected);
  });

  it('trusts a generic binary response only at a PDF address', () => {
    expect(isInlinePdfResponse('application/octet-stream', null, 'https://example.org/r.pdf')).toBe(true);
  });
});

describe('arXiv ids', () => {
  it.each([
    ['https://arxiv.org/abs/2501.12948', { id: '2501.12948', version: null }],
    ['https://arxiv.org/pdf/2501.12948v2', { id: '2501.12948', version: 2 }],
    ['https://arxiv.org/pdf/2501.12948v3.pdf', { id: '2501.12948', version: 3 }],
    ['https://export.arxiv.org/abs/1412.6980', { id: '1412.6980', version: null }],
    ['https://arxiv.org/abs/hep-th/9901001v1', { id: 'hep-th/9901001', version: 1 }],
    ['https://arxiv.org/abs/math.GT/0309136', { id: 'math.GT/0309136', version: null }],
    ['https://arxiv.org/list/cs.CL/recent', null],
    ['https://example.org/pdf/2501.12948', null],
  ])('%s → %o', (url, expected) => {
    expect(arxivFromUrl(url)).toEqual(expected);
  });

  it('reads the stamp on a first page and ignores look-alikes', () => {
    expect(arxivFromText('arXiv:2501.12948v1 [cs.CL] 22 Jan 2025')).toEqual({ id: '2501.12948', version: 1 });
    expect(arxivFromText('see arXiv: 2310.06825')).toEqual({ id: '2310.06825', version: null });
    expect(arxivFromText('Table 2501.12948 shows')).toBeNull();
    expect(arxivFromText('arXiv:2513.12948')).toBeNull(); // month 13
  });

  it('turns an abstract page into the PDF to open, and ids into addresses', () => {
    expect(pdfAddressOf('https://arxiv.org/abs/2501.12948v2')).toBe('https://arxiv.org/pdf/2501.12948v2');
    expect(pdfAddressOf('https://example.org/r.pdf')).toBe('https://example.org/r.pdf');
    expect(arxivAbsUrl('2501.12948')).toBe('https://arxiv.org/abs/2501.12948');
    expect(arxivPdfUrl('2501.12948')).toBe('https://arxiv.org/pdf/2501.12948');
  });
});
