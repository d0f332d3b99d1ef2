/**
 * The claim finder's first-phase rules, one function each: what a sentence
 * names (read from the matcher's mentions: positive, negated, "not used",
 * describing something else, named as examples) and which cue words it
 * carries ({@link readFacts}), then the rules that score those facts. Each
 * rule returns its points and, when asked, says why. No regular expression
 * runs over the sentence here (that is the second phase, `refine`).
 *
 * Negation: a term right after a contrast ("unlike", "compared with",
 * "outperforms", "不同于", …; or before "is not", "相比") names nothing. A
 * term within the clause of a plain negation ("do not apply the outcome or
 * process reward model", "without relying on … process reward models",
 * "without SFT", "没有使用") or right after an alternative ("instead of",
 * "rather than", "distinct from") is **not used**: when the sentence names
 * nothing positively (a bare "RL" aside), it is offered as a negative
 * finding — kind `undisclosed`, value "not used: …", with the term's stage —
 * and never as the positive value. A plain negation reaches over at most
 * eight words of its clause; a comma, a "but"/"while" or a later verb of use
 * ends it ("not only" and "with and without" are no negation).
 */
import type { ClaimKind, Stage } from '../schema';
import type { Term } from '../taxonomy';
import { CUE, type MentionList } from './matcher';

/** A sentence as the finder groups it: its span and the range of the page's mentions inside it. */
export interface SentenceGroup {
  /** Start offset of the sentence. */
  start: number;
  /** End offset of the sentence. */
  end: number;
  /** The sentence had no boundary within the cap: a run-on list, table or navigation. */
  capped: boolean;
  /** First index in the mention list inside the sentence. */
  from: number;
  /** One past the last index in the mention list inside the sentence. */
  to: number;
}

/** Weight of a term by kind: what the survey's table needs most weighs most. */
export const KIND_WEIGHT: Readonly<Record<ClaimKind, number>> = {
  algorithm: 3,
  reward: 3,
  stage: 2.5,
  framework: 2.5,
  system: 2,
  intention: 1.5,
  undisclosed: 1,
};
/** Weight of a bare "RL" / "reinforcement learning" / "强化学习" when no term is named. */
export const GENERIC_RL_WEIGHT = 1;
/** Prefix of a negative finding's value: "not used: process reward". */
export const NOT_USED_PREFIX = 'not used: ';

/** Readings of a bare RL mention from the nearest qualifier (taxonomy canonical values). */
const QUALIFIERS: ReadonlyArray<{ flag: number; value: string; stage: Stage }> = [
  { flag: CUE.Q_VLM, value: 'VLM / Omni RL', stage: 'vlm_omni_rl' },
  { flag: CUE.Q_AGENTIC, value: 'Agentic RL', stage: 'agentic_rl' },
  { flag: CUE.Q_PREFERENCE, value: 'Preference RL', stage: 'general_rl' },
  { flag: CUE.Q_GENERAL, value: 'General RL', stage: 'general_rl' },
  { flag: CUE.Q_REASONING, value: 'Reasoning RL', stage: 'reasoning_rl' },
];
const ANY_QUALIFIER = CUE.Q_VLM | CUE.Q_AGENTIC | CUE.Q_PREFERENCE | CUE.Q_GENERAL | CUE.Q_REASONING;

/** After a participle: a preposition within three words makes it a verb of use ("trained entirely through"). Sticky. */
const PARTICIPLE_EN = /(?:\s+[\w-]+){0,3}?\s+(?:with|via|using|through|by)\b/iy;
const PARTICIPLE_TONGGUO = /[^，。；,;]{0,20}(?:训练|优化|学习|对齐)/y;
const PARTICIPLE_JINXING = /[^，。；,;]{0,12}训练/y;
/** Right after a framework's name: "… is an LLM post-training framework", "… is the RL framework behind GLM-5". */
const DEFINES_AFTER = /\s*(?:is|are|was)\s+(?:an?|the|our)\s+(?:[\w-]+\s+){0,4}(?:framework|library|system|engine|infrastructure|toolkit|stack|backend)s?\b/iy;
/** "not only … but also" is no negation. Sticky, right after "not". */
const NOT_ONLY = /\s+only\b/iy;
/** "with and without X", "with or without X": a comparison, not a negation. Tested on the text before "without". */
const WITH_AND = /\bwith\s+(?:and|or)\s+$/i;

/** Words that end a negation's clause ("but", "while"), looked for in the few characters a negation reaches over. */
const CLAUSE_BREAK = /\b(?:but|while|whereas|yet|although|though)\b|但|而是/i;
/** Relative pronouns: what follows is said of something else ("baselines that use GRPO"). */
const RELATIVE = /\b(?:that|which|who|whose)\b/i;

/** How far a plain negation reaches: words and characters of its clause. */
const NEGATION_WORDS = 8;
const NEGATION_CHARS = 90;
/** How far a contrast or an alternative reaches. */
const CONTRAST_WORDS = 3;
const CONTRAST_CHARS = 48;
/** A verb of use this close after a negation is the negated verb ("do not apply", "without relying on"). */
const NEGATED_VERB_CHARS = 16;

/** How a mention is negated: not at all, by a contrast (it names nothing), or as "not used" (a negative finding). */
export enum Negation {
  None = 0,
  Contrast = 1,
  NotUsed = 2,
}

/** What a sentence names and which cues it carries: the facts the rules score. */
export interface SentenceFacts {
  /** Terms named positively, in order of first mention. */
  positive: Term[];
  /** Terms only named negated or contrasted. */
  negated: Term[];
  /** Of those, the terms stated as not used. */
  notUsed: Term[];
  /** Terms that only describe something else ("an agentic RL framework"). */
  descriptors: Term[];
  /** Positive term mentions (counted per mention). */
  positiveMentions: number;
  /** Of those, mentions named as examples ("such as GRPO"). */
  examples: number;
  /** Offset of the first positive bare RL mention, or -1. */
  genericAt: number;
  /** A bare RL mention was negated. */
  genericNegated: boolean;
  /** A framework or system the sentence defines ("slime is an LLM post-training framework"). */
  definesTerm: Term | null;
  /** Index of the verb-of-use cue (or participle with its preposition), or -1; `useEnd` ends its phrase. */
  use: number;
  useEnd: number;
  /** Index of a weaker cue ("introduce", "propose", "based on"), or -1. */
  weak: number;
  /** Index of pipeline wording, or -1. */
  structure: number;
  firstPerson: boolean;
  /** Index of the verb by which the report adopts, proposes or uses something itself ("we adopt", "we then apply"), or -1. */
  adoption: number;
  capability: boolean;
  /** A use for evaluation or comparison ("to evaluate", "for a fair comparison"). */
  evaluation: boolean;
  future: boolean;
  event: boolean;
  etAl: boolean;
  /** Meanings of benchmark or comparison cues (each counted once). */
  benchWords: number[];
}

/** Scratch facts reused by every call (the finder is not re-entrant). */
const scratch: SentenceFacts = {
  positive: [],
  negated: [],
  notUsed: [],
  descriptors: [],
  positiveMentions: 0,
  examples: 0,
  genericAt: -1,
  genericNegated: false,
  definesTerm: null,
  use: -1,
  useEnd: -1,
  weak: -1,
  structure: -1,
  firstPerson: false,
  adoption: -1,
  capability: false,
  evaluation: false,
  future: false,
  event: false,
  etAl: false,
  benchWords: [],
};

function cueOf(list: MentionList, j: number): number {
  return (list.meanings[list.meaning[j] as number] as { cue: number }).cue;
}

/** Clause punctuation that a negation or an example list does not reach across. */
function isClauseStop(c: number, allowComma: boolean): boolean {
  if (c === 44 || c === 0xff0c || c === 0x3001) return !allowComma; // , ， 、
  return c === 59 || c === 58 || c === 46 || c === 33 || c === 63 || c === 0x3002 || c === 0xff1b || c === 0xff1a || c === 0xff01 || c === 0xff1f;
}

/** Whether text[from, to) is short enough: at most `maxWords` words, `maxChars` characters and no clause punctuation. */
export function gapOk(text: string, from: number, to: number, maxWords: number, maxChars: number, allowComma = false): boolean {
  if (to < from || to - from > maxChars) return false;
  let words = 0;
  let inWord = false;
  for (let p = from; p < to; p++) {
    const c = text.charCodeAt(p);
    if (isClauseStop(c, allowComma)) return false;
    const space = c === 32 || c === 160 || c === 9 || c === 10;
    if (!space && !inWord && c !== 40 && c !== 41 && c !== 0xff08 && c !== 0xff09) words++;
    inWord = !space;
  }
  return words <= maxWords;
}

/** Whether a cue of `flags` starts inside [from, to) of the sentence (from index `after`). */
function cueBetween(list: MentionList, g: SentenceGroup, from: number, to: number, flags: number): boolean {
  for (let k = g.from; k < g.to; k++) {
    const ks = list.start[k] as number;
    if (ks >= from && ks < to && (cueOf(list, k) & flags) !== 0) return true;
  }
  return false;
}

/**
 * How mention `i` is negated by a cue of its sentence: a plain negation over the rest of its clause (not past a
 * comma, a "but"/"while" or a later verb of use), an alternative ("instead of") or a contrast ("unlike",
 * "outperforms") right before it, or "is not" right after it.
 */
export function negationOf(text: string, list: MentionList, g: SentenceGroup, i: number): Negation {
  const ms = list.start[i] as number;
  const me = list.end[i] as number;
  let found = Negation.None;
  for (let j = g.from; j < g.to; j++) {
    const cue = cueOf(list, j);
    const cs = list.start[j] as number;
    const ce = list.end[j] as number;
    if (cue & CUE.NEGATE_NEXT && ce <= ms) {
      if (cue & CUE.CLAUSE_NEGATION) {
        if (stickyAt(NOT_ONLY, text, ce) !== -1 || WITH_AND.test(text.slice(Math.max(0, cs - 12), cs))) continue;
        if (!gapOk(text, ce, ms, NEGATION_WORDS, NEGATION_CHARS)) continue;
        if (CLAUSE_BREAK.test(text.slice(ce, ms))) continue;
        if (cueBetween(list, g, ce + NEGATED_VERB_CHARS, ms, CUE.USE | CUE.PARTICIPLE | CUE.WEAK)) continue;
        return Negation.NotUsed;
      }
      if (gapOk(text, ce, ms, CONTRAST_WORDS, CONTRAST_CHARS)) {
        if (cue & CUE.NOT_USED) return Negation.NotUsed;
        found = Negation.Contrast;
      }
    }
    if (cue & CUE.NEGATE_PREVIOUS && cs >= me && gapOk(text, me, cs, 2, 16)) found = Negation.Contrast;
  }
  return found;
}

/**
 * Whether a cue with `flag` sits right after mention `i` (within `maxWords`
 * words) or, with `before`, right before it — with no cue of `blockers` in
 * between ("models like DeepSeek-R1 use GRPO": the verb ends the example).
 */
function cueNear(
  text: string,
  list: MentionList,
  g: SentenceGroup,
  i: number,
  flag: number,
  before: boolean,
  maxWords: number,
  maxChars: number,
  allowComma: boolean,
  blockers = 0,
): boolean {
  const ms = list.start[i] as number;
  const me = list.end[i] as number;
  for (let j = g.from; j < g.to; j++) {
    if (!(cueOf(list, j) & flag)) continue;
    const from = before ? (list.end[j] as number) : me;
    const to = before ? ms : (list.start[j] as number);
    if (to < from || !gapOk(text, from, to, maxWords, maxChars, allowComma)) continue;
    if (blockers !== 0 && cueBetween(list, g, from, to, blockers)) continue;
    return true;
  }
  return false;
}

/** The end of a match of the sticky `re` at `at` in `text`, or -1. */
export function stickyAt(re: RegExp, text: string, at: number): number {
  re.lastIndex = at;
  return re.test(text) ? re.lastIndex : -1;
}

/** Whether text[from, to) is white space around one opening bracket ("supervised fine-tuning (SFT)"). */
function onlyOpeningBracket(text: string, from: number, to: number): boolean {
  let brackets = 0;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c === 40 || c === 0xff08) brackets++;
    else if (c !== 32 && c !== 160) return false;
  }
  return brackets === 1;
}

/** A term's weight, halved for the page's subject. */
export function weightOf(t: Term, subjects: ReadonlySet<Term> | null): number {
  return KIND_WEIGHT[t.kind] * (subjects !== null && subjects.has(t) ? 0.5 : 1);
}

/** The qualified reading of a bare RL mention at `at`: the qualifier cue nearest to it in the sentence. */
export function qualify(list: MentionList, g: SentenceGroup, at: number): (typeof QUALIFIERS)[number] | null {
  let best: (typeof QUALIFIERS)[number] | null = null;
  let distance = Infinity;
  for (let j = g.from; j < g.to; j++) {
    const cue = cueOf(list, j);
    if (!(cue & ANY_QUALIFIER)) continue;
    const d = Math.abs((list.start[j] as number) - at);
    if (d >= distance) continue;
    for (const q of QUALIFIERS) {
      if (!(cue & q.flag)) continue;
      best = q;
      distance = d;
      break;
    }
  }
  return best;
}

/**
 * Empties a scratch array and keeps its storage: `length = 0` would drop it (in V8), and every sentence's first push
 * would allocate a new one.
 */
function empty(list: unknown[]): void {
  while (list.length > 0) list.pop();
}

/**
 * Reads what a sentence names (positive, negated, not used, describing, examples) and the cues it carries. The
 * returned object is reused by the next call.
 */
export function readFacts(text: string, list: MentionList, g: SentenceGroup): SentenceFacts {
  const f = scratch;
  empty(f.positive);
  empty(f.negated);
  empty(f.notUsed);
  empty(f.descriptors);
  empty(f.benchWords);
  f.positiveMentions = 0;
  f.examples = 0;
  f.genericAt = -1;
  f.genericNegated = false;
  f.definesTerm = null;
  let flags = 0;
  for (let j = g.from; j < g.to; j++) flags |= cueOf(list, j);
  readMentions(text, list, g, f, flags);
  readCues(text, list, g, f);
  return f;
}

/** The mention half of {@link readFacts}; `flags` are the cue flags of the sentence's mentions together (the cues it lacks need no look). */
function readMentions(text: string, list: MentionList, g: SentenceGroup, f: SentenceFacts, flags: number): void {
  let prevEnd = -1;
  let prevNeg: Negation = Negation.None;
  for (let i = g.from; i < g.to; i++) {
    const meaning = list.meanings[list.meaning[i] as number] as { role: string; term: Term | null };
    if (meaning.role !== 'term' && meaning.role !== 'rl') continue;
    const ms = list.start[i] as number;
    const me = list.end[i] as number;
    // "supervised fine-tuning (SFT)": the bracketed short form shares the long form's fate.
    const bracketed = prevEnd >= 0 && ms > prevEnd && ms - prevEnd <= 3 && onlyOpeningBracket(text, prevEnd, ms);
    const neg: Negation = bracketed ? prevNeg : (flags & (CUE.NEGATE_NEXT | CUE.NEGATE_PREVIOUS)) === 0 ? Negation.None : negationOf(text, list, g, i);
    prevEnd = me;
    prevNeg = neg;
    if (meaning.role === 'rl') {
      if (neg !== Negation.None) f.genericNegated = true;
      else if (f.genericAt === -1) f.genericAt = ms;
      continue;
    }
    const term = meaning.term;
    if (!term) continue;
    // The first mention of a term decides: a later one refers back to it ("we do not apply the reward model, because
    // the reward model may suffer from reward hacking"; "we use GRPO, not GRPO with a critic").
    if (f.negated.includes(term)) continue;
    const again = f.positive.includes(term);
    if (again && neg !== Negation.None) continue;
    if (neg !== Negation.None) {
      if (!f.negated.includes(term)) f.negated.push(term);
      if (neg === Negation.NotUsed && !f.notUsed.includes(term)) f.notUsed.push(term);
      continue;
    }
    if ((flags & CUE.DESCRIPTOR) !== 0 && cueNear(text, list, g, i, CUE.DESCRIPTOR, false, 1, 20, false)) {
      // "an agentic RL framework", "RLHF Framework": the term describes something else.
      if (!f.descriptors.includes(term)) f.descriptors.push(term);
      continue;
    }
    if ((term.kind === 'framework' || term.kind === 'system') && stickyAt(DEFINES_AFTER, text, me) !== -1) f.definesTerm = term;
    f.positiveMentions++;
    if ((flags & CUE.EXAMPLE) !== 0 && cueNear(text, list, g, i, CUE.EXAMPLE, true, 6, 80, true, CUE.USE | CUE.PARTICIPLE | CUE.WEAK)) f.examples++;
    if (!again) f.positive.push(term);
  }
}

/** The cue half of {@link readFacts}. */
function readCues(text: string, list: MentionList, g: SentenceGroup, f: SentenceFacts): void {
  f.use = -1;
  f.useEnd = -1;
  f.weak = -1;
  f.structure = -1;
  f.firstPerson = false;
  f.adoption = -1;
  f.capability = false;
  f.evaluation = false;
  f.future = false;
  f.event = false;
  f.etAl = false;
  let personEnd = -1;
  for (let j = g.from; j < g.to; j++) {
    const meaningId = list.meaning[j] as number;
    const c = cueOf(list, j);
    if (c === 0) continue;
    const cs = list.start[j] as number;
    const ce = list.end[j] as number;
    let verb = false;
    if (c & CUE.USE && f.use === -1) {
      // "Use" with a capital is a title noun ("Use Latest SGLang", "Multimodal Tool Use").
      if (!(text.charCodeAt(cs) === 85 /* U */ && (ce - cs === 3 || ce - cs === 4))) {
        f.use = j;
        f.useEnd = ce;
        verb = true;
      }
    }
    if (c & CUE.PARTICIPLE && f.use === -1) {
      const c0 = text.charCodeAt(cs);
      const re = c0 === 0x901a /* 通 */ ? PARTICIPLE_TONGGUO : c0 === 0x8fdb /* 进 */ ? PARTICIPLE_JINXING : PARTICIPLE_EN;
      const after = stickyAt(re, text, ce);
      if (after !== -1) {
        f.use = j;
        f.useEnd = after;
        verb = true;
      }
    }
    if (c & CUE.WEAK) {
      if (f.weak === -1) f.weak = j;
      verb = true;
    }
    // "we adopt", "we then apply", "our models are trained with", "we collect …, and employed", "我们采用": the report's own recipe.
    if (verb && f.adoption === -1 && personEnd >= 0 && ownVerb(text, list, g, personEnd, cs, ce)) f.adoption = j;
    if (c & CUE.STRUCTURE && f.structure === -1) f.structure = j;
    if (c & CUE.FIRST_PERSON) {
      f.firstPerson = true;
      personEnd = ce;
    }
    if (c & CUE.CAPABILITY) f.capability = true;
    if (c & CUE.EVALUATION) f.evaluation = true;
    if (c & CUE.FUTURE) f.future = true;
    if (c & CUE.EVENT) f.event = true;
    if (c & CUE.ET_AL) f.etAl = true;
    if (c & CUE.BENCHMARK && !f.benchWords.includes(meaningId)) f.benchWords.push(meaningId);
  }
}

/** How far after a first-person word its verb may come ("We ultimately collect … pairs, and employed GRPO"). */
const OWN_VERB_CHARS = 120;

/**
 * Whether the verb at [`verbAt`, `verbEnd`) is the first-person subject's (ending at `personEnd`): right after it
 * ("we adopt", "we then apply"), or — a finite verb, not a participle ("experiments using") — later in the same
 * clause (commas allowed: "we collect …, and employed"); not negated ("we do not apply"), not said of something
 * else ("models that use"), no "but" between.
 */
function ownVerb(text: string, list: MentionList, g: SentenceGroup, personEnd: number, verbAt: number, verbEnd: number): boolean {
  if (cueBetween(list, g, personEnd, verbAt, CUE.CLAUSE_NEGATION)) return false;
  if (verbAt - personEnd > 1 && (RELATIVE.test(text.slice(personEnd, verbAt)) || CLAUSE_BREAK.test(text.slice(personEnd, verbAt)))) return false;
  if (gapOk(text, personEnd, verbAt, 1, 24)) return true;
  const participle = text.charCodeAt(verbEnd - 1) === 103 /* g */ && text.charCodeAt(verbEnd - 2) === 110 && text.charCodeAt(verbEnd - 3) === 105;
  return !participle && gapOk(text, personEnd, verbAt, 24, OWN_VERB_CHARS, true);
}

// ── The value a sentence names ─────────────────────────────────────────────

/** What a sentence names, as a candidate offers it. */
export interface MainValue {
  kind: ClaimKind;
  value: string;
  stage: Stage | null;
  /** The main value first, then the other values named (all of them only when `all`). */
  values: string[];
  /** The term the value comes from (null for a bare RL mention). */
  main: Term | null;
  /** How the value was found: named positively, read from a bare RL mention, only describing, stated as not used, only negated. */
  source: 'positive' | 'generic' | 'descriptor' | 'not-used' | 'negated';
}

/**
 * The main value of a sentence: its heaviest positive term (stage from the term, else a stage term, else any
 * term's, else a bare RL mention's qualifier); else a "not used" finding when the sentence only negates terms in
 * its own clause (a bare RL mention aside); else a bare RL mention read from its qualifier; else a term that only
 * describes something; else the negated term (scored down).
 */
export function mainValue(f: SentenceFacts, list: MentionList, g: SentenceGroup, subjects: ReadonlySet<Term> | null, all: boolean): MainValue {
  return mainValueInto(f, list, g, subjects, all, { kind: 'stage', value: '', stage: null, values: [], main: null, source: 'positive' });
}

/**
 * {@link mainValue} written into `out` (its `values` emptied and refilled): the finder's first phase reuses one
 * object for every sentence. Returns `out`.
 */
export function mainValueInto(
  f: SentenceFacts,
  list: MentionList,
  g: SentenceGroup,
  subjects: ReadonlySet<Term> | null,
  all: boolean,
  out: MainValue,
): MainValue {
  const values = out.values;
  empty(values);
  if (f.positive.length > 0) {
    let main = f.positive[0] as Term;
    for (const t of f.positive) if (weightOf(t, subjects) > weightOf(main, subjects)) main = t;
    values.push(main.canonical);
    if (all) for (const t of f.positive) if (t !== main) values.push(t.canonical);
    let stage = main.stage;
    for (const t of f.positive) if (stage === null && t.kind === 'stage') stage = t.stage;
    for (const t of f.positive) if (stage === null) stage = t.stage;
    if (f.genericAt !== -1) {
      // "two RL stages … aligning with human preferences": the bare mention's reading joins the values.
      const q = qualify(list, g, f.genericAt);
      if (all && q && !values.includes(q.value)) values.push(q.value);
      stage ??= q?.stage ?? null;
    }
    return setMain(out, main.kind, main.canonical, stage, main, 'positive');
  }
  if (f.notUsed.length > 0) {
    let main = f.notUsed[0] as Term;
    for (const t of f.notUsed) if (weightOf(t, subjects) > weightOf(main, subjects)) main = t;
    values.push(NOT_USED_PREFIX + main.canonical);
    if (all) for (const t of f.notUsed) if (t !== main) values.push(NOT_USED_PREFIX + t.canonical);
    const q = f.genericAt !== -1 ? qualify(list, g, f.genericAt) : null;
    return setMain(out, 'undisclosed', NOT_USED_PREFIX + main.canonical, main.stage ?? q?.stage ?? null, main, 'not-used');
  }
  if (f.genericAt !== -1) {
    const q = qualify(list, g, f.genericAt);
    const value = q?.value ?? 'RL';
    values.push(value);
    return setMain(out, 'stage', value, q?.stage ?? null, null, 'generic');
  }
  const pool = f.descriptors.length > 0 ? f.descriptors : f.negated;
  const main = pool[0];
  values.push(main?.canonical ?? 'RL');
  if (all) for (const t of pool) if (t !== main) values.push(t.canonical);
  return setMain(out, main?.kind ?? 'stage', main?.canonical ?? 'RL', main?.stage ?? null, main ?? null, f.descriptors.length > 0 ? 'descriptor' : 'negated');
}

/** Writes a main value into `out`. */
function setMain(out: MainValue, kind: ClaimKind, value: string, stage: Stage | null, main: Term | null, source: MainValue['source']): MainValue {
  out.kind = kind;
  out.value = value;
  out.stage = stage;
  out.main = main;
  out.source = source;
  return out;
}

// ── Rules ───────────────────────────────────────────────────────────────────

/** Records a rule's contribution when the score is explained (a no-op otherwise). */
export type Why = (points: number, reason: string) => void;

/** What every rule reads: the sentence's text and mentions, its facts and its main value. */
export interface RuleInput {
  text: string;
  list: MentionList;
  g: SentenceGroup;
  facts: SentenceFacts;
  main: MainValue;
  subjects: ReadonlySet<Term> | null;
}

/** A scoring rule: its points for a sentence (0 when it does not apply); `why`, when given, hears the reason. */
export type Rule = (input: RuleInput, why: Why | null) => number;

/** The text of mention `j` (to `end`), white space collapsed. */
function quote(text: string, list: MentionList, j: number, end = list.end[j] as number): string {
  return text.slice(list.start[j] as number, end).replace(/\s+/g, ' ');
}

function say(why: Why, points: number, reason: string): number {
  why(points, reason);
  return points;
}

/** The main term by kind (algorithm, reward 3; stage, framework 2.5; system 2; halved for the page's subject); a bare RL mention 1; a term that only describes something half; a "not used" finding its term's weight; only negated terms −3. */
export const termRule: Rule = ({ main, subjects }, why) => {
  const t = main.main;
  switch (main.source) {
    case 'positive': {
      const w = weightOf(t as Term, subjects);
      return why ? say(why, w, `${main.kind} “${main.value}”${subjects?.has(t as Term) ? ' (the page’s subject: half weight)' : ''}`) : w;
    }
    case 'not-used':
      return why ? say(why, weightOf(t as Term, subjects), `stated as not used: ${(t as Term).canonical} (a negative finding)`) : weightOf(t as Term, subjects);
    case 'generic':
      return why ? say(why, GENERIC_RL_WEIGHT, main.value !== 'RL' ? `RL mention, read as “${main.value}”` : 'RL mention') : GENERIC_RL_WEIGHT;
    case 'descriptor':
      return why
        ? say(why, weightOf(t as Term, subjects) / 2, `${main.kind} “${main.value}” only describes something else (a framework, a workload)`)
        : weightOf(t as Term, subjects) / 2;
    default:
      return why ? say(why, -3, 'every mention negated or contrasted') : -3;
  }
};

/** −2.5 when the value is pre-training: the survey records post-training (a pre-training stage is context, not the recipe). */
export const pretrainingRule: Rule = ({ main }, why) =>
  main.source === 'positive' && main.stage === 'pretrain_midtrain' ? (why ? say(why, -2.5, 'pre-training, not post-training') : -2.5) : 0;

/** +0.5 for each further positive term (at most 2). */
export const moreTermsRule: Rule = ({ facts, main }, why) => {
  if (main.source !== 'positive') return 0;
  const more = Math.min(2, facts.positive.length - 1);
  return more > 0 ? (why ? say(why, 0.5 * more, `${more} more term${more > 1 ? 's' : ''}`) : 0.5 * more) : 0;
};

/** +0.5 when a bare RL mention backs a named term. */
export const rlContextRule: Rule = ({ facts, main }, why) =>
  main.source === 'positive' && facts.genericAt !== -1 ? (why ? say(why, 0.5, 'RL context') : 0.5) : 0;

/** −1.5 when every positive term is only named as an example ("such as GRPO"). */
export const examplesRule: Rule = ({ facts, main }, why) =>
  main.source === 'positive' && facts.examples > 0 && facts.examples === facts.positiveMentions
    ? why
      ? say(why, -1.5, 'terms named as examples (such as, e.g.)')
      : -1.5
    : 0;

/** −1.5 for a menu of four or more algorithms. */
export const menuRule: Rule = ({ facts, main }, why) => {
  if (main.source !== 'positive') return 0;
  let algorithms = 0;
  for (const t of facts.positive) if (t.kind === 'algorithm') algorithms++;
  return algorithms >= 4 ? (why ? say(why, -1.5, `menu of ${algorithms} algorithms`) : -1.5) : 0;
};

/** −0.5 when named terms come with a negated bare RL mention. */
export const rlNegatedRule: Rule = ({ facts, main }, why) =>
  main.source === 'positive' && facts.genericNegated && facts.genericAt === -1 ? (why ? say(why, -0.5, 'RL negated') : -0.5) : 0;

/** A verb of use ("use", "adopt", "trained … with", "采用") +2, else a weaker cue ("introduce", "propose") +1. */
export const useRule: Rule = ({ text, list, facts }, why) => {
  if (facts.use !== -1) return why ? say(why, 2, `verb of use “${quote(text, list, facts.use, facts.useEnd)}”`) : 2;
  if (facts.weak !== -1) return why ? say(why, 1, `introduces or builds on “${quote(text, list, facts.weak)}”`) : 1;
  return 0;
};

/** +2 when the report adopts, proposes or uses something itself ("we adopt", "we propose", "our models are trained with"); not for plans or evaluations. */
export const adoptionRule: Rule = ({ text, list, facts, main }, why) =>
  facts.adoption !== -1 && main.source !== 'negated' && !facts.future && !facts.evaluation
    ? why
      ? say(why, 2, `the report’s own recipe “${quote(text, list, facts.adoption)}”`)
      : 2
    : 0;

/** +1.5 for "X is the RL framework …" defining the named framework or system. */
export const definesRule: Rule = ({ facts }, why) => (facts.definesTerm ? (why ? say(why, 1.5, `defines ${facts.definesTerm.canonical}`) : 1.5) : 0);

/** +1 for pipeline wording ("pipeline", "stage", "recipe", "阶段"). */
export const pipelineRule: Rule = ({ text, list, facts }, why) =>
  facts.structure !== -1 ? (why ? say(why, 1, `pipeline/stage wording “${quote(text, list, facts.structure)}”`) : 1) : 0;

/** +1 for first person ("we", "our", "我们"); a "not used" finding not in the first person −1.5 (someone else's recipe, unless refine finds the page's model). */
export const firstPersonRule: Rule = ({ facts, main }, why) => {
  if (facts.firstPerson) return why ? say(why, 1, 'first person') : 1;
  return main.source === 'not-used' ? (why ? say(why, -1.5, 'not used, but not said of the report’s own work') : -1.5) : 0;
};

/** −2 for "et al." (the citation of a method the report adopts or states it does not use costs only −0.5, in `refine`). */
export const etAlRule: Rule = ({ facts, main }, why) => (facts.etAl && !citesOwnChoice(facts, main) ? (why ? say(why, -2, 'citation “et al.”') : -2) : 0);

/** Whether a sentence's citations are of the method it adopts, or states it does not use ("we employ GRPO (Shao et al.)"). */
export function citesOwnChoice(facts: SentenceFacts, main: MainValue): boolean {
  return (facts.adoption !== -1 && main.source === 'positive') || (main.source === 'not-used' && facts.firstPerson);
}

/** −1 per benchmark or comparison word (at most 2), halved next to a verb of use. */
export const benchmarkRule: Rule = ({ text, list, g, facts }, why) => {
  if (facts.benchWords.length === 0) return 0;
  // Results next to a stated use ("trained with verl, X achieves 86.7 on AIME") cost less.
  const p = Math.min(2, facts.benchWords.length) / (facts.use !== -1 ? 2 : 1);
  if (!why) return -p;
  const words: string[] = [];
  for (let j = g.from; j < g.to && words.length < 3; j++) {
    if (cueOf(list, j) & CUE.BENCHMARK) {
      const w = quote(text, list, j).toLowerCase();
      if (!words.includes(w)) words.push(w);
    }
  }
  return say(why, -p, `benchmark or comparison wording (${words.join(', ')})`);
};

/** −1.5 for capability wording ("supports", "compatible with"). */
export const capabilityRule: Rule = ({ facts }, why) =>
  facts.capability ? (why ? say(why, -1.5, 'capability wording (supports, compatible with)') : -1.5) : 0;

/** −1.5 for a use in evaluation or comparison ("we use verl to evaluate the throughput"): not how the model was trained. */
export const evaluationRule: Rule = ({ facts }, why) => (facts.evaluation ? (why ? say(why, -1.5, 'used to evaluate or compare') : -1.5) : 0);

/** −1 for plans ("will", "future work"). */
export const futureRule: Rule = ({ facts }, why) => (facts.future ? (why ? say(why, -1, 'plans or future work') : -1) : 0);

/** −1.5 for news of events. */
export const eventRule: Rule = ({ facts }, why) => (facts.event ? (why ? say(why, -1.5, 'news or event') : -1.5) : 0);

/** −2.5 for a run-on without a sentence boundary within the cap. */
export const runOnRule: Rule = ({ g }, why) => (g.capped ? (why ? say(why, -2.5, 'run-on without a sentence boundary (list, table or navigation)') : -2.5) : 0);

/** The first-phase rules, in the order their reasons are written. */
export const RULES: readonly Rule[] = [
  termRule,
  pretrainingRule,
  moreTermsRule,
  rlContextRule,
  examplesRule,
  menuRule,
  rlNegatedRule,
  useRule,
  adoptionRule,
  definesRule,
  pipelineRule,
  firstPersonRule,
  etAlRule,
  benchmarkRule,
  capabilityRule,
  evaluationRule,
  futureRule,
  eventRule,
  runOnRule,
];
