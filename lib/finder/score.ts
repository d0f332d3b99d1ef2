/**
 * How claim-like a sentence is. Two phases, so that a megabyte page costs
 * little: {@link analyse} works only from the matcher's mentions (terms and
 * cue words found in the one pass) and gives every sentence its value and a
 * score that later steps can only lower (bar a model bonus of at most
 * {@link MODEL_BONUS}); {@link refine} adds the regular-expression checks
 * (citations, reference lists, tables, code, advice to users, headings,
 * models) for the sentences that can still make the list.
 *
 * First-phase rules (points; one function each in lib/finder/rules.ts):
 * - the main term by kind: algorithm or reward 3, stage or framework 2.5,
 *   system 2 (halved for the page's own subject, e.g. "verl" on verl's
 *   README); +0.5 for each further term (at most 2); +0.5 when a bare
 *   "RL" / "reinforcement learning" / "强化学习" also appears. A sentence
 *   with only a bare RL mention scores 1 and reads as a stage from a
 *   qualifier ("general-domain" → General RL, "reasoning" → Reasoning RL, …).
 *   A pre-training value −2.5 (the survey records post-training).
 * - a term the sentence states as not used ("we do not apply the … reward
 *   model", "without SFT", "instead of PPO") is a negative finding when
 *   nothing else is named: kind `undisclosed`, value "not used: …", its
 *   term's weight, −1.5 when not said in the first person; a term after a
 *   contrast ("unlike", "compared with", "outperforms", "不同于", or before
 *   "is not") names nothing; when every term is negated that way −3.
 * - a verb of use ("use", "adopt", "leverage", "trained … with", "built on",
 *   "采用", "使用", "通过 … 训练") +2, else a weaker cue ("introduce",
 *   "propose", "based on") +1; the report's own recipe — first person right
 *   before such a verb ("we adopt", "we propose", "we then apply", "our
 *   models are trained with") +2; "X is the RL framework …" defining the
 *   named framework or system +1.5; pipeline wording ("pipeline", "stage",
 *   "recipe", "阶段") +1; first person ("we", "our", "我们") +1.
 * - terms only named as examples ("such as", "e.g.") −1.5; terms that only
 *   describe something else ("an agentic RL framework") count half; a menu of
 *   four or more algorithms −1.5; "et al." −2; benchmark or comparison words
 *   −1 each (at most 2, halved next to a verb of use); capability wording
 *   ("supports", "compatible with") −1.5; a use to evaluate or compare ("we
 *   use verl to evaluate …", "for a fair comparison") −1.5; plans ("will",
 *   "future work") −1 (and no own-recipe bonus);
 *   news of events −1.5; a run-on without any sentence boundary within the
 *   cap −2.5.
 *
 * Second phase ({@link refine}): a page model named +1.5 (another model-like
 * name +0.75), and said to use, adopt or be trained with something ("Qwen3
 * is trained with") +1.5, as is the report's own system ("AReaL adopts"); citations: reference-list shape −3, "(Author,
 * 2024)" −2.5, "[12]" −2 (only −0.5 for the method a sentence adopts: "we
 * employ GRPO (Shao et al., 2024)"); a link −1; a table row (4+ numbers
 * making a fifth of the words) −3, 8+ numbers −4; advice to users
 * (detectUserGuidance) −4; code −2.5; fewer than six words −2.5; title case
 * (headings, titles) −2; three or more labelled items ("Name: …") −2 (five or
 * more −3); a question −1; a table or figure caption ("Table 21: …") −2.5.
 */
import type { ClaimKind, Stage } from '../schema';
import { detectUserGuidance } from '../evidence';
import { modelTokens } from '../source';
import type { Term } from '../taxonomy';
import type { MentionList } from './matcher';
import { citesOwnChoice, KIND_WEIGHT, mainValue, mainValueInto, readFacts, RULES, type MainValue, type RuleInput, type SentenceGroup, type Why } from './rules';

export { KIND_WEIGHT, type SentenceGroup };

/** The score of one sentence and what it names. */
export interface SentenceScore {
  /** Total score, rounded to two decimals: how claim-like the sentence is (higher is better). */
  score: number;
  /** Each contribution to the score, readable, e.g. "verb of use “trained with” +2". */
  reasons: string[];
  /** Claim kind of the main value (`undisclosed` for a "not used" finding). */
  kind: ClaimKind;
  /** Canonical main value ("not used: SFT" for a negative finding). */
  value: string;
  /** Every canonical value the sentence names positively, main value first. */
  values: string[];
  /** Stage named or implied, or null. */
  stage: Stage | null;
  /** The model the sentence names (a page model first, else a model-like name), or null. */
  model: string | null;
  /** `negative` when the sentence states that something is not used (a negative finding), else `positive`. */
  polarity: 'positive' | 'negative';
  /** Canonical values the sentence states as not used (empty when none). */
  negated: string[];
  /** The report states its own recipe here ("we adopt", "Qwen3 is trained with"). */
  adopts: boolean;
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
  /** The sentence states the report's own choice ("we adopt X", "we do not use X"): a citation of that method costs little. */
  adoption: boolean;
  /** A negative finding ("not used: …"). */
  negative: boolean;
  /** The sentence speaks in the first person. */
  firstPerson: boolean;
  /** Canonical values stated as not used (only when explained). */
  negated: string[];
  /** The sentence and its mentions (to explain the score later). */
  group: SentenceGroup;
}

/** The most {@link refine} can add: a page model named in the sentence, and said to use or be trained with something. */
export const MODEL_BONUS = 3;
/** What {@link refine} adds for a model-like name that is not a page model. */
const OTHER_MODEL_BONUS = 0.75;
/** What {@link refine} adds when the report's own system is said to use something. */
const OWN_BONUS = 1.5;

/**
 * The most {@link refine} can add to this sentence: {@link MODEL_BONUS} when it names a page model, else a model-like
 * name's bonus and, when the report names its own work, that one's. The finder skips the second phase of sentences
 * this bound keeps off the list.
 */
export function bonusBound(sentence: string, models: RegExp | null, own: RegExp | null): number {
  if (models?.test(sentence)) return MODEL_BONUS;
  return OTHER_MODEL_BONUS + (own ? OWN_BONUS : 0);
}

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
/** Right after a page model's name: it uses, adopts or is trained with something ("Qwen3 is trained with", "AReaL adopts"). Sticky. */
const MODEL_USES =
  /[\s,]+(?:[\w-]+\s+){0,3}?(?:adopts?|uses?|employs?|incorporates?|applies|leverages?|relies on|(?:is|are|was|were|has been|have been)\s+(?:\w+\s+)?(?:trained|optimi[sz]ed|fine-tuned|post-trained|aligned))\b/iy;
/** A caption: "Table 21: …", "Figure 2. …". */
const CAPTION = /^(?:Table|Figure|Fig\.|Algorithm|Listing|表|图)\s*\d+[:.：]/;
/** Benchmark and conference names the model-name pattern mistakes for models ("AIME 2024"). */
const NOT_MODELS =
  /^(?:AIME|GPQA|MMLU|MATH|HMMT|CNMO|IMO|IOI|ICML|ICLR|NeurIPS|ACL|EMNLP|CVPR|EuroSys|OSDI|SOSP|Codeforces|LiveCodeBench|SWE|BFCL|Table|Figure)\b|\s(?:19|20)\d\d$/;

function fmt(n: number): string {
  return n > 0 ? `+${n}` : `−${-n}`;
}

/** Shared empty reasons of unexplained drafts (never written). */
const NO_REASONS: string[] = [];

/**
 * First phase: value, kind, stage and the score of one sentence from the
 * mentions and cue words the matcher found in it (no regular expressions
 * over the sentence), by the rules of lib/finder/rules.ts. `subjects` are
 * terms frequent enough to be the page's subject (half weight); `explain`
 * writes the reasons and all values.
 */
export function analyse(text: string, list: MentionList, g: SentenceGroup, subjects: ReadonlySet<Term> | null, explain: boolean): Draft {
  const reasons: string[] = explain ? [] : NO_REASONS;
  const why: Why | null = explain ? (p, reason) => void reasons.push(`${reason} ${fmt(p)}`) : null;
  const facts = readFacts(text, list, g);
  const main = mainValue(facts, list, g, subjects, explain);
  if (explain) {
    for (const t of facts.negated) {
      if (main.source === 'not-used' && t === main.main) continue;
      reasons.push(`${facts.notUsed.includes(t) ? 'stated as not used' : 'negated or contrasted'}: ${t.canonical}`);
    }
  }
  const input = { text, list, g, facts, main, subjects };
  let points = 0;
  for (const rule of RULES) points += rule(input, why);
  return {
    start: g.start,
    end: g.end,
    points,
    reasons,
    kind: main.kind,
    value: main.value,
    values: main.values,
    stage: main.stage,
    use: facts.use !== -1,
    etAl: facts.etAl && !citesOwnChoice(facts, main),
    adoption: citesOwnChoice(facts, main),
    negative: main.source === 'not-used',
    firstPerson: facts.firstPerson,
    negated: explain ? facts.notUsed.map((t) => t.canonical) : NO_REASONS,
    group: g,
  };
}

/** The rule input {@link firstPoints} reuses for every sentence. */
const firstInput: RuleInput = {
  text: '',
  list: null as unknown as MentionList,
  g: null as unknown as SentenceGroup,
  facts: null as unknown as RuleInput['facts'],
  main: null as unknown as MainValue,
  subjects: null,
};

/**
 * The first phase's score of a sentence, as {@link analyse} gives it in `points`, without building a draft: the
 * finder scores every sentence of a page this way and drafts only the few that can still make the list. The main
 * value is written into `main` (the caller's scratch; its kind and stage tell whether the sentence discloses).
 */
export function firstPoints(text: string, list: MentionList, g: SentenceGroup, subjects: ReadonlySet<Term> | null, main: MainValue): number {
  const facts = readFacts(text, list, g);
  const input = firstInput;
  input.text = text;
  input.list = list;
  input.g = g;
  input.facts = facts;
  input.main = mainValueInto(facts, list, g, subjects, false, main);
  input.subjects = subjects;
  let points = 0;
  for (const rule of RULES) points += rule(input, null);
  // Let go of the page (the scratch outlives the call).
  input.text = '';
  input.list = null as unknown as MentionList;
  input.subjects = null;
  return points;
}

/** A case-insensitive matcher of the page's model names (longest first), or null when none are given. */
export function modelMatcher(models: readonly string[] | undefined): RegExp | null {
  const names = [...new Set((models ?? []).map((m) => m.trim()).filter((m) => m.length > 0))];
  if (names.length === 0) return null;
  names.sort((a, b) => b.length - a.length);
  const alt = names.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return new RegExp(`(?<![\\p{L}\\p{N}_.-])(?:${alt})(?![\\p{L}\\p{N}_]|[-.][\\p{L}\\p{N}])`, 'iu');
}

/**
 * Second phase: the checks that read the sentence text; returns the final score. `own` matches the names the page
 * uses for its own work (a report's system): said to adopt or use something, the sentence is the report's recipe.
 */
export function refine(sentence: string, draft: Draft, models: RegExp | null, own: RegExp | null = null): SentenceScore {
  let points = draft.points;
  const reasons = [...draft.reasons];
  const add = (p: number, why: string): void => {
    points += p;
    reasons.push(`${why} ${fmt(p)}`);
  };

  let model: string | null = null;
  let adopts = draft.adoption && !draft.negative;
  const named = models ? models.exec(sentence) : null;
  if (named) {
    model = named[0];
    add(1.5, `names ${model}`);
    if (stickyAt(MODEL_USES, sentence, named.index + model.length) !== -1) {
      adopts = true;
      if (!draft.negative) add(1.5, `${model} uses or is trained with it`);
    }
    // A "not used" finding said of the page's model is the report's own, first person or not.
    if (draft.negative && !draft.firstPerson) add(1.5, `said of ${model}`);
  } else if (MODEL_HINT.test(sentence)) {
    const token = modelTokens(sentence).find((t) => !NOT_MODELS.test(t));
    if (token) {
      model = token;
      add(OTHER_MODEL_BONUS, `names a model (${token})`);
    }
  }
  const self = !adopts && own ? own.exec(sentence) : null;
  if (self && stickyAt(MODEL_USES, sentence, self.index + self[0].length) !== -1) {
    adopts = true;
    if (!draft.negative) add(OWN_BONUS, `${self[0]} (the report’s own work) uses it`);
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
    // "we employ GRPO (Shao et al., 2024)": a citation of the method the report adopts is no sign of someone else's work.
    if (draft.adoption && cite[0] < 3) add(-0.5, `${cite[1]} of the method ${draft.negative ? 'not used' : 'adopted'}`);
    else if (extra > 0) add(-extra, cite[1]);
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
  if (CAPTION.test(sentence)) add(-2.5, 'a table or figure caption');

  return {
    score: Math.round(points * 100) / 100,
    reasons,
    kind: draft.kind,
    value: draft.value,
    values: draft.values,
    stage: draft.stage,
    model,
    polarity: draft.negative ? 'negative' : 'positive',
    negated: draft.negated,
    adopts,
  };
}

/** The end of a match of the sticky `re` at `at` in `text`, or -1. */
function stickyAt(re: RegExp, text: string, at: number): number {
  re.lastIndex = at;
  return re.test(text) ? re.lastIndex : -1;
}
