/**
 * A page's `<meta>` tags as one lookup table. Pure: reads the `Document`
 * passed in.
 *
 * - Keys come from `name`, `property` and `itemprop`, all of them: RDFa lets
 *   one tag carry several (`property="og:title dc:title"`), so each
 *   attribute is split on white space and every key is recorded.
 * - Keys are lower-cased; Dublin Core's RDFa spelling (`dc:date`,
 *   `dcterms:issued`) is read as the HTML one (`dc.date`, `dcterms.issued`).
 * - The first non-empty `content` of a key wins; white space is collapsed.
 */

/** Meta keys (lower-cased) → their first non-empty content. */
export type Meta = ReadonlyMap<string, string>;

/** White space runs made one space, ends trimmed. */
export const collapse = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();

/** The keys one `<meta>` element declares. */
function metaKeys(el: Element): string[] {
  const keys: string[] = [];
  for (const attr of ['name', 'property', 'itemprop']) {
    for (const raw of (el.getAttribute(attr) ?? '').split(/\s+/)) {
      const key = raw.toLowerCase().replace(/^(dc|dcterms):/, '$1.');
      if (key) keys.push(key);
    }
  }
  return keys;
}

/** Every `<meta>` of the document by key (see the module comment). */
export function readMeta(doc: Document): Meta {
  const meta = new Map<string, string>();
  for (const el of doc.querySelectorAll('meta')) {
    const content = collapse(el.getAttribute('content'));
    if (!content) continue;
    for (const key of metaKeys(el)) if (!meta.has(key)) meta.set(key, content);
  }
  return meta;
}

/** The content of the first key present, in the order given, or null. */
export function firstMeta(meta: Meta, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = meta.get(key);
    if (value) return value;
  }
  return null;
}
