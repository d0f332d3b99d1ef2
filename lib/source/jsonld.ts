/**
 * A page's JSON-LD (`<script type="application/ld+json">`), read the way
 * real pages write it. Pure: reads the `Document` passed in.
 *
 * - Wrappers are dropped before parsing: `<![CDATA[ … ]]>` (also as
 *   `//<![CDATA[` and `/*<![CDATA[*\/`) and `<!-- … -->`.
 * - A block that is not strict JSON gets one lenient retry: trailing commas
 *   removed and raw line breaks or tabs inside strings read as spaces. A
 *   block that still fails is skipped.
 * - Every object in every block is a node, in document order: top-level
 *   arrays, `@graph` arrays and nested objects alike; an `{"@id": …}`
 *   reference resolves to the node of that `@id`.
 * - Types are compared without their vocabulary (`https://schema.org/Article`
 *   is `Article`); `@type` may be a string or an array.
 */
import { collapse } from './meta';

/** One JSON-LD object. */
export type LdNode = Readonly<Record<string, unknown>>;

/** Every node of a page's JSON-LD, and the nodes that have an `@id`. */
export interface JsonLd {
  nodes: LdNode[];
  byId: ReadonlyMap<string, LdNode>;
}

const MAX_DEPTH = 10;

/** Drops CDATA and HTML-comment wrappers (with the JavaScript comments that often hide them). */
function unwrap(text: string): string {
  return text
    .replace(/(?:\/\/|\/\*)?\s*<!\[CDATA\[\s*(?:\*\/)?/g, '')
    .replace(/(?:\/\/|\/\*)?\s*\]\]>\s*(?:\*\/)?/g, '')
    .replace(/<!--|-->/g, '')
    .trim();
}

/** Raw control characters inside strings as spaces, and commas before `}` or `]` dropped, outside strings only. */
function relax(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === '\\') {
        out += ch + (text[i + 1] ?? '');
        i += 1;
        continue;
      }
      if (ch === '"') inString = false;
      out += ch < ' ' ? ' ' : ch;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === ',' && /^\s*[}\]]/.test(text.slice(i + 1, i + 64))) continue;
    out += ch;
  }
  return out;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      return JSON.parse(relax(text));
    } catch {
      return undefined;
    }
  }
}

function collect(value: unknown, nodes: LdNode[], byId: Map<string, LdNode>, depth: number): void {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, nodes, byId, depth + 1);
    return;
  }
  const node = value as LdNode;
  const keys = Object.keys(node);
  const id = typeof node['@id'] === 'string' ? node['@id'] : null;
  // A bare `{"@id": …}` is a reference, not a node.
  if (!(id !== null && keys.length === 1)) {
    nodes.push(node);
    if (id !== null && !byId.has(id)) byId.set(id, node);
  }
  for (const key of keys) collect(node[key], nodes, byId, depth + 1);
}

/** Every JSON-LD node of the document (see the module comment). */
export function readJsonLd(doc: Document): JsonLd {
  const nodes: LdNode[] = [];
  const byId = new Map<string, LdNode>();
  for (const script of doc.querySelectorAll('script[type]')) {
    const type = (script.getAttribute('type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/ld+json') continue;
    const parsed = parse(unwrap(script.textContent ?? ''));
    if (parsed !== undefined) collect(parsed, nodes, byId, 0);
  }
  return { nodes, byId };
}

/** A node's types without their vocabulary prefix. */
export function ldTypes(node: LdNode): string[] {
  const raw = node['@type'];
  const list = Array.isArray(raw) ? raw : [raw];
  return list.filter((t): t is string => typeof t === 'string').map((t) => t.replace(/^.*[/#]/, ''));
}

const ARTICLE_TYPES = new Set(['BlogPosting', 'LiveBlogPosting', 'SocialMediaPosting', 'DiscussionForumPosting', 'Report', 'PressRelease', 'Posting']);
const ORGANIZATION_TYPES = new Set([
  'Corporation',
  'NGO',
  'Consortium',
  'CollegeOrUniversity',
  'Project',
  'ResearchProject',
  'LocalBusiness',
  'OnlineBusiness',
  'Brand',
]);

/** True for articles, blog and social posts, reports. */
export const isArticle = (node: LdNode): boolean => ldTypes(node).some((t) => t.endsWith('Article') || ARTICLE_TYPES.has(t));
/** True for web pages of any kind (`WebPage`, `ItemPage`, `AboutPage`, …). */
export const isPage = (node: LdNode): boolean => ldTypes(node).some((t) => t.endsWith('Page'));
/** True for organisations of any kind (`Organization`, `NewsMediaOrganization`, `Corporation`, …). */
export const isOrganization = (node: LdNode): boolean => ldTypes(node).some((t) => t.endsWith('Organization') || ORGANIZATION_TYPES.has(t));
/** True for people. */
export const isPerson = (node: LdNode): boolean => ldTypes(node).includes('Person');

/** The node an `{"@id": …}` reference stands for (the value itself otherwise). */
export function resolve(ld: JsonLd, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const id = (value as LdNode)['@id'];
    if (typeof id === 'string' && Object.keys(value).length === 1) return ld.byId.get(id) ?? value;
  }
  return value;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** JSON-LD text with HTML entities (which some sites leave in it) decoded and white space collapsed. */
export function ldText(value: unknown): string | null {
  const raw =
    typeof value === 'string'
      ? value
      : value !== null && typeof value === 'object' && typeof (value as LdNode)['@value'] === 'string'
        ? (value as LdNode)['@value']
        : null;
  if (typeof raw !== 'string') return null;
  const text = collapse(
    raw.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    }),
  );
  return text || null;
}

/** A named thing: who or what a `publisher` or `author` value names, and whether it is a person or an organisation. */
export interface LdParty {
  name: string;
  person: boolean;
  organization: boolean;
}

/** The parties a value names: a string, a node, a reference or an array of them. URLs are not names. */
export function ldParties(ld: JsonLd, value: unknown, depth = 0): LdParty[] {
  if (depth > 3) return [];
  if (Array.isArray(value)) return value.flatMap((v) => ldParties(ld, v, depth + 1));
  const target = resolve(ld, value);
  if (typeof target === 'string') {
    const name = ldText(target);
    return name && !/^https?:\/\//i.test(name) ? [{ name, person: false, organization: false }] : [];
  }
  if (target === null || typeof target !== 'object') return [];
  const node = target as LdNode;
  const name = ldText(node.name) ?? ldText(node.legalName) ?? ldText(node.alternateName);
  return name ? [{ name, person: isPerson(node), organization: isOrganization(node) }] : [];
}

/** Nodes that describe the document itself: articles first, then web pages. */
export function documentNodes(ld: JsonLd): LdNode[] {
  return [...ld.nodes.filter(isArticle), ...ld.nodes.filter((n) => !isArticle(n) && isPage(n))];
}

/** The document's headline: an article's `headline` (or `name`), else null. */
export function ldHeadline(ld: JsonLd): string | null {
  for (const node of ld.nodes.filter(isArticle)) {
    const text = ldText(node.headline) ?? ldText(node.name);
    if (text) return text;
  }
  return null;
}

const NOT_THE_DOCUMENT = new Set(['Comment', 'Answer', 'Question', 'Review', 'Rating', 'Offer', 'Event', 'Person']);

/**
 * The publication date the JSON-LD states, as written: an article's
 * `datePublished`, then a web page's, then any other node's (not a comment,
 * review, offer or event), then an article's `dateCreated`. Never
 * `dateModified`.
 */
export function ldDatePublished(ld: JsonLd): string[] {
  const out: string[] = [];
  const add = (value: unknown) => {
    const text = ldText(value);
    if (text) out.push(text);
  };
  const docs = documentNodes(ld);
  for (const node of docs) add(node.datePublished);
  for (const node of ld.nodes) if (!docs.includes(node) && !ldTypes(node).some((t) => NOT_THE_DOCUMENT.has(t))) add(node.datePublished);
  for (const node of ld.nodes.filter(isArticle)) add(node.dateCreated);
  return out;
}

/** Who the JSON-LD says published the document: the articles' and pages' `publisher`, then the web site's. */
export function ldPublishers(ld: JsonLd): LdParty[] {
  const sites = ld.nodes.filter((n) => ldTypes(n).includes('WebSite'));
  return [...documentNodes(ld), ...sites].flatMap((node) => ldParties(ld, node.publisher));
}

/** The web site's own name (`WebSite.name`), or null. */
export function ldSiteName(ld: JsonLd): string | null {
  for (const node of ld.nodes) if (ldTypes(node).includes('WebSite')) return ldText(node.name);
  return null;
}

/** The document's authors and creators. */
export function ldAuthors(ld: JsonLd): LdParty[] {
  return documentNodes(ld).flatMap((node) => [...ldParties(ld, node.author), ...ldParties(ld, node.creator)]);
}

/** Names the JSON-LD declares as organisations (lower-cased). */
export function ldOrganizationNames(ld: JsonLd): Set<string> {
  const names = new Set<string>();
  for (const node of ld.nodes) {
    if (!isOrganization(node)) continue;
    const name = ldText(node.name);
    if (name) names.add(name.toLowerCase());
  }
  return names;
}
