/**
 * The publication date a page states. Pure: reads the `Document` passed in.
 *
 * Sources, first date found wins:
 * 1. Citation meta (`citation_publication_date`, `citation_date`, …).
 * 2. Open Graph and its kin (`article:published_time`, `og:published_time`, `og:release_date`, …).
 * 3. JSON-LD `datePublished` (articles, then pages, then other nodes), then an article's `dateCreated`.
 * 4. Microdata `itemprop="datePublished"`.
 * 5. Analytics meta: `parsely-pub-date`, the `pub_date` of `parsely-page`, `sailthru.date`.
 * 6. Dublin Core (`DC.date.issued`, `dcterms.issued`, `dcterms.created`, `DC.date`, …).
 * 7. Other meta (`pubdate`, `publish_date`, `date`, …).
 * 8. A `<time datetime>` (or GitHub's `<relative-time>`) in the page, outside navigation, sidebars, footers
 *    and comments: one marked as published (its class, or a label such as "Published" / "Posted" / "发布" before it)
 *    first, then the first unmarked one.
 * 9. A date written in a byline-like element (class or id naming a date, time, byline or post meta).
 * 10. A date in the URL path (`/2024/12/18/`).
 *
 * A modified date is never taken: no `article:modified_time`, `dateModified`,
 * `last-modified` or `DC.date.modified` is read, and a time or text marked as
 * updated, modified, edited or revised (in its class or its label, in
 * several languages) is passed over. With `structuredOnly` (repositories and
 * model cards, whose visible times date their latest commit) steps 8–10 are
 * skipped.
 */
import { normalizeDate } from './dates';
import { type JsonLd, ldDatePublished, readJsonLd } from './jsonld';
import { type Meta, readMeta } from './meta';
import { microdataDatesPublished } from './microdata';

const CITATION = ['citation_publication_date', 'citation_date', 'citation_online_date', 'prism.publicationdate'];
const OPEN_GRAPH = [
  'article:published_time',
  'og:published_time',
  'article:published',
  'og:article:published_time',
  'published_time',
  'article.published',
  'og:release_date',
  'release_date',
];
const ANALYTICS = ['parsely-pub-date', 'sailthru.date'];
const DUBLIN_CORE = ['dc.date.issued', 'dcterms.issued', 'dc.date.created', 'dcterms.created', 'dc.date.published', 'dc.date', 'dcterms.date'];
const OTHER_META = ['pubdate', 'publishdate', 'publish_date', 'publish-date', 'publication_date', 'date', 'originalpublicationdate', 'article_date_original'];

/** Attribute words that mark a date as a modification. */
const MODIFIED_ATTR = /modif|updat|edited|revis|lastmod/i;
/** Attribute words that mark a date as the publication. */
const PUBLISHED_ATTR = /publish|posted|pubdate|created|entry-date|datepub/i;
/** Label words (before a time, or in a byline) that mark a date as a modification. */
const MODIFIED_LABEL =
  /\b(?:updated?|modified|edited|revised|changed)\b|更新|编辑|编辑于|修改|修订|aktualizov|upraven|aktualisiert|geändert|bearbeitet|mis à jour|modifié|actualizad|modificad|обновлен|изменен/i;
/** Label words that mark a date as the publication. */
const PUBLISHED_LABEL = /\b(?:published|posted|released|issued|created)\b|发布|发表|publikov|veröffentlicht|publié|publicado|опубликован/i;

const OUTSIDE_CONTENT = 'nav, aside, footer, [class*="comment"], [id*="comment"], [class*="related"], [class*="sidebar"]';

/** Options of `detectPublished`. */
export interface PublishedOptions {
  /** The page's URL, for a date in its path. */
  url?: string;
  /** Read only metadata (meta, JSON-LD, microdata), not times or text shown on the page. */
  structuredOnly?: boolean;
  /** Already read meta and JSON-LD, to read them once per page. */
  meta?: Meta;
  ld?: JsonLd;
}

function attrText(el: Element): string {
  return ['class', 'id', 'itemprop', 'name'].map((a) => el.getAttribute(a) ?? '').join(' ');
}

/** The words just before an element (its earlier siblings, or its parent's when it has none), up to the previous time. */
function labelBefore(el: Element): string {
  let node: Element | null = el;
  for (let level = 0; node && level < 3; level++) {
    let text = '';
    for (let sib = node.previousSibling; sib && text.length < 60; sib = sib.previousSibling) {
      if (sib.nodeType === 1 && ((sib as Element).matches('time, relative-time') || (sib as Element).querySelector('time, relative-time'))) break;
      text = (sib.textContent ?? '') + text;
    }
    text = text.replace(/\s+/g, ' ').trim();
    if (text) return text.slice(-60);
    node = node.parentElement;
  }
  return '';
}

/** True when an element's own attributes or its ancestors' (up to the article) mark it as a modification date. */
function markedModified(el: Element, label: string): boolean {
  if (MODIFIED_LABEL.test(label)) return true;
  for (let node: Element | null = el, level = 0; node && level < 3; node = node.parentElement, level++) {
    if (node.matches('article, main, body')) break;
    if (MODIFIED_ATTR.test(attrText(node)) && !PUBLISHED_ATTR.test(attrText(node))) return true;
  }
  return false;
}

function fromTimes(doc: Document): string | null {
  let unmarked: string | null = null;
  for (const el of doc.querySelectorAll('time, relative-time')) {
    if (el.closest(OUTSIDE_CONTENT)) continue;
    const date = normalizeDate(el.getAttribute('datetime') ?? (el.tagName.toLowerCase() === 'time' ? el.textContent : null));
    if (!date) continue;
    const label = labelBefore(el);
    if (markedModified(el, label)) continue;
    if (el.hasAttribute('pubdate') || PUBLISHED_ATTR.test(attrText(el)) || PUBLISHED_LABEL.test(label)) return date;
    unmarked ??= date;
  }
  return unmarked;
}

const BYLINE_SELECTOR = ['date', 'Date', 'time', 'Time', 'publish', 'posted', 'byline', 'dateline', 'meta', 'info']
  .flatMap((w) => [`[class*="${w}"]`, `[id*="${w}"]`])
  .join(', ');

function fromBylines(doc: Document): string | null {
  let seen = 0;
  for (const el of doc.body?.querySelectorAll(BYLINE_SELECTOR) ?? []) {
    if (++seen > 300) break;
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!text || text.length > 120 || el.closest(OUTSIDE_CONTENT)) continue;
    if (MODIFIED_LABEL.test(text) || markedModified(el, '')) continue;
    const date = normalizeDate(text);
    if (date) return date;
  }
  return null;
}

function fromUrl(url: string | undefined): string | null {
  if (!url) return null;
  let path = '';
  try {
    path = new URL(url).pathname;
  } catch {
    return null;
  }
  const m = /\/((?:19|20)\d{2})\/(\d{1,2})\/(\d{1,2})(?:\/|$)/.exec(path) ?? /\/((?:19|20)\d{2})\/(\d{2})(\d{2})(?:\/|$)/.exec(path);
  return m ? normalizeDate(`${m[1]}-${m[2]}-${m[3]}`) : null;
}

function parselyPage(meta: Meta): string | null {
  const raw = meta.get('parsely-page');
  if (!raw) return null;
  try {
    const value = (JSON.parse(raw) as { pub_date?: unknown }).pub_date;
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** The publication date a page states, as `YYYY-MM-DD`, or null (see the module comment for the order and the rules). */
export function detectPublished(doc: Document, options: PublishedOptions = {}): string | null {
  const meta = options.meta ?? readMeta(doc);
  const ld = options.ld ?? readJsonLd(doc);
  const fromMeta = (keys: readonly string[]) => keys.map((k) => meta.get(k));
  const structured: Array<() => Array<string | null | undefined>> = [
    () => fromMeta(CITATION),
    () => fromMeta(OPEN_GRAPH),
    () => ldDatePublished(ld),
    () => microdataDatesPublished(doc),
    () => [...fromMeta(ANALYTICS.slice(0, 1)), parselyPage(meta), ...fromMeta(ANALYTICS.slice(1))],
    () => fromMeta(DUBLIN_CORE),
    () => fromMeta(OTHER_META),
  ];
  for (const step of structured) {
    for (const value of step()) {
      const date = normalizeDate(value);
      if (date) return date;
    }
  }
  if (options.structuredOnly) return null;
  return fromTimes(doc) ?? fromBylines(doc) ?? fromUrl(options.url);
}
