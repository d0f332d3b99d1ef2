/**
 * Which models a source is about, and whether a claim's model is one of
 * them (rule 2 of the evidence rules: don't extrapolate across versions).
 * Pure: no DOM, no browser APIs.
 *
 * The rule, in full:
 * - A source's models are the model-like names (`modelTokens`) in its title
 *   and in its URL path (`/` and `_` read as spaces, percent-decoding undone).
 *   When there are none, nothing can be said and no claim is flagged.
 * - Names are compared case-insensitively, ignoring spaces, hyphens and
 *   underscores: "MiniMax M3" = "MiniMax-M3" = "minimax_m3".
 * - A claim's model also matches a source model it extends by a separated
 *   suffix that starts with a letter or is a size: "DeepSeek-R1-Zero" and
 *   "Qwen3-235B-A22B" extend "DeepSeek-R1" and "Qwen3". A suffix that is a
 *   further version number does not: "Qwen3.5" does not extend "Qwen3",
 *   "Kimi K2.6" does not extend "Kimi K2", "Qwen3 2507" does not extend "Qwen3".
 * - A claim's model matches a source model that only adds sizes to it:
 *   "Qwen3.6" matches a model card titled "Qwen3.6-35B-A3B". Any other
 *   addition ("Kimi K2.7 Code" for a claim about "Kimi K2.7") is another model.
 */
import type { Source } from '../schema';
import { modelTokens } from '../source';

const SEPARATOR = /[\s\-_]/u;
const SIZE = /^(?:\d+(?:\.\d+)?[BMT]|A\d+(?:\.\d+)?B|\d+x\d+(?:\.\d+)?B)$/i;

/** A model name folded for comparison: lower case, no spaces, hyphens or underscores. */
export function foldModelName(name: string): string {
  return name.toLowerCase().replace(/[\s\-_]+/gu, '');
}

/** What follows `base` in `name` once their folded forms share it as a prefix, or null when `base` is no prefix at a separator. */
function remainderAfter(name: string, base: string): string | null {
  const folded = foldModelName(base);
  if (!foldModelName(name).startsWith(folded)) return null;
  let seen = 0;
  let i = 0;
  const chars = [...name];
  while (i < chars.length && seen < folded.length) {
    const ch = chars[i]!;
    if (!SEPARATOR.test(ch)) seen += ch.toLowerCase().length;
    i += 1;
  }
  if (i >= chars.length) return '';
  if (!SEPARATOR.test(chars[i]!)) return null;
  return chars
    .slice(i)
    .join('')
    .replace(/^[\s\-_]+/u, '');
}

/** True when `claimModel` names `sourceModel` or a variant of it under the rule in this module's comment. */
export function modelMatches(claimModel: string, sourceModel: string): boolean {
  if (foldModelName(claimModel) === foldModelName(sourceModel)) return true;
  const extra = remainderAfter(claimModel, sourceModel);
  if (extra !== null && extra !== '') {
    const first = extra.split(/[\s\-_]+/u)[0] ?? '';
    if (/^\p{L}/u.test(first) || SIZE.test(first)) return true;
  }
  const added = remainderAfter(sourceModel, claimModel);
  if (added !== null && added !== '') {
    return added.split(/[\s\-_]+/u).every((part) => SIZE.test(part));
  }
  return false;
}

/** The model-like names in a source's title and URL path, deduped case- and separator-insensitively, in order. */
export function sourceModels(source: Pick<Source, 'title' | 'url'>): string[] {
  let path = '';
  try {
    const raw = new URL(source.url).pathname;
    try {
      path = decodeURIComponent(raw);
    } catch {
      path = raw;
    }
  } catch {
    path = '';
  }
  const names = [...modelTokens(source.title), ...modelTokens(path.replace(/[/_]+/g, ' '))];
  const seen = new Set<string>();
  return names.filter((name) => {
    const key = foldModelName(name);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
