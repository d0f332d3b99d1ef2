/** The PDF's outline (bookmarks): read as the sidebar's entries, and an entry's destination as a page and a place on it. */
import type { PDFDocumentProxy, PDFPageProxy } from './pdfjs';
import type { OutlineEntry } from './viewer-state';

/** The outline pdf.js gives, as the sidebar's entries (empty when the document has none). */
export function outlineEntries(raw: unknown[] | null): OutlineEntry[] {
  if (!raw?.length) return [];
  type Raw = { title: string; dest: unknown; items: Raw[] };
  const convert = (items: Raw[]): OutlineEntry[] => items.map((i) => ({ title: i.title, dest: i.dest, children: convert(i.items ?? []) }));
  return convert(raw as unknown as Raw[]);
}

/** Where a named or explicit PDF destination is: its page and how far down it (0 to 1); null for a broken entry. */
export async function destinationOf(
  doc: PDFDocumentProxy,
  dest: unknown,
  page: (n: number) => Promise<PDFPageProxy>,
): Promise<{ page: number; fraction: number } | null> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : (dest as unknown[] | null);
    if (!Array.isArray(explicit) || !explicit.length) return null;
    const ref = explicit[0];
    const index = typeof ref === 'number' ? ref : await doc.getPageIndex(ref as { num: number; gen: number });
    const pageNumber = index + 1;
    let fraction = 0;
    const kind = (explicit[1] as { name?: string } | undefined)?.name;
    const top = kind === 'XYZ' ? explicit[3] : kind === 'FitH' || kind === 'FitBH' ? explicit[2] : null;
    if (typeof top === 'number') {
      const target = await page(pageNumber);
      const [, y] = target.getViewport({ scale: 1 }).convertToViewportPoint(0, top);
      const height = target.getViewport({ scale: 1 }).height;
      fraction = Math.max(0, Math.min(1, (y ?? 0) / height));
    }
    return { page: pageNumber, fraction };
  } catch {
    return null;
  }
}
