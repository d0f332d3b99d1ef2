/**
 * The finder's multi-pattern matcher: one Aho–Corasick automaton (a full
 * transition table) over every taxonomy name and alias, a few generic RL
 * words and the scoring's cue words (verbs of use, first person, negations,
 * benchmark talk, … in English and Chinese), run once over a page's text.
 *
 * It follows the taxonomy's matching rules (lib/taxonomy/match.ts): case is
 * folded, runs of white space, hyphens and dashes count as one separator,
 * short all-capital acronyms ("PPO", "SFT", "RL") match case-sensitively,
 * names sit on word boundaries where only Latin/Greek/Cyrillic letters,
 * digits and "_" are word characters (so CJK text next to a name is a
 * boundary), and a trailing plural "s" is accepted. Overlapping mentions
 * resolve leftmost-longest, and a cue word never hides a term. The
 * taxonomy's own `findTerms` walks a trie from every position with map
 * look-ups; this table-driven pass is several times faster on megabyte pages.
 * The word-boundary and separator rules are folded into the table when it is
 * built, so the scan makes one look-up per character.
 */
import { TERMS, type Term } from '../taxonomy';
import { foldChar, isSeparator, nameVariants as variants, SEPARATOR_CODES } from '../taxonomy/names';
import { MAY_END, MAY_END_CODES, type Stops } from './sentences';

/** What a pattern stands for: a taxonomy term, a generic RL mention, a word that only signals RL talk, or a scoring cue. */
export type PatternRole = 'term' | 'rl' | 'signal' | 'cue';

/** Cue flags (a cue word may carry several). */
export const CUE = {
  /** A verb of use: "use", "adopt", "leverage", "built on", "采用". */
  USE: 1 << 0,
  /** A participle that is a verb of use when a preposition follows: "trained … with", "通过 … 训练". */
  PARTICIPLE: 1 << 1,
  /** A weaker cue: "introduce", "propose", "based on". */
  WEAK: 1 << 2,
  /** Pipeline wording: "pipeline", "stage", "recipe", "阶段". */
  STRUCTURE: 1 << 3,
  /** First person: "we", "our", "我们". */
  FIRST_PERSON: 1 << 4,
  /** Negates or contrasts the term that follows: "unlike", "without", "instead of", "不同于". */
  NEGATE_NEXT: 1 << 5,
  /** Negates the term before it: "is not", "并未", "相比". */
  NEGATE_PREVIOUS: 1 << 6,
  /** The terms that follow are examples: "such as", "e.g.". */
  EXAMPLE: 1 << 7,
  /** The term before it describes something else: "… framework", "… workloads". */
  DESCRIPTOR: 1 << 8,
  /** Benchmark or comparison talk: "baseline", "outperform", "AIME". */
  BENCHMARK: 1 << 9,
  /** Capability wording: "supports", "compatible with". */
  CAPABILITY: 1 << 10,
  /** Plans: "will", "future work". */
  FUTURE: 1 << 11,
  /** News of events: "meetup", "presented at". */
  EVENT: 1 << 12,
  /** "et al.", "等人". */
  ET_AL: 1 << 13,
  /** Qualifiers of a bare RL mention (one per stage reading). */
  Q_VLM: 1 << 14,
  Q_AGENTIC: 1 << 15,
  Q_PREFERENCE: 1 << 16,
  Q_GENERAL: 1 << 17,
  Q_REASONING: 1 << 18,
  /** A plain negation whose reach is the rest of its clause: "not", "without", "no", "没有使用" (with NEGATE_NEXT and NOT_USED). */
  CLAUSE_NEGATION: 1 << 19,
  /** A negated or replaced term is a "not used" finding: plain negations and alternatives ("instead of", "rather than"). */
  NOT_USED: 1 << 20,
  /** A use for evaluation or comparison, not training: "to evaluate", "for a fair comparison". */
  EVALUATION: 1 << 21,
} as const;

/** One mention found by the matcher. */
export interface Mention {
  /** Offset of the mention in the text. */
  start: number;
  /** End offset (exclusive), including an accepted plural "s". */
  end: number;
  /** What the mention stands for. */
  role: PatternRole;
  /** The taxonomy term, when `role` is "term". */
  term: Term | null;
  /** Cue flags, when `role` is "cue" (see {@link CUE}). */
  cue: number;
}

/** Generic RL mentions: candidates only when a sentence also uses them in a claim-like way. */
const RL_WORDS = ['RL', 'reinforcement learning', '强化学习'];
/** Words that only count towards "the page talks about RL". */
const SIGNAL_WORDS = ['reward', 'policy optimization', 'policy optimisation', 'policy gradient', 'rollout', '奖励', '策略优化'];

/** Cue words by flags, English and Chinese, separated by "|". */
const CUE_WORDS: ReadonlyArray<readonly [number, string]> = [
  [
    CUE.USE,
    'use|used|using|utilize|utilized|utilizing|utilise|utilised|utilising|adopt|adopted|adopting|apply|applies|applied|applying|employ|employed|employing|leverage|leveraged|leveraging|incorporate|incorporated|incorporating|behind',
  ],
  [
    CUE.USE,
    'rely on|relies on|relied on|relying on|built on|built upon|built with|powered by|采用|使用|利用|引入|基于|借助|应用|采取|运用|训练了|训练得到|经过',
  ],
  [CUE.PARTICIPLE, 'trained|fine-tuned|finetuned|optimized|optimised|post-trained|posttrained|distilled|通过|进行'],
  [
    CUE.WEAK,
    'introduce|introduced|introducing|propose|proposed|proposing|present|presents|develop|develops|developed|contribute|contributes|conduct|conducts|conducted|perform|performs|performed|focus on|focuses on|focused on|carry out|carries out|carried out|implement|implemented|implementing|consists|consisting|based on|consist of|consists of|consisting of|followed by|builds on|builds upon|build on|build upon',
  ],
  [CUE.STRUCTURE, 'pipeline|stage|phase|recipe|post-training|posttraining|include|includes|comprise|comprises|阶段|流程|管线|配方|后训练|包括|包含|分为'],
  [CUE.FIRST_PERSON, 'we|our|我们|本文|我方'],
  [
    CUE.NEGATE_NEXT | CUE.NOT_USED | CUE.CLAUSE_NEGATION,
    "without|not|no|never|nor|neither|don't|doesn't|didn't|don’t|doesn’t|didn’t|不使用|未使用|没有使用|没有|无需|不需要|不采用|不依赖|未采用|并未使用",
  ],
  [
    CUE.NEGATE_NEXT | CUE.NOT_USED,
    'instead of|rather than|as opposed to|distinct from|distinguishing itself from|distinguishes itself from|replace|replaces|replaced|replacing|而非|而不是|替代|取代',
  ],
  [CUE.NEGATE_NEXT, 'unlike|versus|vs|except|in contrast to|other than|不同于|不像|相比于|相较于|除了'],
  [
    CUE.EVALUATION,
    'to evaluate|to compare|to measure|to benchmark|for comparison|for a fair comparison|as a baseline|as baselines|additional experiments|further experiments|ablation study|ablation studies|评估|对比实验',
  ],
  [
    CUE.NEGATE_NEXT | CUE.BENCHMARK,
    'surpass|surpasses|surpassed|surpassing|outperform|outperforms|outperformed|outperforming|beat|beats|baseline|baselines|compared with|compared to|优于|超过|对比',
  ],
  [CUE.NEGATE_NEXT | CUE.NEGATE_PREVIOUS | CUE.BENCHMARK, '相比'],
  [CUE.NEGATE_PREVIOUS, 'is not|was not|are not|were not|is never|was never|并未|未被|没有被'],
  [CUE.EXAMPLE, 'like|including|etc|such as|e.g|for example|for instance'],
  [CUE.DESCRIPTOR, 'framework|library|libraries|toolkit|engine|infrastructure|server|sdk|substrate|workload|workloads|example|examples|research|paper|project'],
  [
    CUE.BENCHMARK,
    'sota|state-of-the-art|benchmark|leaderboard|AIME|MATH-500|GPQA|LiveCodeBench|Codeforces|MMLU|SWE-bench|Arena-Hard|ArenaHard|IFEval|accuracy|ablation|ablations|基线|超越|榜单',
  ],
  [
    CUE.CAPABILITY,
    'support|supports|supported|compatible with|can be used|can be configured|can be extended|allows users|allow users|allows you|enables users|enable users|enables you|easy to|out of the box|支持|兼容',
  ],
  [CUE.FUTURE, 'will|upcoming|roadmap|plan to|plans to|planned to|future work|looking ahead|coming soon|未来|将会|计划'],
  [
    CUE.EVENT,
    'meetup|webinar|keynote|workshop|slides|tutorial|talk|talks|conference|summit|expo|presented at|presented in|accepted to|accepted at|accepted by|研讨会|分享会',
  ],
  [CUE.ET_AL, 'et al|等人'],
  [CUE.Q_VLM, 'multimodal|multi-modal|vision-language|visual|VLM|VLMs|omni-modal|omnimodal|image|video|多模态|视觉'],
  [CUE.Q_AGENTIC, 'agent|agents|agentic|tool|tools|tool-use|tool-calling|智能体|工具'],
  [CUE.Q_PREFERENCE, 'preference|preferences|alignment|aligning|helpfulness|harmlessness|human feedback|偏好|对齐'],
  [CUE.Q_GENERAL, 'general|general-domain|general-purpose|通用'],
  [CUE.Q_REASONING, 'reasoning|math|mathematics|coding|code|verifiable|STEM|推理|数学|代码'],
];

/** What a matched pattern means: its role, taxonomy term and cue flags. */
export interface Meaning {
  /** Term, bare RL, RL signal or cue. */
  readonly role: PatternRole;
  /** The taxonomy term, for terms. */
  readonly term: Term | null;
  /** Cue flags, for cues. */
  readonly cue: number;
}

/**
 * The matcher's output as flat arrays (no object per mention): mention `i`
 * spans [start[i], end[i]) and means `meanings[meaning[i]]`, in text order.
 */
export interface MentionList {
  /** Number of mentions. */
  count: number;
  /** Start offsets. */
  start: Int32Array;
  /** End offsets (exclusive). */
  end: Int32Array;
  /** Index into `meanings`. */
  meaning: Int32Array;
  /** Every pattern's meaning. */
  meanings: readonly Meaning[];
  /** Offsets of the characters that may end a sentence, collected on the same pass. */
  stops: Stops;
}

interface Pattern extends Meaning {
  /** Index in the automaton's pattern list. */
  id: number;
  /** The name as written, separators collapsed (for case-sensitive acronyms). */
  exact: string;
  caseSensitive: boolean;
  /** Length in automaton symbols. */
  length: number;
  /** Ends in a word character: the next character must not be one. */
  checkEnd: boolean;
  /** A plural "s" may follow (ends in a letter). */
  plural: boolean;
  /** Its role's priority when mentions overlap (see `PRIORITY`). */
  priority: number;
}

const ACRONYM = /^[A-Z][A-Z0-9]{1,5}$/;
/** Runs of word characters (Latin, Greek, Cyrillic letters, digits of any script, "_"). */
const WORD_RUNS = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}_]+/gu;
/**
 * Symbols: 0 a character no pattern contains, 1 a separator run, 2 a word's
 * end before other punctuation, 3 a word's end at a separator run; then
 * pattern characters, with a separate symbol for a word character that
 * starts a word.
 */
const SYM_OTHER = 0;
const SYM_SEP = 1;
const SYM_END = 2;
const SYM_END_SEP = 3;
/** Positions of the last fed symbols (longer than any pattern). */
const RING = 256;
/** Role priority when mentions overlap: a cue never hides a term. */
const PRIORITY: Record<PatternRole, number> = { term: 3, rl: 2, signal: 1, cue: 0 };

/**
 * The scanner: the Aho–Corasick automaton over symbols composed with the rules that turn characters into symbols
 * (word starts, word ends, separator runs), so that the scan makes one table step per character. A scanner state
 * is an automaton state with what the last character was (in a word, a separator, other); characters fall into
 * classes that no state tells apart.
 */
interface Automaton {
  /** Character code → class. */
  cls: Uint8Array | Uint16Array;
  /** Number of classes (a table row's length). */
  classes: number;
  /** Classes from this one on are characters that may end a sentence (see `MAY_END`). */
  stopClass: number;
  /**
   * step[state × classes + class] = next state << 3 | 4 when patterns end there | the number of symbols the
   * character fed (0, 1 or 2: a word's end, then the character); a row is filled ({@link fillRow}) the first time
   * the scan reaches its state, {@link UNFILLED} until then.
   */
  step: Uint16Array | Uint32Array;
  /** The state at the text's start (the root, as after a separator). */
  start: number;
  /** The symbol automaton the rows are worked out from. */
  symbols: SymbolAutomaton;
  /** Each class's symbol, initial symbol (word characters) and whether it is a word character's. */
  classSym: Uint16Array;
  classInitial: Uint16Array;
  classWord: Uint8Array;
  /** Patterns ending in each scanner state (own, then inherited through suffix links), best first. */
  out: Array<Pattern[] | null>;
  /** Character code → 1 for word characters. */
  word: Uint8Array;
  /** Every pattern, by id. */
  patterns: Pattern[];
}

let automaton: Automaton | null = null;

/**
 * Builds the automaton. Word boundaries are part of the patterns: a word
 * character that starts a word has its own symbol, and a word's end is a
 * symbol, in the patterns as in the text, so a name can only start at a
 * word start and only a name ending in a word character needs its end
 * checked (the next character must not be a word character, bar a plural
 * "s").
 */
function build(): Automaton {
  const word = new Uint8Array(65536);
  for (let c = 0; c < 128; c++) word[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 ? 1 : 0;
  // Other word characters (Latin, Greek, Cyrillic letters and digits of any script) in one regex pass
  // over a string of every other BMP character (surrogates blanked).
  const codes = new Uint16Array(65536 - 128);
  for (let k = 0; k < codes.length; k++) codes[k] = k + 128 >= 0xd800 && k + 128 < 0xe000 ? 32 : k + 128;
  const chars = new TextDecoder('utf-16le').decode(codes);
  // Runs of them, not one match per character: a few hundred matches instead of thousands.
  for (const m of chars.matchAll(WORD_RUNS)) word.fill(1, (m.index as number) + 128, (m.index as number) + 128 + (m[0] as string).length);
  const sym = new Uint16Array(65536);
  const initial = new Uint16Array(65536);
  for (const c of SEPARATOR_CODES) sym[c] = SYM_SEP;
  let alphabet = 4;
  const wordSymbols: number[] = [];
  const initialSymbols: number[] = [];
  // The characters given a symbol (the others feed SYM_OTHER).
  const special: number[] = [...SEPARATOR_CODES];
  const symbolOf = (ch: string): number => {
    const c = foldChar(ch).charCodeAt(0);
    if (sym[c] === SYM_OTHER) {
      sym[c] = alphabet++;
      special.push(c);
      if (word[c] === 1) wordSymbols.push(sym[c] as number);
    }
    return sym[c] as number;
  };
  const initialOf = (ch: string): number => {
    const c = foldChar(ch).charCodeAt(0);
    if (initial[c] === SYM_OTHER) {
      initial[c] = alphabet++;
      special.push(c);
      initialSymbols.push(initial[c] as number);
    }
    return initial[c] as number;
  };

  const names: Array<[string, PatternRole, Term | null, number]> = [];
  for (const term of TERMS) for (const name of [term.canonical, ...term.aliases]) names.push([name, 'term', term, 0]);
  for (const w of RL_WORDS) names.push([w, 'rl', null, 0]);
  for (const w of SIGNAL_WORDS) names.push([w, 'signal', null, 0]);
  const cueFlags = new Map<string, number>();
  for (const [flags, list] of CUE_WORDS) {
    for (const w of list.split('|')) {
      const cueWord = w.trim();
      if (cueWord) cueFlags.set(cueWord, (cueFlags.get(cueWord) ?? 0) | flags);
    }
  }
  for (const [cueWord, flags] of cueFlags) names.push([cueWord, 'cue', null, flags]);
  // ASCII symbols first: Latin text then touches only the first columns of each table row.
  for (const [name] of names) {
    for (const ch of name) {
      const c = ch.charCodeAt(0);
      if (c >= 128 || isSeparator(ch)) continue;
      symbolOf(ch);
      if (word[c] === 1) initialOf(ch);
    }
  }

  const patterns: Array<{ key: number[]; pattern: Pattern }> = [];
  const add = (name: string, role: PatternRole, term: Term | null, cue: number): void => {
    for (const v of variants(name)) {
      if (!v) continue;
      const key: number[] = [];
      let inWord = false;
      for (const ch of v) {
        if (ch === ' ') {
          key.push(inWord ? SYM_END_SEP : SYM_SEP);
          inWord = false;
          continue;
        }
        if (word[ch.charCodeAt(0)] === 1) {
          key.push(inWord ? symbolOf(ch) : initialOf(ch));
          inWord = true;
        } else {
          if (inWord) key.push(SYM_END);
          key.push(symbolOf(ch));
          inWord = false;
        }
      }
      const pattern: Pattern = {
        role,
        term,
        cue,
        exact: v,
        caseSensitive: role !== 'cue' && ACRONYM.test(v),
        id: patterns.length,
        length: key.length,
        checkEnd: inWord,
        plural: inWord && /\p{L}$/u.test(v),
        priority: PRIORITY[role],
      };
      patterns.push({ key, pattern });
    }
  };
  for (const [name, role, term, cue] of names) add(name, role, term, cue);
  for (let c = 65; c <= 90; c++) {
    sym[c] = sym[c + 32] as number;
    initial[c] = initial[c + 32] as number;
    special.push(c);
  }

  // Trie.
  const goto: Array<Map<number, number>> = [new Map()];
  const lastSymbol: number[] = [SYM_OTHER];
  const own: Array<Pattern[] | null> = [null];
  for (const { key, pattern } of patterns) {
    let s = 0;
    for (const a of key) {
      let next = goto[s]!.get(a);
      if (next === undefined) {
        next = goto.length;
        goto.push(new Map());
        own.push(null);
        goto[s]!.set(a, next);
        lastSymbol.push(a);
      }
      s = next;
    }
    const list = own[s] ?? [];
    // One entry per spelling: the first term to claim a name keeps it, as in the taxonomy.
    if (!list.some((p) => p.exact === pattern.exact)) list.push(pattern);
    own[s] = list;
  }
  for (const list of own) list?.sort((x, y) => PRIORITY[y.role] - PRIORITY[x.role]);

  // Breadth-first: failure links, full transitions (a state's row is its failure state's row with
  // its own edges written over), inherited outputs (longer first).
  const states = goto.length;
  if (states >= 65536) throw new Error('finder: too many patterns for the transition table');
  const delta = new Uint16Array(states * alphabet);
  const fail = new Int32Array(states);
  const out: Array<Pattern[] | null> = own.map((l) => (l ? [...l] : null));
  const queue: number[] = [];
  for (const [a, t] of goto[0]!) {
    delta[a] = t;
    queue.push(t);
  }
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q] as number;
    const f = fail[s] as number;
    const inherited = out[f];
    if (inherited) out[s] = [...(out[s] ?? []), ...inherited];
    delta.copyWithin(s * alphabet, f * alphabet, f * alphabet + alphabet);
    for (const [a, t] of goto[s]!) {
      fail[t] = delta[f * alphabet + a] as number;
      delta[s * alphabet + a] = t;
      queue.push(t);
    }
  }
  // Unknown characters lead to the root: no pattern has symbol 0, so the root's 0 was copied everywhere.
  const final = new Uint8Array(states);
  for (let t = 0; t < states; t++) final[t] = out[t] ? 1 : 0;
  const starts = new Uint8Array(alphabet);
  for (let a = 0; a < alphabet; a++) starts[a] = delta[a] !== 0 ? 1 : 0;
  // The scan skips the inside of words at the root: no pattern may start with a mid-word symbol.
  for (const a of wordSymbols) if (starts[a] === 1) throw new Error('finder: a pattern starts inside a word');
  // What the last character was in each state: its last symbol tells (a state is only entered on that symbol).
  const wordSymbol = new Uint8Array(alphabet);
  for (const x of wordSymbols) wordSymbol[x] = 1;
  for (const x of initialSymbols) wordSymbol[x] = 1;
  const mode = new Uint8Array(states);
  for (let t = 1; t < states; t++) {
    const x = lastSymbol[t] as number;
    mode[t] = x === SYM_SEP || x === SYM_END_SEP ? AFTER_SEP : wordSymbol[x] === 1 ? IN_WORD : AFTER_OTHER;
  }
  return compose(
    { sym, initial, word, delta, final, out, alphabet, starts, mode },
    patterns.map((p) => p.pattern),
    special,
  );
}

/** The symbol automaton of {@link build}, before {@link compose} folds the character rules into it. */
interface SymbolAutomaton {
  /** Character code → symbol. */
  sym: Uint16Array;
  /** Character code → symbol when the character starts a word. */
  initial: Uint16Array;
  /** Character code → 1 for word characters. */
  word: Uint8Array;
  /** delta[state × alphabet + symbol] → next state. */
  delta: Uint16Array;
  /** final[state] = 1 when a pattern ends in the state. */
  final: Uint8Array;
  /** Patterns ending in each state. */
  out: Array<Pattern[] | null>;
  alphabet: number;
  /** starts[symbol] = 1 when some pattern starts with the symbol (the root moves on it). */
  starts: Uint8Array;
  /** What the last character was in each state but the root (see `IN_WORD`). */
  mode: Uint8Array;
}

/** What the last character was, in a scanner state: inside a word, a separator (or the text's start), other. */
const IN_WORD = 0;
const AFTER_SEP = 1;
const AFTER_OTHER = 2;

/**
 * The scanner of a symbol automaton: the character classes (characters that feed the same symbols and end sentences
 * alike) and an empty table, whose rows {@link fillRow} works out as the scan reaches their states.
 */
function compose(a: SymbolAutomaton, patterns: Pattern[], special: readonly number[]): Automaton {
  const { sym, initial, word, alphabet } = a;
  // Class 0: other characters no pattern has; class 1: word characters no pattern has; then one class per set of
  // characters that feed the same symbols (the pattern characters and separators), sentence enders last.
  const keyOf = (c: number): number => {
    const w = word[c] as number;
    const stop = sym[c] === SYM_SEP ? c === 10 : w === 0 && MAY_END[c] === 1;
    return (((stop ? 1 : 0) * 2 + w) * alphabet + (sym[c] as number)) * alphabet + (w === 1 ? (initial[c] as number) : 0);
  };
  const isStop = (key: number): boolean => key >= 2 * alphabet * alphabet;
  const byKey = new Map<number, number>([
    [keyOf(0xffff), 0],
    [alphabet * alphabet, 1],
  ]);
  if (word[0xffff] === 1 || sym[0xffff] !== SYM_OTHER || MAY_END[0xffff] === 1) throw new Error('finder: U+FFFF is no plain character');
  const codes = [...new Set([...special, ...MAY_END_CODES])].sort((x, y) => x - y);
  const keys = codes.map(keyOf);
  const ordered = [...new Set(keys)].filter((key) => !byKey.has(key)).sort((x, y) => Number(isStop(x)) - Number(isStop(y)));
  for (const key of ordered) byKey.set(key, byKey.size);
  const classes = byKey.size;
  const stopClass = ordered.findIndex(isStop);
  const cls = classes <= 256 ? new Uint8Array(65536) : new Uint16Array(65536);
  // Plain characters: class 1 for word characters, 0 for the others.
  cls.set(word);
  const classSym = new Uint16Array(classes);
  const classInitial = new Uint16Array(classes);
  const classWord = new Uint8Array(classes);
  classWord[1] = 1;
  codes.forEach((c, i) => {
    const k = byKey.get(keys[i] as number) as number;
    cls[c] = k;
    classSym[k] = sym[c] as number;
    classInitial[k] = initial[c] as number;
    classWord[k] = word[c] as number;
  });

  // Scanner states: each state of the symbol automaton but the root (same number), with what its last character was;
  // the root three times after them, after a separator (the text's start), in a word and after other characters.
  // Number 0 is no state, so a zero entry is an unfilled row: the table needs no filling (and its pages are only
  // touched where rows are filled).
  const states = a.out.length + 3;
  const step = states * 8 <= 0x10000 ? new Uint16Array(states * classes) : new Uint32Array(states * classes);
  const out: Array<Pattern[] | null> = [...a.out, null, null, null];
  out[0] = null;
  return {
    cls,
    classes,
    stopClass: stopClass === -1 ? classes : stopClass + 2,
    step,
    start: a.out.length + AFTER_SEP,
    out,
    word,
    patterns,
    symbols: a,
    classSym,
    classInitial,
    classWord,
  };
}

/** A table entry no step can be (it would lead to state 0): the row is not filled yet. */
const UNFILLED = 0;

/** The scanner state of a symbol-automaton state and what the last character was. */
function stateId(a: SymbolAutomaton, v: number, mode: number): number {
  if (v !== 0) {
    if (a.mode[v] !== mode) throw new Error('finder: a state entered after different characters');
    return v;
  }
  return a.out.length + mode;
}

/**
 * Fills the table row of scanner state `q`: for each character class, the next state, whether patterns end there
 * and the symbols fed, by the per-character rules (a word character that starts a word feeds its initial symbol,
 * the first separator of a run after a word feeds a word's end at a separator run, other punctuation after a word
 * feeds a word's end then itself; at the root, what starts no pattern is not fed).
 */
function fillRow(auto: Automaton, q: number): void {
  const a = auto.symbols;
  const { delta, final, alphabet, starts } = a;
  const s = a.out.length;
  const v0 = q < s ? q : 0;
  const mode0 = q < s ? (a.mode[q] as number) : q - s;
  const { classes, classSym, classInitial, classWord, step } = auto;
  for (let k = 0; k < classes; k++) {
    // The per-character rules, for the characters of the class.
    let v = v0;
    let fed = 0;
    let mode: number;
    let check = false;
    const x = classSym[k] as number;
    if (x === SYM_SEP) {
      if (mode0 === IN_WORD) {
        if (v !== 0) {
          fed = 1;
          v = delta[v * alphabet + SYM_END_SEP] as number;
        }
      } else if (mode0 !== AFTER_SEP && v !== 0) {
        fed = 1;
        v = delta[v * alphabet + SYM_SEP] as number;
      }
      mode = AFTER_SEP;
    } else if (classWord[k] === 1) {
      mode = IN_WORD;
      const b = mode0 === IN_WORD ? x : (classInitial[k] as number);
      if (!(v === 0 && (mode0 === IN_WORD || starts[b] === 0))) {
        fed = 1;
        v = delta[v * alphabet + b] as number;
        check = true;
      }
    } else {
      mode = AFTER_OTHER;
      if (mode0 === IN_WORD && v !== 0) {
        fed = 1;
        v = delta[v * alphabet + SYM_END] as number;
      }
      if (!(v === 0 && starts[x] === 0)) {
        fed++;
        v = delta[v * alphabet + x] as number;
        check = true;
      }
    }
    step[q * classes + k] = stateId(a, v, mode) * 8 + (check && final[v] === 1 ? 4 : 0) + fed;
  }
}

function getAutomaton(): Automaton {
  automaton ??= build();
  return automaton;
}

/** Growable flat storage of mentions while scanning. */
class Collector implements MentionList {
  count = 0;
  stops: Stops;
  start: Int32Array;
  end: Int32Array;
  meaning: Int32Array;
  constructor(
    capacity: number,
    readonly meanings: readonly Pattern[],
  ) {
    this.start = new Int32Array(capacity);
    this.end = new Int32Array(capacity);
    this.meaning = new Int32Array(capacity);
    this.stops = { at: new Int32Array(capacity), count: 0 };
  }

  /** Notes a character that may end a sentence. */
  stop(at: number): void {
    const stops = this.stops;
    if (stops.count === stops.at.length) {
      const bigger = new Int32Array(stops.at.length * 2);
      bigger.set(stops.at);
      stops.at = bigger;
    }
    stops.at[stops.count++] = at;
  }

  /** Adds a mention, dropping the chosen ones it beats (they are at the tail) or itself when it loses. */
  add(start: number, end: number, p: Pattern): void {
    const pr = p.priority;
    const len = end - start;
    let k = this.count;
    while (k > 0 && (this.end[k - 1] as number) > start) k--;
    for (let j = k; j < this.count; j++) {
      const po = (this.meanings[this.meaning[j] as number] as Pattern).priority;
      // The higher role wins, then the longer mention.
      if (!(pr > po || (pr === po && len > (this.end[j] as number) - (this.start[j] as number)))) return;
    }
    this.count = k;
    if (k === this.start.length) this.grow();
    this.start[k] = start;
    this.end[k] = end;
    this.meaning[k] = p.id;
    this.count = k + 1;
  }

  private grow(): void {
    const size = this.start.length * 2;
    const copy = (a: Int32Array): Int32Array => {
      const b = new Int32Array(size);
      b.set(a);
      return b;
    };
    this.start = copy(this.start);
    this.end = copy(this.end);
    this.meaning = copy(this.meaning);
  }
}

/**
 * Every taxonomy, generic-RL, RL-signal and cue mention in `text`, in text
 * order, non-overlapping (leftmost-longest; a cue never hides a term), as
 * flat arrays. One pass over the text.
 */
export function scanMentionList(text: string): MentionList {
  const auto = getAutomaton();
  const { cls, classes, stopClass, step, out, word, patterns } = auto;
  const found = new Collector(64 + (text.length >> 5), patterns);
  // ring[k mod RING]: the offset of the character that fed the k-th symbol. Each character writes the two slots it
  // may feed and moves on by what it fed (a slot written but not fed is written again by the next feeding character).
  const ring = new Int32Array(RING);
  const n = text.length;
  let fed = 0;
  let state = auto.start;
  for (let i = 0; i < n; i++) {
    const k = cls[text.charCodeAt(i)] as number;
    if (k >= stopClass) found.stop(i);
    let x = step[state * classes + k] as number;
    if (x === UNFILLED) {
      fillRow(auto, state);
      x = step[state * classes + k] as number;
    }
    ring[fed & (RING - 1)] = i;
    ring[(fed + 1) & (RING - 1)] = i;
    fed += x & 3;
    state = x >>> 3;
    if ((x & 4) !== 0) record(text, word, out[state] as Pattern[], ring, fed, i + 1, found);
  }
  return found;
}

/** {@link scanMentionList} as objects (for tests and callers that want few mentions). */
export function scanMentions(text: string): Mention[] {
  const list = scanMentionList(text);
  const out: Mention[] = [];
  for (let i = 0; i < list.count; i++) {
    const m = list.meanings[list.meaning[i] as number] as Meaning;
    out.push({ start: list.start[i] as number, end: list.end[i] as number, role: m.role, term: m.term, cue: m.cue });
  }
  return out;
}

/**
 * Records the acceptable patterns ending with the symbol just fed (`fed`
 * symbols so far; `last` is the offset after its last character).
 */
function record(text: string, word: Uint8Array, hits: readonly Pattern[], ring: Int32Array, fed: number, last: number, found: Collector): void {
  for (const p of hits) {
    const start = ring[(fed - p.length) & (RING - 1)] as number;
    let end = last;
    if (p.checkEnd && end < text.length && word[text.charCodeAt(end)] === 1) {
      // Only a plural "s" may follow a name that ends in a word character.
      if (!p.plural || text.charCodeAt(end) !== 115 || (end + 1 < text.length && word[text.charCodeAt(end + 1)] === 1)) continue;
      if (p.caseSensitive && !sameText(text, start, end, p.exact)) continue;
      end++;
    } else if (p.caseSensitive && !sameText(text, start, end, p.exact)) continue;
    // A bare "RL" glued to a name ("Prover-RL", "RL-Factory") is part of the name.
    if (p.role === 'rl' && p.exact === 'RL' && (text[start - 1] === '-' || (text[end] === '-' && /\p{Lu}/u.test(text[end + 1] ?? '')))) continue;
    // Every acceptable pattern is offered; the collector keeps the best of overlapping ones.
    found.add(start, end, p);
  }
}

/** Whether text[start, end) is exactly `exact` (no allocation). */
function sameText(text: string, start: number, end: number, exact: string): boolean {
  if (end - start !== exact.length) return false;
  for (let k = 0; k < exact.length; k++) if (text.charCodeAt(start + k) !== exact.charCodeAt(k)) return false;
  return true;
}
