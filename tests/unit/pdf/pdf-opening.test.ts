import { describe, expect, it } from 'vitest';
import { openPdfEarly, type OpeningDeps } from '../../../components/pdf/opening';
import type { OpeningPdf, PDFDocumentProxy } from '../../../components/pdf/pdfjs';

/** A promise with its resolve and reject at hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((a, b) => ((resolve = a), (reject = b)));
  return { promise, resolve, reject };
}

/** Fake worker, download and pdf.js that note what was asked of them, in order. */
function fakes() {
  const calls: string[] = [];
  const bytes = deferred<Uint8Array>();
  const lib = deferred<void>();
  const doc = deferred<PDFDocumentProxy>();
  let progress: (fraction: number) => void = () => {};
  let destroyed = 0;
  const deps: OpeningDeps = {
    startWorker: () => calls.push('worker'),
    download: (url, onProgress) => {
      calls.push(`download ${url}`);
      progress = onProgress;
      return bytes.promise;
    },
    loadPdfjs: async () => {
      calls.push('pdf.js');
      await lib.promise;
      return {
        openPdf(source): OpeningPdf {
          calls.push('data' in source ? `open ${source.data.length} bytes` : `open ${source.url}`);
          return { promise: doc.promise, cancel: () => destroyed++ };
        },
      };
    },
  };
  const fakeDoc = {
    getPage: async (n: number) => {
      calls.push(`page ${n}`);
      return { pageNumber: n };
    },
  } as unknown as PDFDocumentProxy;
  return { calls, deps, bytes, lib, doc, fakeDoc, progress: (f: number) => progress(f), destroyed: () => destroyed };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('opening a PDF before the viewer exists', () => {
  it('starts the worker, the download and pdf.js at once, opens the document once both are there, then asks for page 1', async () => {
    const f = fakes();
    const opening = openPdfEarly('https://arxiv.org/pdf/2505.09388', f.deps);
    expect(f.calls).toEqual(['worker', 'download https://arxiv.org/pdf/2505.09388', 'pdf.js']);
    f.lib.resolve();
    await flush();
    expect(f.calls).not.toContain('open 3 bytes');
    f.bytes.resolve(new Uint8Array([1, 2, 3]));
    await flush();
    expect(f.calls).toContain('open 3 bytes');
    f.doc.resolve(f.fakeDoc);
    expect(await opening.doc).toBe(f.fakeDoc);
    expect(await opening.firstPage).toEqual({ pageNumber: 1 });
    expect(f.calls.at(-1)).toBe('page 1');
  });

  it('lets pdf.js read a local file itself', async () => {
    const f = fakes();
    const opening = openPdfEarly('file:///home/curator/report.pdf', f.deps);
    expect(f.calls).toEqual(['worker', 'pdf.js']);
    f.lib.resolve();
    f.doc.resolve(f.fakeDoc);
    await opening.doc;
    expect(f.calls).toContain('open file:///home/curator/report.pdf');
  });

  it('gives a late listener the latest progress at once, then the rest', () => {
    const f = fakes();
    const opening = openPdfEarly('https://example.org/r.pdf', f.deps);
    f.progress(0.4);
    const heard: number[] = [];
    const stop = opening.onProgress((p) => heard.push(p));
    f.progress(0.9);
    stop();
    f.progress(1);
    expect(heard).toEqual([0.4, 0.9]);
  });

  it('fails the document and its first page when the download fails, leaving nothing unhandled', async () => {
    const f = fakes();
    const opening = openPdfEarly('https://example.org/missing.pdf', f.deps);
    f.lib.resolve();
    f.bytes.reject(new Error('HTTP 404 Not Found'));
    await expect(opening.doc).rejects.toThrow('HTTP 404');
    await expect(opening.firstPage).rejects.toThrow('HTTP 404');
    expect(f.calls.some((c) => c.startsWith('open'))).toBe(false);
  });

  it('does not open a document closed before its bytes arrived, and closes one already opening', async () => {
    const f = fakes();
    const early = openPdfEarly('https://example.org/r.pdf', f.deps);
    early.cancel();
    f.lib.resolve();
    f.bytes.resolve(new Uint8Array(1));
    await expect(early.doc).rejects.toThrow('closed');
    expect(f.calls.some((c) => c.startsWith('open'))).toBe(false);

    const g = fakes();
    const late = openPdfEarly('https://example.org/r.pdf', g.deps);
    g.lib.resolve();
    g.bytes.resolve(new Uint8Array(1));
    await flush();
    late.cancel();
    expect(g.destroyed()).toBe(1);
  });
});
