/**
 * Claim finder (issue 9): points a curator at the sentences of a page that
 * state a stage, an algorithm, a reward, a framework or a system, ranked by
 * how claim-like they are. Pure: works on the page's text, no DOM.
 */
export {
  findCandidates,
  rankCandidates,
  scoreSentence,
  sentenceKey,
  normalizeSentence,
  DEFAULT_LIMIT,
  DEFAULT_MIN_SCORE,
  RL_TALK_THRESHOLD,
  type Candidate,
  type FinderResult,
  type FinderOptions,
} from './find';
export { analyse, refine, modelMatcher, KIND_WEIGHT, MODEL_BONUS, type SentenceScore, type SentenceGroup, type Draft } from './score';
export {
  readFacts,
  mainValue,
  negationOf,
  RULES,
  NOT_USED_PREFIX,
  Negation,
  type SentenceFacts,
  type MainValue,
  type Rule,
  type RuleInput,
  type Why,
} from './rules';
export { scanMentions, scanMentionList, CUE, type Mention, type MentionList, type Meaning, type PatternRole } from './matcher';
export { splitSentences, sentenceAround, boundaryAfter, MAX_SENTENCE, type Stops } from './sentences';
export { parseSite, parseSiteList, siteListed } from './sites';
