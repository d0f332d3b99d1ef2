/**
 * Who a page says published it: the names it gives its site, its authors,
 * and the publisher those make. Pure: reads the `Document` passed in.
 *
 * The publisher a page names, first found wins:
 * 1. `citation_publisher`.
 * 2. `og:site_name`, its tagline dropped.
 * 3. The JSON-LD `publisher` of the article or page (a string, an object, an `@id` reference or an array), then
 *    of the web site; a publisher that is a `Person` is passed over.
 * 4. Microdata `itemprop="publisher"` (its `name`).
 * 5. Dublin Core `DC.publisher` / `dcterms.publisher`.
 * 6. `application-name` / `apple-mobile-web-app-title`, tagline dropped.
 * 7. The JSON-LD `WebSite` name.
 * 8. The site name in the `<title>` (see `siteNameInTitle`).
 * The author is never the publisher: a name equal to one of the page's authors (meta `author`, `article:author`,
 * `parsely-author`, `sailthru.author`, `DC.creator`, `citation_author`, JSON-LD and microdata authors, `rel=author`
 * links) is passed over, unless the JSON-LD declares that name an organisation (a company writing its own blog).
 */
import { type JsonLd, ldAuthors, ldOrganizationNames, ldPublishers, ldSiteName } from './jsonld';
import { type Meta, collapse, firstMeta } from './meta';
import { microdataAuthors, microdataPublishers } from './microdata';
import { cleanSiteName, fold, siteNameInTitle } from './sitename';

const AUTHOR_META = ['author', 'article:author', 'parsely-author', 'sailthru.author', 'dc.creator', 'dcterms.creator', 'citation_author', 'byl'];

/** The page's authors by name (a meta value listing several is split at commas, "and" and "&"). */
export function pageAuthors(doc: Document, meta: Meta, ld: JsonLd): string[] {
  const names: string[] = [];
  const add = (name: string | null | undefined) => {
    const text = collapse(name).replace(/^by\s+/i, '');
    if (!text || /^https?:\/\//i.test(text)) return;
    names.push(text);
    const parts = text.split(/\s*(?:,|&|\band\b|、)\s*/).filter(Boolean);
    if (parts.length > 1) names.push(...parts);
  };
  for (const key of AUTHOR_META) add(meta.get(key));
  for (const party of ldAuthors(ld)) if (!party.organization) add(party.name);
  for (const name of microdataAuthors(doc)) add(name);
  for (const el of [...doc.querySelectorAll('[rel~="author"]')].slice(0, 10)) add(el.textContent);
  return [...new Set(names)];
}

/** What the publisher rules read besides the markup. */
export interface SiteContext {
  meta: Meta;
  ld: JsonLd;
  /** The page's site: its host's registrable domain by the Public Suffix List (the host when it has none). */
  site: string;
  /** The page's authors (`pageAuthors`). */
  authors: readonly string[];
}

/** The names a page gives its own site (for dropping them from titles): og:site_name, application-name, JSON-LD site and publisher names. */
export function siteNames(doc: Document, ctx: SiteContext): string[] {
  const raw = [
    ctx.meta.get('og:site_name'),
    cleanSiteName(ctx.meta.get('og:site_name'), ctx.site),
    ctx.meta.get('application-name'),
    ctx.meta.get('apple-mobile-web-app-title'),
    ldSiteName(ctx.ld),
    ...ldPublishers(ctx.ld)
      .filter((p) => !p.person)
      .map((p) => p.name),
    ...microdataPublishers(doc),
    firstMeta(ctx.meta, ['dc.publisher', 'dcterms.publisher', 'citation_publisher']),
  ];
  return [...new Set(raw.map((n) => collapse(n)).filter((n) => n !== ''))];
}

/**
 * The publisher a page names for itself (see the module comment for the
 * order), never one of its authors; null when it names none. `headlines`
 * are the page's title and headings, to tell a site name in `<title>`.
 */
export function namedPublisher(doc: Document, ctx: SiteContext, headlines: readonly string[]): string | null {
  const organizations = ldOrganizationNames(ctx.ld);
  const people = new Set(ctx.authors.filter((a) => !organizations.has(a.toLowerCase())).map(fold));
  const candidates: Array<() => Array<string | null | undefined>> = [
    () => [ctx.meta.get('citation_publisher')],
    () => [cleanSiteName(ctx.meta.get('og:site_name'), ctx.site)],
    () =>
      ldPublishers(ctx.ld)
        .filter((p) => !p.person)
        .map((p) => p.name),
    () => microdataPublishers(doc),
    () => [firstMeta(ctx.meta, ['dc.publisher', 'dcterms.publisher'])],
    () => [cleanSiteName(firstMeta(ctx.meta, ['application-name', 'apple-mobile-web-app-title']), ctx.site)],
    () => [cleanSiteName(ldSiteName(ctx.ld), ctx.site)],
    () => [siteNameInTitle(doc.title, ctx.site, headlines, ctx.authors)],
  ];
  for (const step of candidates) {
    for (const value of step()) {
      const name = collapse(value);
      if (name && !people.has(fold(name))) return name;
    }
  }
  return null;
}
