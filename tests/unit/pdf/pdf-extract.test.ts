import { describe, expect, it } from 'vitest';
import { TextSource, type TextDocumentLike } from '../../../lib/pdf';

/** A fake pdf.js document: page n says "page n", page 2 fails once. */
function fakeDoc(calls: number[]): TextDocumentLike {
  let failed = false;
  return {
    numPages: 3,
    async getPage(n) {
      return {
        async getTextContent() {
          calls.push(n);
          if (n === 2 && !failed) {
            failed = true;
            throw new Error('worker busy');
          }
          return {
            items: [
              { type: 'beginMarkedContent', id: 'mc0' },
              { str: `page ${n}`, hasEOL: true, transform: [10, 0, 0, 10, 0, 0], width: 30, height: 10, fontName: 'f1', dir: 'ltr' },
              { type: 'endMarkedContent' },
            ],
            styles: { f1: { ascent: 0.8, descent: -0.2, vertical: false, fontFamily: 'serif' } },
          };
        },
      };
    },
  };
}

describe('reading page texts', () => {
  it('reads each page once, leaves marked-content entries out and keeps the styles', async () => {
    const calls: number[] = [];
    const source = new TextSource(fakeDoc(calls));
    const [a, b] = await Promise.all([source.page(1), source.page(1)]);
    expect(a).toBe(b);
    expect(a.runs).toEqual([{ str: 'page 1', hasEOL: true, transform: [10, 0, 0, 10, 0, 0], width: 30, height: 10, fontName: 'f1' }]);
    expect(a.styles.f1?.fontFamily).toBe('serif');
    expect(calls).toEqual([1]);
  });

  it('retries a page that failed, and reads all pages in order', async () => {
    const calls: number[] = [];
    const source = new TextSource(fakeDoc(calls));
    await expect(source.page(2)).rejects.toThrow('worker busy');
    const seen: number[] = [];
    const all = await source.all((n) => seen.push(n));
    expect(all.map((p) => p.runs[0]!.str)).toEqual(['page 1', 'page 2', 'page 3']);
    expect(seen).toEqual([1, 2, 3]);
    expect(calls).toEqual([2, 1, 2, 3]);
  });
});

describe('pages that cannot be read', () => {
  it('counts a page that fails twice as a page without text instead of failing the document', async () => {
    const doc: TextDocumentLike = {
      numPages: 2,
      async getPage(n) {
        return {
          async getTextContent() {
            if (n === 2) throw new Error('broken font program');
            return { items: [{ str: 'fine', hasEOL: false, transform: [1, 0, 0, 1, 0, 0], width: 1, height: 1, fontName: 'f' }], styles: {} };
          },
        };
      },
    };
    const source = new TextSource(doc);
    const all = await source.all();
    expect(all.map((p) => p.runs.length)).toEqual([1, 0]);
    expect(source.unreadable).toEqual([2]);
  });
});
