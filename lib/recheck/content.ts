/** What a fetched source is: a PDF or a page, and in which character set a page's bytes are. Pure. */

/** The character set a response names (its `Content-Type`) or its first bytes declare (`<meta charset>`); UTF-8 else. */
export function charsetOf(contentType: string | null, body: Uint8Array): string {
  const named = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  const head = new TextDecoder('latin1').decode(body.subarray(0, 1024));
  const declared = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  for (const label of [named, declared]) {
    if (!label) continue;
    try {
      new TextDecoder(label);
      return label;
    } catch {
      // a label TextDecoder does not know: try the next
    }
  }
  return 'utf-8';
}

/** Whether a response is a PDF: its type says so, or its bytes start as one. */
export function isPdf(contentType: string | null, body: Uint8Array): boolean {
  if (/^application\/(?:x-)?pdf\b/i.test(contentType ?? '')) return true;
  return body.length >= 5 && new TextDecoder('latin1').decode(body.subarray(0, 5)) === '%PDF-';
}

/** A page's bytes as HTML text (in its character set), a fragment wrapped as a whole document. */
export function pageHtml(body: Uint8Array, contentType: string | null): string {
  const html = new TextDecoder(charsetOf(contentType, body)).decode(body);
  return /<html[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`;
}
