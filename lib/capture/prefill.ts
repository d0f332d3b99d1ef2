/** What the claim form starts with: model, value, kind, stage and evidence guessed from the passage and the page. */
import type { ClaimKind, SourceKind } from '../schema';
import { findTerms } from '../taxonomy';
import { suggestEvidence } from '../evidence';
import type { ClaimFormValues } from './draft';

/**
 * The model a passage is most likely about: the longest known name (from the
 * page or the store) that the passage mentions, else the page's main model.
 */
export function chooseModel(text: string, pageModels: readonly string[], storeModels: readonly string[]): string {
  const candidates = [...new Set([...pageModels, ...storeModels])].filter((m) => m.trim().length > 1);
  const lower = text.toLowerCase();
  const mentioned = candidates
    .filter((name) => {
      const at = lower.indexOf(name.toLowerCase());
      if (at < 0) return false;
      // "DeepSeek-R1" must not be taken from "DeepSeek-R1-Zero": the next character may not continue the name.
      const next = text.charAt(at + name.length);
      return !/[\w.-]/.test(next) || (next === '.' && !/[0-9]/.test(text.charAt(at + name.length + 1)));
    })
    .sort((a, b) => b.length - a.length);
  return mentioned[0] ?? pageModels[0] ?? '';
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
