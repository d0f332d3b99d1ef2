/**
 * The title of a page: its own headline, not a social card. Pure: reads the
 * `Document` passed in.
 *
 * First found wins:
 * 1. `citation_title`, then Dublin Core `DC.title` (papers and repositories of papers).
 * 2. The JSON-LD article's `headline`, then microdata `itemprop="headline"`.
 * 3. The social-card title (`og:title`, `twitter:title`, `parsely-title`, `sailthru.title`) — unless the document's
 *    own heading says otherwise: a social card that differs from a heading (`h1`, else `h2`) that is also the
 *    `<title>` or one of its segments is a teaser, and the heading is the title.
 * 4. That heading.
 * 5. `<title>`.
 * 6. The first `h1`, else the URL.
 * Steps 3 and 5 drop a site name (and a byline) at the start or end of the title ("Headline | Site",
 * "GitHub - owner/repo: …"), where the page names its site (`og:site_name`, `application-name`, JSON-LD); a heading
 * that is the site's name (a logo) is never the headline.
 */
import { type JsonLd, ldHeadline } from './jsonld';
import { type Meta, collapse, firstMeta } from './meta';
import { microdataHeadline } from './microdata';
import { matchesSite, sameText, stripSiteAffix, titleSegments } from './sitename';

/** What the title rules need to know about the page besides its markup. */
export interface TitleContext {
  meta: Meta;
  ld: JsonLd;
  /** The page's site (registrable domain, else host), to tell a logo heading that spells it. */
  site: string;
  /** Names the page gives its site. */
  siteNames: readonly string[];
  /** Names of the page's authors (for bylines in titles). */
  authors: readonly string[];
}

const SOCIAL = ['og:title', 'twitter:title', 'parsely-title', 'sailthru.title'];

/** A heading of the page that is also its `<title>` or one of the title's segments, and not the site's name. */
function headingInTitle(doc: Document, rawTitle: string, ctx: TitleContext): string | null {
  if (!rawTitle) return null;
  const segments = [rawTitle, ...titleSegments(rawTitle).map((s) => s.text)];
  const isSite = (text: string) => ctx.siteNames.some((n) => sameText(n, text)) || matchesSite(text, ctx.site);
  for (const tag of ['h1', 'h2']) {
    for (const el of [...doc.querySelectorAll(tag)].slice(0, 12)) {
      const text = collapse(el.textContent);
      if (text && !isSite(text) && segments.some((s) => sameText(s, text))) return text;
    }
  }
  return null;
}

/** The page's title (see the module comment for the rules). */
export function pageTitle(doc: Document, url: string, ctx: TitleContext): string {
  const citation = collapse(firstMeta(ctx.meta, ['citation_title', 'dc.title', 'dcterms.title']));
  if (citation) return citation;
  const headline = ldHeadline(ctx.ld) ?? microdataHeadline(doc);
  if (headline) return headline;
  const rawTitle = collapse(doc.title);
  const heading = headingInTitle(doc, rawTitle, ctx);
  const social = collapse(firstMeta(ctx.meta, SOCIAL));
  if (social) return heading && !sameText(heading, social) ? heading : stripSiteAffix(social, ctx.siteNames, ctx.authors);
  if (heading) return heading;
  if (rawTitle) return stripSiteAffix(rawTitle, ctx.siteNames, ctx.authors);
  return collapse(doc.querySelector('h1')?.textContent) || url;
}
