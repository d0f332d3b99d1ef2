/**
 * How claim-like a sentence is. Two phases, so that a megabyte page costs
 * little: {@link analyse} works only from the matcher's mentions (terms and
 * cue words found in the one pass) and gives every sentence its value and a
 * score that later steps can only lower (bar a model bonus of at most
 * {@link MODEL_BONUS}); {@link refine} adds the regular-expression checks
 * (citations, reference lists, tables, code, advice to users, headings,
 * models) for the sentences that can still make the list.
 *
 * Rules (points):
 * - the main term by kind: algorithm or reward 3, stage or framework 2.5,
 *   system 2 (halved for the page's own subject, e.g. "verl" on verl's
 *   README); +0.5 for each further term (at most 2); +0.5 when a bare
 *   "RL" / "reinforcement learning" / "强化学习" also appears. A sentence
 *   with only a bare RL mention scores 1 and reads as a stage from a
 *   qualifier ("general-domain" → General RL, "reasoning" → Reasoning RL, …).
 * - a verb of use ("use", "adopt", "leverage", "trained … with", "built on",
 *   "采用", "使用", "通过 … 训练") +2, else a weaker cue ("introduce",
 *   "propose", "based on") +1; "X is the RL framework …" defining the named
 *   framework or system +1.5; pipeline wording ("pipeline", "stage",
 *   "recipe", "阶段") +1; first person ("we", "our", "我们") +1; a page model
 *   named +1.5, another model-like name +0.75.
 * - a term right after "unlike", "without", "instead of", "rather than",
 *   "not", "compared with", "outperforms", "不同于", "而非", … (or before
 *   "is not", "相比") is negated: it names nothing; when every term is
 *   negated −3. Terms only named as examples ("such as", "e.g.") −1.5; terms
 *   that only describe something else ("an agentic RL framework") count half;
 *   a menu of four or more algorithms −1.5.
 * - citations: reference-list shape −3, "(Author, 2024)" −2.5, "[12]" or
 *   "et al." −2; a link −1; a table row (4+ numbers making a fifth of the
 *   words) −3, 8+ numbers −4; benchmark or comparison words −1 each (at most
 *   2, halved next to a verb of use); advice to users (detectUserGuidance)
 *   −4; capability wording ("supports", "compatible with") −1.5; code −2.5;
 *   plans ("will", "future work") −1; news of events −1.5; fewer than six
 *   words −2.5; title case (headings, titles) −2; three or more labelled
 *   items ("Name: …") −2 (five or more −3); a run-on without any sentence
 *   boundary within the cap −2.5; a question −1.
 */
import type { ClaimKind, Stage } from '../schema';
import { detectUserGuidance } from '../evidence';
import { modelTokens } from '../source';
import type { Term } from '../taxonomy';
import { CUE, type MentionList } from './matcher';

/** The score of one sentence and what it names. */
export interface SentenceScore {
  /** Total score (rounded to two decimals). */
  score: number;
  /** Each contribution, e.g. "verb of use “trained with” +2". */
  reasons: string[];
  /** Claim kind of the main value. */
  kind: ClaimKind;
  /** Canonical main value. */
  value: string;
  /** Every canonical value the sentence names positively, main value first. */
  values: string[];
  /** Stage named or implied, or null. */
  stage: Stage | null;
  /** The model the sentence names (a page model first, else a model-like name), or null. */
  model: string | null;
}

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

/** The first phase's result: value and a score that {@link refine} can lower and raise by at most {@link MODEL_BONUS}. */
export interface Draft {
  /** Start offset of the sentence. */
  start: number;
  /** End offset of the sentence. */
  end: number;
  /** Score so far. */
  points: number;
  /** Contributions so far (only when explained). */
  reasons: string[];
  /** Claim kind of the main value. */
  kind: ClaimKind;
  /** Canonical main value. */
  value: string;
  /** Canonical values named positively (only when explained; else just the main value). */
  values: string[];
  /** Stage named or implied. */
  stage: Stage | null;
  /** A verb of use was found (halves benchmark penalties). */
  use: boolean;
  /** "et al." already cost 2 points. */
  etAl: boolean;
  /** The sentence and its mentions (to explain the score later). */
  group: SentenceGroup;
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
const GENERIC_RL_WEIGHT = 1;
/** The most {@link refine} can add: a page model named in the sentence. */
export const MODEL_BONUS = 1.5;

/** Readings of a bare RL mention from the nearest qualifier (taxonomy canonical values). */
const QUALIFIERS: ReadonlyArray<{ flag: number; value: string; stage: Stage }> = [
  { flag: CUE.Q_VLM, value: 'VLM / Omni RL', stage: 'vlm_omni_rl' },
  { flag: CUE.Q_AGENTIC, value: 'Agentic RL', stage: 'agentic_rl' },
  { flag: CUE.Q_PREFERENCE, value: 'Preference RL', stage: 'general_rl' },
  { flag: CUE.Q_GENERAL, value: 'General RL', stage: 'general_rl' },
  { flag: CUE.Q_REASONING, value: 'Reasoning RL', stage: 'reasoning_rl' },
];
const ANY_QUALIFIER = CUE.Q_VLM | CUE.Q_AGENTIC | CUE.Q_PREFERENCE | CUE.Q_GENERAL | CUE.Q_REASONING;

/** After a participle: a preposition within three words makes it a verb of use ("trained entirely through"). Sticky: matched at a given offset of the page text. */
const PARTICIPLE_EN = /(?:\s+[\w-]+){0,3}?\s+(?:with|via|using|through|by)\b/iy;
const PARTICIPLE_TONGGUO = /[^，。；,;]{0,20}(?:训练|优化|学习|对齐)/y;
const PARTICIPLE_JINXING = /[^，。；,;]{0,12}训练/y;
/** Right after a framework's name: "… is an LLM post-training framework", "… is the RL framework behind GLM-5". */
const DEFINES_AFTER = /\s*(?:is|are|was)\s+(?:an?|the|our)\s+(?:[\w-]+\s+){0,4}(?:framework|library|system|engine|infrastructure|toolkit|stack|backend)s?\b/iy;

// ── Second-phase checks on the sentence text ──────────────────────────────
const CITE_NUM = /\[\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\]/;
const CITE_AUTHOR = /\((?:see\s+)?\p{Lu}[\p{L}'’-]+(?:\s+et al\.?|\s+(?:and|&)\s+\p{Lu}[\p{L}'’-]+)?,?\s+(?:19|20)\d{2}[a-z]?(?:\s*[;,][^)]{0,80})?\)/u;
const REFERENCE =
  /@(?:article|misc|inproceedings|book|techreport)\b|\b(?:title|author|journal|booktitle|year)\s*=\s*\{|\bIn Proceedings\b|\bProc\.\s|\bpp\.\s*\d|\bvol\.\s*\d|\barXiv(?: preprint)?\s*(?:arXiv)?\s*:?\s*\d{4}\.\d{4,5}|\bdoi:|\b(?:Conference on|Journal of|Transactions on)\b/i;
const URL_RE = /https?:\/\/|\bwww\./i;
const NUMBER_TOKEN = /^[([]?[-+±~≈]?\d[\d.,]*(?:%|[KMBkx×])?[)\],;:]?$/;
const CODE = /[{}]|==?|\w\(|--\w|\w_\w|::|=>|\$\w/g;
const LABEL = /(?:^|\s)\p{Lu}[\p{L}\d-]*(?:\s+[\p{L}\d-]+){0,3}:\s/gu;
const LATIN_WORD = /[\p{L}\d][\p{L}\d'’.-]*/gu;
const CJK_CHAR = /\p{Script=Han}/gu;
const MODEL_HINT = /\p{Lu}\p{L}*[ -]?\p{Lu}{0,2}\d/u;
/** Benchmark and conference names the model-name pattern mistakes for models ("AIME 2024"). */
const NOT_MODELS =
  /^(?:AIME|GPQA|MMLU|MATH|HMMT|CNMO|IMO|IOI|ICML|ICLR|NeurIPS|ACL|EMNLP|CVPR|EuroSys|OSDI|SOSP|Codeforces|LiveCodeBench|SWE|BFCL|Table|Figure)\b|\s(?:19|20)\d\d$/;

function fmt(n: number): string {
  return n > 0 ? `+${n}` : `−${-n}`;
}

/** Clause punctuation that a negation or an example list does not reach across. */
function isClauseStop(c: number, allowComma: boolean): boolean {
  if (c === 44 || c === 0xff0c || c === 0x3001) return !allowComma; // , ， 、
  return c === 59 || c === 58 || c === 46 || c === 33 || c === 63 || c === 0x3002 || c === 0xff1b || c === 0xff1a || c === 0xff01 || c === 0xff1f;
}

/** Whether text[from, to) is short enough: at most `maxWords` words, `maxChars` characters and no clause punctuation. */
function gapOk(text: string, from: number, to: number, maxWords: number, maxChars: number, allowComma = false): boolean {
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

/** Whether mention `i` is negated or contrasted by a cue of its sentence ("unlike GRPO", "… is not used"). */
function negatedBy(text: string, list: MentionList, g: SentenceGroup, i: number): boolean {
  const ms = list.start[i] as number;
  const me = list.end[i] as number;
  for (let j = g.from; j < g.to; j++) {
    const cue = (list.meanings[list.meaning[j] as number] as { cue: number }).cue;
    if (cue & CUE.NEGATE_NEXT && (list.end[j] as number) <= ms && gapOk(text, list.end[j] as number, ms, 3, 48)) return true;
    if (cue & CUE.NEGATE_PREVIOUS && (list.start[j] as number) >= me && gapOk(text, me, list.start[j] as number, 2, 16)) return true;
  }
  return false;
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
    if (!((list.meanings[list.meaning[j] as number] as { cue: number }).cue & flag)) continue;
    const from = before ? (list.end[j] as number) : me;
    const to = before ? ms : (list.start[j] as number);
    if (to < from || !gapOk(text, from, to, maxWords, maxChars, allowComma)) continue;
    let blocked = false;
    for (let k = g.from; k < g.to && !blocked && blockers !== 0; k++) {
      const ks = list.start[k] as number;
      blocked = ks >= from && ks < to && ((list.meanings[list.meaning[k] as number] as { cue: number }).cue & blockers) !== 0;
    }
    if (!blocked) return true;
  }
  return false;
}

/** The end of a match of the sticky `re` at `at` in `text`, or -1. */
function stickyAt(re: RegExp, text: string, at: number): number {
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
function weightOf(t: Term, subjects: ReadonlySet<Term> | null): number {
  return KIND_WEIGHT[t.kind] * (subjects !== null && subjects.has(t) ? 0.5 : 1);
}

/** The qualified reading of a bare RL mention at `at`: the qualifier cue nearest to it in the sentence. */
function qualify(list: MentionList, g: SentenceGroup, at: number): (typeof QUALIFIERS)[number] | null {
  let best: (typeof QUALIFIERS)[number] | null = null;
  let distance = Infinity;
  for (let j = g.from; j < g.to; j++) {
    const cue = (list.meanings[list.meaning[j] as number] as { cue: number }).cue;
    if (!(cue & ANY_QUALIFIER)) continue;
    const d = Math.abs((list.start[j] as number) - at);
    if (d >= distance) continue;
    const q = QUALIFIERS.find((x) => cue & x.flag);
    if (q) {
      best = q;
      distance = d;
    }
  }
  return best;
}

/** The text of mention `j` (to `end`), white space collapsed. */
function quote(text: string, list: MentionList, j: number, end = list.end[j] as number): string {
  return text.slice(list.start[j] as number, end).replace(/\s+/g, ' ');
}

/** Writes no reason (unexplained drafts). */
function noReason(): void {}

/** Shared empty reasons of unexplained drafts (never written). */
const NO_REASONS: string[] = [];

// Scratch lists reused by every call of analyse (it is not re-entrant).
const positive: Term[] = [];
const negated: Term[] = [];
const descriptors: Term[] = [];
const benchWords: number[] = [];

/**
 * First phase: value, kind, stage and the score of one sentence from the
 * mentions and cue words the matcher found in it (no regular expressions
 * over the sentence). `subjects` are terms frequent enough to be the page's
 * subject (half weight); `explain` writes the reasons and all values.
 */
export function analyse(text: string, list: MentionList, g: SentenceGroup, subjects: ReadonlySet<Term> | null, explain: boolean): Draft {
  const reasons: string[] = explain ? [] : NO_REASONS;
  let points = 0;
  const why = explain ? (p: number, reason: string): void => void reasons.push(`${reason} ${fmt(p)}`) : noReason;
  const meanings = list.meanings;

  // ── What it names ──
  positive.length = 0;
  negated.length = 0;
  descriptors.length = 0;
  let positiveMentions = 0;
  let examples = 0;
  let genericAt = -1;
  let genericNegated = false;
  let definesTerm: Term | null = null;
  let prevEnd = -1;
  let prevNeg = false;
  for (let i = g.from; i < g.to; i++) {
    const meaning = meanings[list.meaning[i] as number] as { role: string; term: Term | null };
    if (meaning.role !== 'term' && meaning.role !== 'rl') continue;
    const ms = list.start[i] as number;
    const me = list.end[i] as number;
    // "supervised fine-tuning (SFT)": the bracketed short form shares the long form's fate.
    const bracketed = prevEnd >= 0 && ms > prevEnd && ms - prevEnd <= 3 && onlyOpeningBracket(text, prevEnd, ms);
    const neg: boolean = bracketed ? prevNeg : negatedBy(text, list, g, i);
    prevEnd = me;
    prevNeg = neg;
    if (meaning.role === 'rl') {
      if (neg) genericNegated = true;
      else if (genericAt === -1) genericAt = ms;
      continue;
    }
    const term = meaning.term;
    if (!term) continue;
    if (neg) {
      if (!negated.includes(term)) negated.push(term);
      continue;
    }
    if (cueNear(text, list, g, i, CUE.DESCRIPTOR, false, 1, 20, false)) {
      // "an agentic RL framework", "RLHF Framework": the term describes something else.
      if (!descriptors.includes(term)) descriptors.push(term);
      continue;
    }
    if ((term.kind === 'framework' || term.kind === 'system') && stickyAt(DEFINES_AFTER, text, me) !== -1) definesTerm = term;
    positiveMentions++;
    if (cueNear(text, list, g, i, CUE.EXAMPLE, true, 6, 80, true, CUE.USE | CUE.PARTICIPLE | CUE.WEAK)) examples++;
    if (!positive.includes(term)) positive.push(term);
  }

  let kind: ClaimKind;
  let value: string;
  let stage: Stage | null = null;
  const values: string[] = [];
  if (explain) for (const t of negated) if (!positive.includes(t)) reasons.push(`negated or contrasted: ${t.canonical}`);
  if (positive.length > 0) {
    let main = positive[0] as Term;
    for (const t of positive) if (weightOf(t, subjects) > weightOf(main, subjects)) main = t;
    kind = main.kind;
    value = main.canonical;
    values.push(value);
    if (explain) for (const t of positive) if (t !== main) values.push(t.canonical);
    stage = main.stage;
    for (const t of positive) if (stage === null && t.kind === 'stage') stage = t.stage;
    for (const t of positive) if (stage === null) stage = t.stage;
    const w = weightOf(main, subjects);
    points += w;
    if (explain) why(w, `${kind} “${value}”${subjects?.has(main) ? ' (the page’s subject: half weight)' : ''}`);
    const more = Math.min(2, positive.length - 1);
    if (more > 0) {
      points += 0.5 * more;
      if (explain) why(0.5 * more, `${more} more term${more > 1 ? 's' : ''}`);
    }
    if (genericAt !== -1) {
      points += 0.5;
      if (explain) why(0.5, 'RL context');
      // "two RL stages … aligning with human preferences": the bare mention's reading joins the values.
      const q = qualify(list, g, genericAt);
      if (explain && q && !values.includes(q.value)) values.push(q.value);
      stage ??= q?.stage ?? null;
    }
    if (examples > 0 && examples === positiveMentions) {
      points -= 1.5;
      if (explain) why(-1.5, 'terms named as examples (such as, e.g.)');
    }
    let algorithms = 0;
    for (const t of positive) if (t.kind === 'algorithm') algorithms++;
    if (algorithms >= 4) {
      points -= 1.5;
      if (explain) why(-1.5, `menu of ${algorithms} algorithms`);
    }
  } else if (genericAt !== -1) {
    const q = qualify(list, g, genericAt);
    kind = 'stage';
    value = q?.value ?? 'RL';
    stage = q?.stage ?? null;
    values.push(value);
    points += GENERIC_RL_WEIGHT;
    if (explain) why(GENERIC_RL_WEIGHT, q ? `RL mention, read as “${value}”` : 'RL mention');
  } else if (descriptors.length > 0) {
    const main = descriptors[0] as Term;
    kind = main.kind;
    value = main.canonical;
    stage = main.stage;
    values.push(value);
    if (explain) for (const t of descriptors) if (t !== main) values.push(t.canonical);
    const w = weightOf(main, subjects) / 2;
    points += w;
    if (explain) why(w, `${kind} “${value}” only describes something else (a framework, a workload)`);
  } else {
    const main = negated[0];
    kind = main?.kind ?? 'stage';
    value = main?.canonical ?? 'RL';
    stage = main?.stage ?? null;
    values.push(value);
    if (explain) for (const t of negated) if (t !== main) values.push(t.canonical);
    points -= 3;
    if (explain) why(-3, 'every mention negated or contrasted');
  }
  if (positive.length > 0 && genericNegated && genericAt === -1) {
    points -= 0.5;
    if (explain) why(-0.5, 'RL negated');
  }

  // ── Cues of a claim ──
  let use = -1; // index of the cue that is a verb of use
  let useEnd = -1; // end of the verb phrase ("trained … with")
  let weak = -1;
  let structure = -1;
  let firstPerson = false;
  let capability = false;
  let future = false;
  let event = false;
  let etAl = false;
  benchWords.length = 0;
  for (let j = g.from; j < g.to; j++) {
    const meaningId = list.meaning[j] as number;
    const f = (meanings[meaningId] as { cue: number }).cue;
    if (f === 0) continue;
    const cs = list.start[j] as number;
    const ce = list.end[j] as number;
    if (f & CUE.USE && use === -1) {
      // "Use" with a capital is a title noun ("Use Latest SGLang", "Multimodal Tool Use").
      if (!(text.charCodeAt(cs) === 85 /* U */ && (ce - cs === 3 || ce - cs === 4))) {
        use = j;
        useEnd = ce;
      }
    }
    if (f & CUE.PARTICIPLE && use === -1) {
      const c0 = text.charCodeAt(cs);
      const re = c0 === 0x901a /* 通 */ ? PARTICIPLE_TONGGUO : c0 === 0x8fdb /* 进 */ ? PARTICIPLE_JINXING : PARTICIPLE_EN;
      const after = stickyAt(re, text, ce);
      if (after !== -1) {
        use = j;
        useEnd = after;
      }
    }
    if (f & CUE.WEAK && weak === -1) weak = j;
    if (f & CUE.STRUCTURE && structure === -1) structure = j;
    if (f & CUE.FIRST_PERSON) firstPerson = true;
    if (f & CUE.CAPABILITY) capability = true;
    if (f & CUE.FUTURE) future = true;
    if (f & CUE.EVENT) event = true;
    if (f & CUE.ET_AL) etAl = true;
    if (f & CUE.BENCHMARK && !benchWords.includes(meaningId)) benchWords.push(meaningId);
  }
  if (use !== -1) {
    points += 2;
    if (explain) why(2, `verb of use “${quote(text, list, use, useEnd)}”`);
  } else if (weak !== -1) {
    points += 1;
    if (explain) why(1, `introduces or builds on “${quote(text, list, weak)}”`);
  }
  if (definesTerm) {
    points += 1.5;
    if (explain) why(1.5, `defines ${definesTerm.canonical}`);
  }
  if (structure !== -1) {
    points += 1;
    if (explain) why(1, `pipeline/stage wording “${quote(text, list, structure)}”`);
  }
  if (firstPerson) {
    points += 1;
    if (explain) why(1, 'first person');
  }

  // ── Penalties known from cue words ──
  if (etAl) {
    points -= 2;
    if (explain) why(-2, 'citation “et al.”');
  }
  if (benchWords.length > 0) {
    // Results next to a stated use ("trained with verl, X achieves 86.7 on AIME") cost less.
    const p = Math.min(2, benchWords.length) / (use !== -1 ? 2 : 1);
    points -= p;
    if (explain) {
      const words: string[] = [];
      for (let j = g.from; j < g.to && words.length < 3; j++) {
        if ((meanings[list.meaning[j] as number] as { cue: number }).cue & CUE.BENCHMARK) {
          const w = quote(text, list, j).toLowerCase();
          if (!words.includes(w)) words.push(w);
        }
      }
      why(-p, `benchmark or comparison wording (${words.join(', ')})`);
    }
  }
  if (capability) {
    points -= 1.5;
    if (explain) why(-1.5, 'capability wording (supports, compatible with)');
  }
  if (future) {
    points -= 1;
    if (explain) why(-1, 'plans or future work');
  }
  if (event) {
    points -= 1.5;
    if (explain) why(-1.5, 'news or event');
  }
  if (g.capped) {
    points -= 2.5;
    if (explain) why(-2.5, 'run-on without a sentence boundary (list, table or navigation)');
  }

  return { start: g.start, end: g.end, points, reasons, kind, value, values, stage, use: use !== -1, etAl, group: g };
}

/** A case-insensitive matcher of the page's model names (longest first), or null when none are given. */
export function modelMatcher(models: readonly string[] | undefined): RegExp | null {
  const names = [...new Set((models ?? []).map((m) => m.trim()).filter((m) => m.length > 0))];
  if (names.length === 0) return null;
  names.sort((a, b) => b.length - a.length);
  const alt = names.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return new RegExp(`(?<![\\p{L}\\p{N}_.-])(?:${alt})(?![\\p{L}\\p{N}_]|[-.][\\p{L}\\p{N}])`, 'iu');
}

/** Second phase: the checks that read the sentence text; returns the final score. */
export function refine(sentence: string, draft: Draft, models: RegExp | null): SentenceScore {
  let points = draft.points;
  const reasons = [...draft.reasons];
  const add = (p: number, why: string): void => {
    points += p;
    reasons.push(`${why} ${fmt(p)}`);
  };

  let model: string | null = null;
  const named = models ? models.exec(sentence) : null;
  if (named) {
    model = named[0];
    add(MODEL_BONUS, `names ${model}`);
  } else if (MODEL_HINT.test(sentence)) {
    const token = modelTokens(sentence).find((t) => !NOT_MODELS.test(t));
    if (token) {
      model = token;
      add(0.75, `names a model (${token})`);
    }
  }

  // Citations: the strongest shape counts ("et al." was charged already).
  const cite = REFERENCE.test(sentence)
    ? ([3, 'reference-list shape'] as const)
    : CITE_AUTHOR.test(sentence)
      ? ([2.5, 'citation (author, year)'] as const)
      : CITE_NUM.test(sentence)
        ? ([2, 'citation [n]'] as const)
        : null;
  if (cite) {
    const extra = cite[0] - (draft.etAl ? 2 : 0);
    if (extra > 0) add(-extra, cite[1]);
  }
  if (URL_RE.test(sentence)) add(-1, 'link');

  const tokens = sentence.split(' ');
  let numbers = 0;
  let words = 0;
  for (const t of tokens) {
    if (t.length === 0) continue;
    words++;
    const c = t.charCodeAt(0);
    if ((c >= 48 && c <= 57) || c === 40 || c === 91 || c === 43 || c === 45 || c === 126 || c === 177 || c === 8776) {
      if (NUMBER_TOKEN.test(t)) numbers++;
    }
  }
  if (numbers >= 8) add(-4, `table-like (${numbers} numbers)`);
  else if (numbers >= 4 && numbers / Math.max(1, words) >= 0.2) add(-3, `table-like (${numbers} numbers)`);

  if (detectUserGuidance(sentence)) add(-4, 'advice to users');
  const code = (sentence.match(CODE) ?? []).length;
  if (code >= 3) add(-2.5, 'code');

  const latin = sentence.match(LATIN_WORD) ?? [];
  const cjk = (sentence.match(CJK_CHAR) ?? []).length;
  if (latin.length + cjk / 2 < 6) add(-2.5, 'too short (heading or navigation)');
  else if (latin.length >= 6 && cjk === 0) {
    let capitalised = 0;
    for (const w of latin) if (/^\p{Lu}/u.test(w)) capitalised++;
    if (capitalised / latin.length >= 0.6) add(-2, 'title case (a heading, a title or a list of names)');
  }
  const labels = (sentence.match(LABEL) ?? []).length;
  if (labels >= 3) add(labels >= 5 ? -3 : -2, `list of labelled items (${labels})`);
  if (/[?？]$/.test(sentence)) add(-1, 'question');

  return {
    score: Math.round(points * 100) / 100,
    reasons,
    kind: draft.kind,
    value: draft.value,
    values: draft.values,
    stage: draft.stage,
    model,
  };
}
