/**
 * Source detection: what sort of document a page is, who published it and
 * when, from the page's own markup and URL. Pure: reads the `Document` passed
 * in, never the live page or browser APIs.
 */
import type { SourceKind } from '../schema';
import { readJsonLd } from './jsonld';
import { type Meta, collapse, readMeta } from './meta';
import { guessModels } from './models';
import { detectPublished } from './published';
import { publisherForHost, publisherForOwner, publisherForSiteName, publisherForTitle } from './publishers';
import { namedPublisher, pageAuthors, siteNames } from './site';
import { cleanSiteName } from './sitename';
import { pageTitle } from './titles';
import { normalizeUrl, parseHttpUrl, type SiteOf } from './url';

/** What `detectSource` finds out about a page: a prefill for the claim's `source`, plus its models. */
export interface DetectedSource {
  /** Normalised URL (canonical link when same-site). */
  url: string;
  /** Page title, white space collapsed. */
  title: string;
  /** Document kind. */
  kind: SourceKind;
  /** Publishing organisation, when it can be told. */
  publisher: string | null;
  /** Publication date `YYYY-MM-DD`, when the page states one. */
  published: string | null;
  /** Date read, `YYYY-MM-DD` (passed in). */
  accessed: string;
  /** Models the page is about, most prominent first. */
  models: string[];
}

function canonicalHref(doc: Document, base: string): string | null {
  for (const link of doc.querySelectorAll('link[rel][href]')) {
    const rel = (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    if (!rel.includes('canonical')) continue;
    const href = link.getAttribute('href') ?? '';
    const resolved = parseHttpUrl(href, parseHttpUrl(base) ?? undefined);
    return resolved ? resolved.href : null;
  }
  return null;
}

interface Location {
  site: string;
  segs: string[];
  path: string;
}

function locate(url: string): Location {
  const u = parseHttpUrl(url);
  if (!u) return { site: '', segs: [], path: '' };
  const segs = u.pathname
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
  return { site: u.hostname.replace(/^www\./, ''), segs, path: u.pathname };
}

/** GitHub / GitLab / Gitee top-level paths that are not accounts. */
const RESERVED_OWNERS = new Set(
  (
    'about apps blog collections contact enterprise explore features marketplace new notifications orgs ' +
    'organizations pricing search settings site sponsors topics trending login join signup users dashboard ' +
    'help explore security customer-stories readme -'
  ).split(' '),
);
/** Hugging Face top-level paths that are not model repositories. */
const HF_RESERVED = new Set(
  (
    'blog datasets spaces docs papers models collections organizations settings login join pricing tasks learn ' +
    'posts chat new enterprise api search notifications'
  ).split(' '),
);
const CODE_HOSTS = new Set(['github.com', 'gitlab.com', 'gitee.com']);

/** Owner and the path after `owner/repo` on a code host, or null. */
function codeRepo(loc: Location): { owner: string; rest: string[] } | null {
  if (!CODE_HOSTS.has(loc.site) || loc.segs.length < 2) return null;
  const owner = loc.segs[0] ?? '';
  if (RESERVED_OWNERS.has(owner.toLowerCase())) return null;
  return { owner, rest: loc.segs.slice(2) };
}

const ownerName = (host: string, owner: string): string => publisherForOwner(host, owner) ?? owner;

const REPO_TITLE = /^(?:GitHub - )?([A-Za-z0-9][A-Za-z0-9_.-]*)\/([A-Za-z0-9_.-]+)(?::\s*(.*))?$/;
const TECH_REPORT = /techn?(?:ical)?[\s_-]*report|技术报告/i;
const RELEASE_TITLE = /\brelease[\s_-]*notes?\b|\bchange[\s_-]*log\b|\bwhat['’]?s new\b|更新日志|发布说明|^releases?\b/i;
const VERSION_RELEASE = /\brelease\s+v?\d|\bv?\d+(?:\.\d+)+\s+release\b/i;

/**
 * Decides the source kind and publisher. Rules, first match wins:
 * 1. technical_report — `citation_pdf_url` / `citation_title` / `citation_arxiv_id`
 *    meta; arxiv.org/abs|html|pdf, openreview.net, aclanthology.org,
 *    huggingface.co/papers; a path ending in `.pdf`.
 * 2. release — `/releases` (or `/tags`) of a GitHub / GitLab / Gitee repository.
 * 3. model_card — huggingface.co/<org>/<model> (not blog, datasets, spaces,
 *    docs, papers, …), modelscope /models/<org>/<model>.
 * 4. repository — github.com / gitlab.com / gitee.com /<owner>/<repo>;
 *    huggingface.co/datasets|spaces/<org>/<name>; any page titled
 *    `owner/repo` or `owner/repo: README…` (how the fixtures look).
 * 5. technical_report — the title or path says "technical report" / "tech report" / 技术报告.
 * 6. release — the title says release notes / changelog / what's new / "Releases…".
 * 7. official_blog — a known lab domain (KNOWN_PUBLISHERS) or huggingface.co/blog;
 *    an `og:site_name` naming a lab; a `/blog/` page that is an article
 *    (`<article>` or og:type article) whose title opens with a lab's model
 *    family (Qwen, GLM, DeepSeek, Kimi, MiniMax) on a site that does not
 *    call itself something else.
 * 8. release — the title announces a version release ("v1.2 release").
 * 9. third_party — everything else (Medium, Substack, Zhihu, news sites…).
 * Publishers: code-host and model-hub owners through the lab table (else the
 * owner's own name); lab domains through the table; otherwise the publisher
 * the page names for itself (`namedPublisher` in `site.ts`: citation,
 * site name without its tagline, JSON-LD, microdata, Dublin Core, the site
 * name in the title — never the author).
 */
function classify(
  doc: Document,
  meta: Meta,
  page: { url: string; site: string },
  title: string,
  fromMeta: () => string | null,
): { kind: SourceKind; publisher: string | null } {
  const url = page.url;
  const loc = locate(url);
  const { site, segs } = loc;
  const repo = codeRepo(loc);
  const labByHost = site ? publisherForHost(site) : undefined;

  // 1. Technical reports by structure.
  const hasCitation = meta.has('citation_pdf_url') || meta.has('citation_title') || meta.has('citation_arxiv_id');
  const paperHost =
    (site === 'arxiv.org' && ['abs', 'html', 'pdf'].includes(segs[0] ?? '')) ||
    site === 'openreview.net' ||
    site === 'aclanthology.org' ||
    (site === 'huggingface.co' && segs[0] === 'papers' && segs.length >= 2);
  if (hasCitation || paperHost || /\.pdf$/i.test(loc.path)) {
    const owner = repo ? ownerName(site, repo.owner) : undefined;
    return { kind: 'technical_report', publisher: meta.get('citation_publisher') ?? owner ?? labByHost ?? null };
  }

  // 2. Releases of a repository.
  if (repo && (repo.rest[0] === 'releases' || repo.rest[0] === 'tags' || (repo.rest[0] === '-' && repo.rest[1] === 'releases'))) {
    return { kind: 'release', publisher: ownerName(site, repo.owner) };
  }

  // 3. Model cards.
  if (site === 'huggingface.co' && segs.length >= 2 && !HF_RESERVED.has(segs[0] ?? '')) {
    return { kind: 'model_card', publisher: ownerName(site, segs[0] ?? '') };
  }
  if ((site === 'modelscope.cn' || site === 'modelscope.ai') && segs[0] === 'models' && segs.length >= 3) {
    return { kind: 'model_card', publisher: ownerName('modelscope.cn', segs[1] ?? '') };
  }

  // 4. Repositories.
  if (repo) return { kind: 'repository', publisher: ownerName(site, repo.owner) };
  if (site === 'huggingface.co' && (segs[0] === 'datasets' || segs[0] === 'spaces') && segs.length >= 3) {
    return { kind: 'repository', publisher: ownerName(site, segs[1] ?? '') };
  }
  const repoTitle = REPO_TITLE.exec(title);
  if (repoTitle) {
    const after = repoTitle[3];
    const [owner = '', name = ''] = [repoTitle[1], repoTitle[2]];
    const pathMatches = segs[0]?.toLowerCase() === owner.toLowerCase() && segs[1]?.toLowerCase() === name.toLowerCase();
    const readme = /^README\b/i.test(after ?? '') || /^README\b/i.test(collapse(doc.querySelector('.file-header')?.textContent));
    if (pathMatches ? after === undefined || readme : readme && after !== undefined) {
      return { kind: 'repository', publisher: ownerName('github.com', owner) };
    }
  }

  // 5. Technical reports by name.
  if (TECH_REPORT.test(title) || TECH_REPORT.test(segs.join('/'))) {
    return { kind: 'technical_report', publisher: meta.get('citation_publisher') ?? labByHost ?? fromMeta() };
  }

  // 6. Release notes and changelogs.
  if (RELEASE_TITLE.test(title)) return { kind: 'release', publisher: labByHost ?? fromMeta() };

  // 7. Official blogs.
  if (site === 'huggingface.co' && segs[0] === 'blog') {
    const org = segs.length >= 3 ? segs[1] : undefined;
    return { kind: 'official_blog', publisher: org ? ownerName(site, org) : 'Hugging Face' };
  }
  if (labByHost) return { kind: 'official_blog', publisher: labByHost };
  const siteName = meta.get('og:site_name') ?? meta.get('application-name');
  const labBySiteName = publisherForSiteName(siteName) ?? publisherForSiteName(cleanSiteName(siteName, page.site));
  if (labBySiteName) return { kind: 'official_blog', publisher: labBySiteName };
  const isArticle = doc.querySelector('article') !== null || meta.get('og:type')?.toLowerCase() === 'article';
  const labByTitle = publisherForTitle(title);
  if (labByTitle && isArticle && segs.includes('blog') && !siteName) {
    return { kind: 'official_blog', publisher: labByTitle };
  }

  // 8. Version releases on other sites.
  if (VERSION_RELEASE.test(title)) return { kind: 'release', publisher: fromMeta() };

  // 9. Everything else.
  return { kind: 'third_party', publisher: fromMeta() };
}

/**
 * How the page's address and site are known: decided here, with the Public Suffix List given as `siteOf` (its
 * same-site canonical link honoured), or as the background decided them (`decided`: the address it answered for and
 * that address's site; `detectSource`'s `url` is then not read), for the capture script, which does not carry the list.
 */
export type PageSite = { siteOf: SiteOf } | { decided: { url: string; site: string | null } };

/**
 * Describes the page a curator is reading: normalised URL (same-site
 * `rel=canonical` preferred, see `PageSite`), title (the page's own headline: rules in
 * `titles.ts`), kind and publisher (rules listed on `classify` in this file: structural
 * technical-report signals → repository releases → model cards →
 * repositories → "technical report" in title/path → release notes → lab blogs
 * → version releases → third party), publication date (rules in
 * `published.ts`; repositories and model cards only from metadata),
 * `accessed` = `today`, and the models the page is about.
 */
export function detectSource(doc: Document, url: string, today: string, how: PageSite): DetectedSource {
  const meta = readMeta(doc);
  const ld = readJsonLd(doc);
  const normalized = 'siteOf' in how ? normalizeUrl(url, canonicalHref(doc, url), how.siteOf) : normalizeUrl(how.decided.url);
  const host = parseHttpUrl(normalized)?.hostname.toLowerCase() ?? '';
  const site = ('siteOf' in how ? how.siteOf(host) : how.decided.site) ?? host;
  const authors = pageAuthors(doc, meta, ld);
  const context = { meta, ld, site, authors };
  const title = pageTitle(doc, normalized, { meta, ld, site, authors, siteNames: siteNames(doc, context) });
  const headlines = [title, ...[...doc.querySelectorAll('h1, h2')].slice(0, 6).map((h) => collapse(h.textContent))];
  const { kind, publisher } = classify(doc, meta, { url: normalized, site }, title, () => namedPublisher(doc, context, headlines));
  const structuredOnly = kind === 'repository' || kind === 'model_card';
  return {
    url: normalized,
    title,
    kind,
    publisher: publisher ? collapse(publisher) : null,
    published: detectPublished(doc, { url: normalized, structuredOnly, meta, ld }),
    accessed: today,
    models: guessModels(doc, normalized),
  };
}
