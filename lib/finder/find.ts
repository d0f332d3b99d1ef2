/**
 * The claim finder proper: one pass of the multi-pattern matcher over a
 * page's text, mentions grouped into sentences, sentences scored, the best
 * kept. Pure: works on a string, no DOM.
 */
import type { ClaimKind, Stage } from '../schema';
import type { Term } from '../taxonomy';
import { scanMentionList, type Meaning, type MentionList } from './matcher';
import type { MainValue } from './rules';
import { analyse, bonusBound, firstPoints, MODEL_BONUS, modelMatcher, refine, type Draft, type SentenceGroup, type SentenceScore } from './score';
import { spanAround, type Span } from './sentences';

/**
 * One passage worth a curator's look: its sentence's {@link SentenceScore} (a `negative` one is offered as a negative
 * finding, never as the value), where the sentence is, and its rank.
 */
export interface Candidate extends SentenceScore {
  /** Stable id for dismissal: a hash of the normalised sentence text. */
  key: string;
  /** Offset of the sentence in the text. */
  start: number;
  /** End offset (exclusive) of the sentence in the text. */
  end: number;
  /** The sentence (`text.slice(start, end)`). */
  sentence: string;
  /** 1 for the best-scored candidate returned, 2 for the next, … */
  rank: number;
}

/** What the finder reports for a page. */
export interface FinderResult {
  /** The best candidates, in document order. */
  candidates: Candidate[];
  /** The page mentions RL, rewards or policy optimisation enough to expect RL claims. */
  talksAboutRl: boolean;
  /** The page talks about RL but no candidate names a stage, algorithm or reward: offer "record as not disclosed". */
  suggestUndisclosed: boolean;
}

/** Options of {@link findCandidates}. */
export interface FinderOptions {
  /** The page's models (e.g. from `guessModels`), to reward sentences naming them. */
  models?: string[];
  /** Keys of candidates the curator dismissed: never returned. */
  dismissed?: ReadonlySet<string>;
  /** How many candidates to return at most (default {@link DEFAULT_LIMIT}). */
  limit?: number;
  /** Lowest score returned (default {@link DEFAULT_MIN_SCORE}). */
  minScore?: number;
  /**
   * Offsets of the text where a sentence ends though no punctuation says so (a PDF's heading lines and run-in
   * headings, from its layout), ascending: no candidate runs across one.
   */
  breaks?: ArrayLike<number>;
  /** Ranges of the text that hold no claims (a PDF's reference lists): their mentions are left out. */
  skip?: ReadonlyArray<{ start: number; end: number }>;
  /**
   * Names the page uses for its own work (the system or method a report's title names, e.g. "AReaL"): a sentence
   * saying it adopts, uses or is trained with something states the report's own recipe, as "we adopt" does.
   */
  own?: readonly string[];
}

/** Default number of candidates returned. */
export const DEFAULT_LIMIT = 20;
/** Default lowest score returned: a term alone is not enough, it needs a cue of use, a model or a pipeline. */
export const DEFAULT_MIN_SCORE = 3.5;
/** RL mentions (generic words, rewards, RL terms; at least one naming RL itself) that make a page "talk about RL". */
export const RL_TALK_THRESHOLD = 3;

const RL_STAGES: ReadonlySet<Stage> = new Set<Stage>(['reasoning_rl', 'agentic_rl', 'general_rl', 'vlm_omni_rl']);
const DISCLOSING_KINDS: ReadonlySet<ClaimKind> = new Set<ClaimKind>(['stage', 'algorithm', 'reward']);

/** Whether a term is itself about RL (counts towards `talksAboutRl`). */
function isRlTerm(term: Term): boolean {
  return term.kind === 'algorithm' || term.kind === 'reward' || (term.stage !== null && RL_STAGES.has(term.stage));
}

/** A term is the page's subject when it makes up this share of the page's term mentions… */
const SUBJECT_SHARE = 0.25;
/** …and is mentioned at least this often. */
const SUBJECT_MIN = 8;

/** Terms mentioned so often that they are what the page is about (a framework's own README). */
function pageSubjects(list: MentionList): Set<Term> | null {
  const counts = new Map<Term, number>();
  let total = 0;
  const { meanings, meaning } = list;
  for (let i = 0; i < list.count; i++) {
    const term = (meanings[meaning[i] as number] as Meaning).term;
    if (!term) continue;
    total++;
    // Only a framework or a system is a page's subject (its README); a report's central algorithm or reward is its claim.
    if (term.kind === 'framework' || term.kind === 'system') counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  let out: Set<Term> | null = null;
  for (const [term, count] of counts) if (count >= SUBJECT_MIN && count >= SUBJECT_SHARE * total) (out ??= new Set()).add(term);
  return out;
}

/** Lower-cased, white space collapsed, trimmed: what a candidate's key hashes. */
export function normalizeSentence(sentence: string): string {
  return sentence.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A 64-bit FNV-1a-style hash (two 32-bit lanes) of a string, as 16 hex digits. */
export function sentenceKey(sentence: string): string {
  const s = normalizeSentence(sentence);
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/** Candidates sorted best first (score, then document order); the input is not changed. */
export function rankCandidates<T extends { score: number; start: number }>(candidates: readonly T[]): T[] {
  return [...candidates].sort((x, y) => y.score - x.score || x.start - y.start);
}

/** What a mention counts for when sentences are grouped: a cue word, an RL signal word, a bare RL mention, a term that is or is not about RL. */
const ROLE_CUE = 0;
const ROLE_SIGNAL = 1;
const ROLE_RL = 2;
const ROLE_TERM = 3;
const ROLE_RL_TERM = 4;

/** Each pattern's ROLE_ code. */
function roleCodes(meanings: readonly Meaning[]): Uint8Array {
  const codes = new Uint8Array(meanings.length);
  meanings.forEach((m, k) => {
    codes[k] =
      m.role === 'cue' ? ROLE_CUE : m.role === 'signal' ? ROLE_SIGNAL : m.role === 'rl' ? ROLE_RL : m.term && isRlTerm(m.term) ? ROLE_RL_TERM : ROLE_TERM;
  });
  return codes;
}

/**
 * The sentences of a page as flat arrays (no object per sentence): sentence `k` spans [start[k], end[k]) and owns
 * mentions [from[k], to[k]); `capped[k]` is 1 for a run-on.
 */
interface GroupList {
  count: number;
  start: Int32Array;
  end: Int32Array;
  capped: Uint8Array;
  from: Int32Array;
  to: Int32Array;
}

/** Sentence `k` of a group list written into `g` (returns `g`). */
function groupAt(groups: GroupList, k: number, g: SentenceGroup): SentenceGroup {
  g.start = groups.start[k] as number;
  g.end = groups.end[k] as number;
  g.capped = groups.capped[k] === 1;
  g.from = groups.from[k] as number;
  g.to = groups.to[k] as number;
  return g;
}

/**
 * Groups the mentions into sentences: each term or bare-RL mention outside
 * the previous sentence opens one (its span from {@link spanAround}),
 * and a sentence owns every mention (cue words too) inside its span. Counts
 * RL talk on the way.
 */
function groupSentences(
  text: string,
  list: MentionList,
  breaks?: ArrayLike<number>,
  skip?: ReadonlyArray<{ start: number; end: number }>,
): { groups: GroupList; rlTalk: number; rlNamed: number } {
  // At most one sentence per mention.
  const size = list.count;
  const groups: GroupList = {
    count: 0,
    start: new Int32Array(size),
    end: new Int32Array(size),
    capped: new Uint8Array(size),
    from: new Int32Array(size),
    to: new Int32Array(size),
  };
  let rlTalk = 0;
  let rlNamed = 0;
  // The current sentence is the last one, k = count - 1 (none while count is 0).
  let count = 0;
  let currentEnd = 0;
  const span: Span = { start: 0, end: 0, capped: false };
  const skipped = skip && skip.length ? [...skip].sort((a, b) => a.start - b.start) : null;
  let s = 0;
  // Loop invariants in locals (the first call runs this loop before it is optimised).
  const roles = roleCodes(list.meanings);
  const { meaning, start: starts, end: ends, stops } = list;
  const { to } = groups;
  const mentions = list.count;
  for (let i = 0; i < mentions; i++) {
    const role = roles[meaning[i] as number] as number;
    const start = starts[i] as number;
    if (skipped) {
      while (s < skipped.length && (skipped[s] as { end: number }).end <= start) s++;
      if (s < skipped.length && (skipped[s] as { start: number }).start <= start) continue;
    }
    const inside = count > 0 && start < currentEnd;
    if (inside) to[count - 1] = i + 1;
    if (role === ROLE_CUE) continue;
    if (role !== ROLE_TERM) {
      // A signal word, a bare RL mention or an RL term.
      rlTalk++;
      if (role !== ROLE_SIGNAL) rlNamed++;
    }
    if (role === ROLE_SIGNAL || inside) continue;
    const floor = count > 0 ? currentEnd : 0;
    spanAround(text, start, ends[i] as number, floor, stops, breaks, span);
    // The sentence also owns the cue words before the mention.
    let from = i;
    const lowest = count > 0 ? (to[count - 1] as number) : 0;
    while (from > lowest && (starts[from - 1] as number) >= span.start) from--;
    groups.start[count] = span.start;
    groups.end[count] = span.end;
    groups.capped[count] = span.capped ? 1 : 0;
    groups.from[count] = from;
    to[count] = i + 1;
    currentEnd = span.end;
    count++;
  }
  groups.count = count;
  return { groups, rlTalk, rlNamed };
}

/** A candidate from a draft and its final score. */
function toCandidate(text: string, draft: Draft, scored: SentenceScore, key: string): Candidate {
  return { key, start: draft.start, end: draft.end, sentence: text.slice(draft.start, draft.end), ...scored, rank: 0 };
}

/**
 * Finds the sentences of a page's text that read like claims about a
 * model's RL recipe (rules in lib/finder/score.ts): the best `limit` of
 * those scoring at least `minScore`, in document order, each with its
 * `rank`. One pass of the matcher over the text; the expensive checks run
 * only on sentences whose first-phase score can still reach the list.
 */
export function findCandidates(text: string, options: FinderOptions = {}): FinderResult {
  const limit = Math.max(0, Math.floor(options.limit ?? DEFAULT_LIMIT));
  const minScore = options.minScore ?? DEFAULT_MIN_SCORE;
  const dismissed = options.dismissed;
  const models = modelMatcher(options.models);
  const own = modelMatcher(options.own);

  const list = scanMentionList(text);
  const subjects = pageSubjects(list);
  const { groups, rlTalk, rlNamed } = groupSentences(text, list, options.breaks, options.skip);
  // Reward talk alone ("earn rewards") is not RL talk: RL itself or an RL term must be named.
  const talksAboutRl = rlTalk >= RL_TALK_THRESHOLD && rlNamed > 0;

  // First phase for every sentence (its points only, nothing allocated); the second only while it can change the
  // outcome, on a draft built then.
  const points = new Float64Array(groups.count);
  const disclosing = new Uint8Array(groups.count);
  const kept = new Int32Array(groups.count);
  let keptCount = 0;
  const scratch: SentenceGroup = { start: 0, end: 0, capped: false, from: 0, to: 0 };
  const main: MainValue = { kind: 'stage', value: '', stage: null, values: [], main: null, source: 'positive' };
  for (let k = 0; k < groups.count; k++) {
    const p = firstPoints(text, list, groupAt(groups, k, scratch), subjects, main);
    points[k] = p;
    disclosing[k] = isDisclosing(main.kind, main.stage) ? 1 : 0;
    if (p + MODEL_BONUS >= minScore) kept[keptCount++] = k;
  }
  const order = bestFirst(points, kept, keptCount);

  const best: Candidate[] = []; // sorted by score desc, then start
  const drafted = new Map<Candidate, SentenceGroup>();
  let discloses = false;
  const insert = (c: Candidate): void => {
    let i = best.length;
    while (i > 0 && (best[i - 1] as Candidate).score < c.score) i--;
    while (i > 0 && (best[i - 1] as Candidate).score === c.score && (best[i - 1] as Candidate).start > c.start) i--;
    best.splice(i, 0, c);
    if (best.length > limit) best.pop();
  };
  for (let o = 0; o < keptCount; o++) {
    const k = order[o] as number;
    const upper = (points[k] as number) + MODEL_BONUS;
    const worst = best[best.length - 1];
    const full = best.length >= limit;
    const cannotEnter =
      full && (limit === 0 || (worst !== undefined && (worst.score > upper || (worst.score === upper && worst.start < (groups.start[k] as number)))));
    const couldDisclose = !discloses && disclosing[k] === 1;
    if (cannotEnter && !couldDisclose) {
      if (discloses || !talksAboutRl) break;
      continue;
    }
    const sentence = text.slice(groups.start[k] as number, groups.end[k] as number);
    if (full && !couldDisclose && worst !== undefined) {
      // The bound for this sentence (most name no page model) may keep it off the list after all: then its second
      // phase could change nothing (the loop goes on, as the first-phase order does not follow this bound).
      const bound = Math.round(((points[k] as number) + bonusBound(sentence, models, own) + 1e-6) * 100) / 100;
      if (worst.score > bound || (worst.score === bound && worst.start < (groups.start[k] as number))) continue;
    }
    const d = analyse(text, list, groupAt(groups, k, { start: 0, end: 0, capped: false, from: 0, to: 0 }), subjects, false);
    const key = sentenceKey(sentence);
    if (dismissed?.has(key)) continue;
    const scored = refine(sentence, d, models, own);
    if (scored.score < minScore) continue;
    if (isDisclosing(scored.kind, scored.stage)) discloses = true;
    if (!cannotEnter) {
      const c = toCandidate(text, d, scored, key);
      drafted.set(c, d.group);
      insert(c);
    }
  }

  best.forEach((c, i) => {
    c.rank = i + 1;
    // The first pass kept no reasons: write them for the sentences returned.
    const explained = refine(c.sentence, analyse(text, list, drafted.get(c) as SentenceGroup, subjects, true), models, own);
    c.reasons = explained.reasons;
    c.values = explained.values;
    c.negated = explained.negated;
  });
  const candidates = [...best].sort((x, y) => x.start - y.start);
  return { candidates, talksAboutRl, suggestUndisclosed: talksAboutRl && !discloses };
}

/**
 * The kept sentences' indices (`kept`, ascending) ordered best first: points descending, then document order. Points
 * are sums of eighths (weights, their halves and quarters), so each sentence sorts as one number, natively; any other
 * points fall back to a comparison sort, same order.
 */
function bestFirst(points: Float64Array, kept: Int32Array, n: number): Int32Array {
  const keys = new Float64Array(n);
  for (let o = 0; o < n; o++) {
    const k = kept[o] as number;
    const scaled = -(points[k] as number) * 8;
    if (!Number.isInteger(scaled) || Math.abs(scaled) >= 2 ** 20) {
      const order = Array.from(kept.subarray(0, n));
      order.sort((x, y) => (points[y] as number) - (points[x] as number) || x - y);
      return Int32Array.from(order);
    }
    keys[o] = scaled * 2 ** 32 + k;
  }
  keys.sort();
  const order = new Int32Array(n);
  for (let o = 0; o < n; o++) {
    const key = keys[o] as number;
    order[o] = key - Math.floor(key / 2 ** 32) * 2 ** 32;
  }
  return order;
}

/** Whether a candidate of this kind and stage discloses a stage, an algorithm or a reward. */
function isDisclosing(kind: ClaimKind, stage: Stage | null): boolean {
  return DISCLOSING_KINDS.has(kind) && (kind !== 'stage' || stage !== null);
}

/**
 * Scores one sentence on its own, as the finder would (no page context: no
 * page subjects, no run-on cap); null when it names no term and no RL.
 */
export function scoreSentence(sentence: string, options: { models?: string[] } = {}): SentenceScore | null {
  const list = scanMentionList(sentence);
  let named = false;
  for (let i = 0; i < list.count; i++) {
    const role = (list.meanings[list.meaning[i] as number] as Meaning).role;
    if (role === 'term' || role === 'rl') named = true;
  }
  if (!named) return null;
  const group: SentenceGroup = { start: 0, end: sentence.length, capped: false, from: 0, to: list.count };
  return refine(sentence, analyse(sentence, list, group, null, true), modelMatcher(options.models));
}
