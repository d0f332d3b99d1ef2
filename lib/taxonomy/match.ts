/**
 * Finding, canonicalising, completing and splitting taxonomy terms.
 *
 * Matching folds case and treats runs of white space, hyphens and dashes as
 * one separator, so "rule based\n  rewards", "Rule-based reward" and
 * "rule-based reward" are the same name. Short all-capital acronyms ("PPO",
 * "DPO", "SFT") are matched case-sensitively. Every name must sit on word
 * boundaries, where a "word character" is a Latin/Greek/Cyrillic letter, a
 * digit or "_" — so CJK characters next to a name count as boundaries
 * ("使用GRPO训练" finds GRPO), while "support" does not contain "PPO" and
 * "GDPO" does not contain "DPO". A trailing plural "s" is accepted.
 */
import type { ClaimKind } from '../schema';
import { collapseSeparators as collapse, foldChar, isSeparator, nameVariants as variants } from './names';
import { TERMS, type Term } from './terms';

/** One mention of a taxonomy term in a passage. */
export interface TermMatch {
  /** The term mentioned. */
  term: Term;
  /** Offset of the mention in the passage (UTF-16 code units). */
  index: number;
  /** Length of the mention in the passage. */
  length: number;
  /** The passage's own text of the mention. */
  matched: string;
}

interface Pattern {
  term: Term;
  /** The name as written (separators collapsed), for case-sensitive checks. */
  exact: string;
  caseSensitive: boolean;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  patterns: Pattern[];
}

const WORD_CHAR = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}_]/u;
const ACRONYM = /^[A-Z][A-Z0-9]{1,5}$/;

/** True for characters that make up words (see module comment). */
function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const c = ch.charCodeAt(0);
  if (c < 128) {
    return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  }
  return WORD_CHAR.test(ch);
}

/** The comparison key of a name: case folded, separators collapsed. */
function keyOf(s: string): string {
  let out = '';
  for (const ch of collapse(s)) out += foldChar(ch);
  return out;
}

let trie: TrieNode | null = null;
let byKey: Map<string, Term> | null = null;

function build(): void {
  const root: TrieNode = { next: new Map(), patterns: [] };
  const keys = new Map<string, Term>();
  for (const term of TERMS) {
    for (const name of [term.canonical, ...term.aliases]) {
      for (const v of variants(name)) {
        const key = keyOf(v);
        if (!key) continue;
        if (!keys.has(key)) keys.set(key, term);
        let node = root;
        for (const ch of key) {
          let child = node.next.get(ch);
          if (!child) {
            child = { next: new Map(), patterns: [] };
            node.next.set(ch, child);
          }
          node = child;
        }
        const caseSensitive = ACRONYM.test(v);
        if (!node.patterns.some((p) => p.term === term && p.exact === v)) {
          node.patterns.push({ term, exact: v, caseSensitive });
        }
      }
    }
  }
  trie = root;
  byKey = keys;
}

function getTrie(): TrieNode {
  if (!trie) build();
  return trie as TrieNode;
}

function getKeys(): Map<string, Term> {
  if (!byKey) build();
  return byKey as Map<string, Term>;
}

/** The longest acceptable match starting at `start`, as [term, end] or null. */
function longestAt(text: string, start: number, root: TrieNode): [Term, number] | null {
  let node = root;
  let j = start;
  let lastWasSep = false;
  let best: [Term, number] | null = null;
  const n = text.length;
  while (j < n) {
    const raw = text[j] as string;
    let ch: string;
    if (isSeparator(raw)) {
      if (lastWasSep) {
        j++;
        continue;
      }
      ch = ' ';
      lastWasSep = true;
    } else {
      ch = foldChar(raw);
      lastWasSep = false;
    }
    const child = node.next.get(ch);
    if (!child) break;
    node = child;
    j++;
    if (node.patterns.length > 0 && !lastWasSep) {
      const end = acceptEnd(text, j);
      if (end !== -1) {
        const slice = collapse(text.slice(start, j));
        const pattern = node.patterns.find((p) => !p.caseSensitive || p.exact === slice);
        if (pattern) best = [pattern.term, end];
      }
    }
  }
  return best;
}

/** Where a match ending at `j` really ends (allowing a plural "s"), or -1 when it ends inside a word. */
function acceptEnd(text: string, j: number): number {
  const last = text[j - 1];
  const after = text[j];
  if (!isWordChar(last) || !isWordChar(after)) return j;
  if (after === 's' && !isWordChar(text[j + 1])) return j + 1;
  return -1;
}

/**
 * Finds taxonomy term mentions in a passage, in text order; where mentions
 * overlap the longest wins.
 */
export function findTerms(text: string): TermMatch[] {
  const root = getTrie();
  const candidates: Array<{ term: Term; index: number; end: number }> = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (!root.next.has(foldChar(ch))) continue;
    if (isWordChar(ch) && isWordChar(text[i - 1])) continue;
    const found = longestAt(text, i, root);
    if (found) candidates.push({ term: found[0], index: i, end: found[1] });
  }
  if (candidates.length === 0) return [];
  // Longest first; an occupied map keeps the chosen ones from overlapping.
  const order = candidates.map((_, k) => k);
  order.sort((a, b) => {
    const ca = candidates[a]!;
    const cb = candidates[b]!;
    return cb.end - cb.index - (ca.end - ca.index) || ca.index - cb.index;
  });
  const taken = new Uint8Array(text.length);
  const chosen: TermMatch[] = [];
  for (const k of order) {
    const c = candidates[k]!;
    let free = true;
    for (let p = c.index; p < c.end; p++) {
      if (taken[p]) {
        free = false;
        break;
      }
    }
    if (!free) continue;
    taken.fill(1, c.index, c.end);
    chosen.push({ term: c.term, index: c.index, length: c.end - c.index, matched: text.slice(c.index, c.end) });
  }
  return chosen.sort((a, b) => a.index - b.index);
}

/** The term a whole name (canonical or alias, any case) stands for, if known. */
export function lookupTerm(input: string): Term | undefined {
  const keys = getKeys();
  const key = keyOf(input);
  if (!key) return undefined;
  const direct = keys.get(key) ?? (key.endsWith('s') ? keys.get(key.slice(0, -1)) : undefined);
  if (direct) return direct;
  // "Group Relative Policy Optimization (GRPO)" — either half may name the term.
  const paren = /^(.+?)\s*[(（]([^()（）]+)[)）]$/u.exec(input.trim());
  if (paren) {
    const outer = keys.get(keyOf(paren[1] ?? ''));
    const inner = keys.get(keyOf(paren[2] ?? ''));
    if (outer && (!inner || inner === outer)) return outer;
    if (inner && !outer) return inner;
  }
  return undefined;
}

/** Maps an alias to its canonical spelling; unknown input comes back trimmed. */
export function canonicalValue(input: string): string {
  return lookupTerm(input)?.canonical ?? input.trim();
}

/**
 * Completion for the claim form's value field: terms whose canonical name or
 * an alias starts with or contains `prefix`, optionally of one kind;
 * canonical-prefix matches first, then alias prefixes, word starts, substrings.
 */
export function completeValues(prefix: string, kind?: ClaimKind, limit = 8): Term[] {
  const q = keyOf(prefix);
  const pool = kind ? TERMS.filter((term) => term.kind === kind) : [...TERMS];
  if (!q) return pool.slice(0, Math.max(0, limit));
  const scored: Array<{ term: Term; score: number; order: number }> = [];
  pool.forEach((term, order) => {
    const canon = keyOf(term.canonical);
    const aliases = term.aliases.map(keyOf);
    let score = -1;
    if (canon.startsWith(q)) score = 0;
    else if (aliases.some((a) => a.startsWith(q))) score = 1;
    else if (` ${canon}`.includes(` ${q}`)) score = 2;
    else if (aliases.some((a) => ` ${a}`.includes(` ${q}`))) score = 3;
    else if (canon.includes(q)) score = 4;
    else if (aliases.some((a) => a.includes(q))) score = 5;
    if (score >= 0) scored.push({ term, score, order });
  });
  scored.sort((a, b) => a.score - b.score || a.order - b.order);
  return scored.slice(0, Math.max(0, limit)).map((s) => s.term);
}

/** Separators between values: "+" (not in "++"), commas, semicolons, "、", " and ", " & ". */
const VALUE_SEPARATOR = /(\s*(?<!\+)[+＋](?!\+)\s*|\s*[,，;；、]\s*|\s+(?:and|&)\s+)/iu;

/**
 * Splits a multi-value entry ("GRPO + IcePop", "DPO、GSPO") into canonical
 * values, keeping names that themselves contain a separator
 * ("Megatron + SGLang", "REINFORCE++") whole; dedupes, keeps order.
 */
export function splitValues(input: string): string[] {
  const pieces = input.split(VALUE_SEPARATOR);
  // pieces alternates value, separator, value, …
  const values: string[] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    let taken = false;
    for (let j = pieces.length - 1; j > i; j -= 2) {
      const joined = pieces.slice(i, j + 1).join('');
      const term = lookupTerm(joined);
      if (term) {
        values.push(term.canonical);
        i = j;
        taken = true;
        break;
      }
    }
    if (!taken) {
      const value = canonicalValue(pieces[i] ?? '');
      if (value) values.push(value);
    }
  }
  const seen = new Set<string>();
  return values.filter((v) => {
    const k = v.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
