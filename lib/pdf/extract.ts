/**
 * Reading a PDF's text once: each page's text runs (pdf.js `getTextContent`,
 * marked-content entries left out) and its size, fetched at most once per
 * page and shared by the text layers and the whole-document model. Works on
 * structural types so tests can pass a fake document.
 */
import type { RunStyle } from './geometry';
import type { TextRun } from './text-model';

/** A text run with its placement, as the text layer draws it. */
export interface PlacedRun extends TextRun {
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

/** One page's text: runs in content order and font styles by name. */
export interface PageText {
  runs: PlacedRun[];
  styles: Record<string, RunStyle>;
}

/** What extraction needs of a pdf.js page. */
export interface TextPageLike {
  getTextContent(): Promise<{ items: unknown[]; styles: Record<string, unknown> }>;
}

/** What extraction needs of a pdf.js document. */
export interface TextDocumentLike {
  numPages: number;
  getPage(pageNumber: number): Promise<TextPageLike>;
}

function isRun(item: unknown): item is PlacedRun {
  return (
    typeof item === 'object' &&
    item !== null &&
    typeof (item as { str?: unknown }).str === 'string' &&
    Array.isArray((item as { transform?: unknown }).transform)
  );
}

/** Page texts of one document, each read once, on demand or all in order. */
export class TextSource {
  private readonly cache = new Map<number, Promise<PageText>>();

  constructor(private readonly doc: TextDocumentLike) {}

  /** The text of a page (1-based), read now unless it already was. */
  page(pageNumber: number): Promise<PageText> {
    let found = this.cache.get(pageNumber);
    if (!found) {
      found = this.doc
        .getPage(pageNumber)
        .then((p) => p.getTextContent())
        .then((content) => ({
          runs: content.items
            .filter(isRun)
            .map((i) => ({ str: i.str, hasEOL: !!i.hasEOL, transform: i.transform, width: i.width, height: i.height, fontName: i.fontName })),
          styles: content.styles as Record<string, RunStyle>,
        }));
      // A failed page is retried by the next caller instead of staying failed.
      found.catch(() => this.cache.delete(pageNumber));
      this.cache.set(pageNumber, found);
    }
    return found;
  }

  /** Pages whose text could not be read (twice): they count as pages without text. */
  readonly unreadable: number[] = [];

  /**
   * Every page's text in page order, one page at a time (so pages asked for
   * meanwhile are served between them). A page that fails twice counts as a
   * page without text (listed in `unreadable`) rather than failing the document.
   */
  async all(onPage?: (pageNumber: number, text: PageText) => void, signal?: AbortSignal): Promise<PageText[]> {
    const out: PageText[] = [];
    for (let n = 1; n <= this.doc.numPages; n++) {
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      const text = await this.page(n)
        .catch(() => this.page(n))
        .catch(() => {
          this.unreadable.push(n);
          return { runs: [], styles: {} } as PageText;
        });
      out.push(text);
      onPage?.(n, text);
    }
    return out;
  }
}
