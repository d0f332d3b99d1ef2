/**
 * How taxonomy names are spelled for matching, shared by the taxonomy's term
 * search (`match.ts`) and the claim finder's automaton (`lib/finder`): which
 * characters are separators, how separator runs collapse, how characters fold,
 * and the variants a name is also written as.
 */

/** Han, kana and Hangul: characters next to which a space in a name may be left out. */
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Separator characters: white space (JavaScript's `\s`), hyphen, U+2010–U+2013. */
export const SEPARATOR_CODES: readonly number[] = [
  9, 10, 11, 12, 13, 32, 45, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2010, 0x2011, 0x2012,
  0x2013, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];
const SEPARATORS = new Set(SEPARATOR_CODES);

/** True for a separator character (see `SEPARATOR_CODES`). */
export function isSeparator(ch: string): boolean {
  return SEPARATORS.has(ch.charCodeAt(0));
}

/** Folds a character: ASCII upper case to lower case, other characters lower-cased when that keeps one code unit. */
export function foldChar(ch: string): string {
  const c = ch.charCodeAt(0);
  if (c >= 65 && c <= 90) return String.fromCharCode(c + 32);
  if (c < 128) return ch;
  const lower = ch.toLowerCase();
  return lower.length === 1 ? lower : ch;
}

/** Collapses separator runs to one space and trims; keeps case. */
export function collapseSeparators(s: string): string {
  let out = '';
  let pending = false;
  for (const ch of s) {
    if (isSeparator(ch)) {
      pending = out.length > 0;
      continue;
    }
    if (pending) out += ' ';
    pending = false;
    out += ch;
  }
  return out;
}

/** A name plus its spelling without spaces next to CJK characters ("异步 RL" → "异步RL"), and "a / b" as "a/b". */
export function nameVariants(name: string): string[] {
  const collapsed = collapseSeparators(name);
  const out = [collapsed];
  const chars = [...collapsed];
  let tight = '';
  chars.forEach((ch, i) => {
    if (ch === ' ' && (CJK.test(chars[i - 1] ?? '') || CJK.test(chars[i + 1] ?? ''))) return;
    tight += ch;
  });
  if (tight !== collapsed) out.push(tight);
  if (collapsed.includes(' / ')) out.push(collapsed.replaceAll(' / ', '/'));
  return out;
}
