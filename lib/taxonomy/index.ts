/**
 * The curators' vocabulary: labels for the schema enums, the starting
 * taxonomy of stages, algorithms, rewards, frameworks and systems, and the
 * helpers that find, canonicalise, complete and split its names. Pure: no DOM,
 * no browser APIs.
 */
export { STAGE_LABELS, KIND_LABELS, EVIDENCE_LABELS, SOURCE_KIND_LABELS } from './labels';
export { TERMS, type Term } from './terms';
export { findTerms, lookupTerm, canonicalValue, completeValues, splitValues, type TermMatch } from './match';
