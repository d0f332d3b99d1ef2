/**
 * Site names as pages write them: with taglines ("Aktuálně.cz - Víte, co se
 * právě děje"), and as affixes of titles ("Headline | Site", "GitHub -
 * owner/repo"). Pure: strings in, strings out.
 *
 * - A title's segments are split at ` | `, ` - `, ` – `, ` — `, ` · `,
 *   ` • `, ` » `, ` :: `, `|`, `｜`, and `_` next to a Han character
 *   (`标题_站名`). A colon never splits a title ("Qwen3: Think Deeper").
 * - A site name's tagline is split off at the same separators and at a
 *   colon that follows a word ("Kestrel: your daily dose of …"). The name is
 *   the segment that matches the page's site, else the first.
 * - Two names match when they fold to the same letters and digits (case,
 *   accents, spaces and punctuation ignored); a longer segment that starts
 *   with a site name of 4+ letters matches it too ("Acme Cloud Docs" for
 *   "Acme Cloud").
 */
/** Letters and digits only, lower case, accents dropped. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** True when two texts fold to the same non-empty letters and digits. */
export function sameText(a: string, b: string): boolean {
  const fa = fold(a);
  return fa !== '' && fa === fold(b);
}

const TITLE_SEPARATOR = /\s+(?:[|·•»–—-]|::)\s+|\s*[|｜]\s*|(?<=\p{Script=Han})_|_(?=\p{Script=Han})/gu;
const SITE_SEPARATOR = new RegExp(`${TITLE_SEPARATOR.source}|(?<=[\\p{L}\\p{N}.])[:：]\\s+`, 'gu');

/** One part of a title between separators, with where it sits in the title. */
export interface Segment {
  text: string;
  start: number;
  end: number;
}

function split(text: string, separator: RegExp): Segment[] {
  const out: Segment[] = [];
  let start = 0;
  for (const m of text.matchAll(separator)) {
    out.push({ text: text.slice(start, m.index).trim(), start, end: m.index });
    start = m.index + m[0].length;
  }
  out.push({ text: text.slice(start).trim(), start, end: text.length });
  return out.filter((s) => s.text !== '');
}

/** A title's segments (see the module comment). */
export function titleSegments(title: string): Segment[] {
  return split(title, TITLE_SEPARATOR);
}

/**
 * The first label of the page's site, folded: `zhihu` for `zhihu.com` (the site of `zhuanlan.zhihu.com`). `site` is
 * the host's registrable domain by the Public Suffix List, or the host itself when it has none.
 */
function siteLabel(site: string): string {
  return fold(site.replace(/^www\./, '').split('.')[0] ?? '');
}

/**
 * True when a name is the page's site spelled out ("Bluefin Labs" on `bluefinlabs.example`, "The Harbor Ledger" on
 * `harborledger.example`); `site` as `siteLabel` takes it.
 */
export function matchesSite(name: string, site: string): boolean {
  const label = siteLabel(site);
  if (label.length < 3) return false;
  for (const f of [fold(name), fold(name.replace(/^the\s+/i, ''))]) {
    if (f.length < 3) continue;
    if (f === label) return true;
    if (label.length >= 4 && f.startsWith(label)) return true;
    if (f.length >= 4 && label.startsWith(f) && f.length * 2 >= label.length) return true;
  }
  return false;
}

/** The site name without its tagline ("Polaris Post — Independent …" → "Polaris Post"). */
export function cleanSiteName(raw: string | null | undefined, site: string): string | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return null;
  const segments = split(text, SITE_SEPARATOR);
  if (segments.length <= 1) return text;
  return (segments.find((s) => matchesSite(s.text, site)) ?? segments[0]!).text;
}

/** True when a title segment names one of the site names (see the module comment). */
function namesSite(segment: string, siteNames: readonly string[]): boolean {
  const f = fold(segment);
  if (!f) return false;
  return siteNames.some((name) => {
    const n = fold(name);
    return n !== '' && (f === n || (n.length >= 4 && f.startsWith(n)));
  });
}

/** True for a byline segment ("by Hanna Berg") or one naming an author. */
function isByline(segment: string, authors: readonly string[]): boolean {
  return /^(?:by|von|par|por|door|od)\s/i.test(segment) || authors.some((a) => sameText(a, segment));
}

/**
 * The title without the site name (and a byline) at its start or end:
 * "Headline | by Ann | Site" → "Headline", "GitHub - owner/repo: …" →
 * "owner/repo: …". A title that is nothing but the site name stays whole.
 */
export function stripSiteAffix(title: string, siteNames: readonly string[], authors: readonly string[] = []): string {
  let text = title.replace(/\s+/g, ' ').trim();
  for (;;) {
    const segments = titleSegments(text);
    if (segments.length < 2) return text;
    const last = segments[segments.length - 1]!;
    const first = segments[0]!;
    if (namesSite(last.text, siteNames) || isByline(last.text, authors)) text = text.slice(0, segments[segments.length - 2]!.end).trim();
    else if (namesSite(first.text, siteNames)) text = text.slice(segments[1]!.start).trim();
    else return text;
    if (text === '') return title.replace(/\s+/g, ' ').trim();
  }
}

/** Segments that name a kind of document, never a site ("Technical Report", "Blog", "README.md"). */
const GENERIC =
  /^(?:technical report|tech report|report|paper|preprint|blog|news|docs?|documentation|home|homepage|readme(?:\.md)?|release notes|changelog|wiki|faq|about|overview|introduction|abstract|pdf|html|english|技术报告|博客|新闻|首页)$/i;

/**
 * The site name a title carries as an affix, or null: the last (then the
 * first) segment, when it is no byline or kind of document and either
 * spells the page's site or sits beside one of the page's own headlines
 * ("GLM-5 后训练流程解读 - 知乎" with the headline "GLM-5 后训练流程解读").
 */
export function siteNameInTitle(title: string, site: string, headlines: readonly string[], authors: readonly string[]): string | null {
  const text = title.replace(/\s+/g, ' ').trim();
  const segments = titleSegments(text);
  if (segments.length < 2) return null;
  const last = segments[segments.length - 1]!;
  const first = segments[0]!;
  const options = [
    { affix: last, rest: text.slice(0, segments[segments.length - 2]!.end) },
    { affix: first, rest: text.slice(segments[1]!.start) },
  ];
  for (const { affix, rest } of options) {
    const name = affix.text;
    if (GENERIC.test(name) || isByline(name, authors) || !/\p{L}/u.test(name)) continue;
    if (matchesSite(name, site)) return name;
    const short = name.length <= 40 && name.split(/\s+/).length <= 5;
    if (short && headlines.some((h) => sameText(h, rest))) return name;
  }
  return null;
}
