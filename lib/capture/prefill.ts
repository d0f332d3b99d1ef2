/** What the claim form starts with: model, value, kind, stage and evidence guessed from the passage and the page. */
import type { ClaimKind, SourceKind } from '../schema';
import { findTerms } from '../taxonomy';
import { suggestEvidence } from '../evidence';
import type { ClaimFormValues } from './draft';

/** Where a model name is mentioned in a passage on its own (not as the start of a longer name), or -1. */
function mentionAt(text: string, lower: string, name: string): number {
  const needle = name.toLowerCase();
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1)) {
    // "DeepSeek-R1" must not be taken from "DeepSeek-R1-Zero": the next character may not continue the name.
    const next = text.charAt(at + name.length);
    const before = at > 0 ? text.charAt(at - 1) : '';
    if (/[\w.-]/.test(before)) continue;
    if (!/[\w.-]/.test(next) || (next === '.' && !/[0-9]/.test(text.charAt(at + name.length + 1)))) return at;
  }
  return -1;
}

/**
 * The model a passage is most likely about: the page's main model (its title's) when the passage names it, else
 * the model the passage names first (the longest name at the same place), from the page or the store; else the
 * page's main model. A passage about DeepSeek-R1 that also names DeepSeek-R1-Zero stays DeepSeek-R1.
 */
export function chooseModel(text: string, pageModels: readonly string[], storeModels: readonly string[]): string {
  const candidates = [...new Set([...pageModels, ...storeModels])].filter((m) => m.trim().length > 1);
  const lower = text.toLowerCase();
  const main = pageModels[0];
  if (main && mentionAt(text, lower, main) >= 0) return main;
  const mentioned = candidates
    .map((name) => ({ name, at: mentionAt(text, lower, name) }))
    .filter((m) => m.at >= 0)
    .sort((a, b) => a.at - b.at || b.name.length - a.name.length);
  return mentioned[0]?.name ?? main ?? '';
}

/** Form values prefilled for a new claim on a passage. */
export function prefillValues(text: string, page: { kind: SourceKind; models: readonly string[] }, storeModels: readonly string[]): ClaimFormValues {
  const terms = findTerms(text);
  const first = terms[0]?.term;
  const kind: ClaimKind = first?.kind ?? 'stage';
  const values = [...new Set(terms.map((t) => t.term.canonical))].slice(0, 3);
  const stage = terms.find((t) => t.term.stage)?.term.stage ?? '';
  return {
    model: chooseModel(text, page.models, storeModels),
    recipe: '',
    kind,
    stage,
    value: values.filter((v) => terms.find((t) => t.term.canonical === v)?.term.kind === kind).join(' + '),
    evidence: suggestEvidence(page.kind, kind).level,
    evidenceReason: '',
    note: '',
  };
}
