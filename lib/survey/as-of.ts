/**
 * What a "not disclosed" cell is as of, from the spec's `source` records (`shared/spec/survey-records.md`, "The
 * survey table"): the newest of the row's claims' `source.accessed` and of the `checked` day of their sources'
 * records with status `unchanged`. Pure and light (no schema library): the panel's first rows use it.
 */
import type { SourceRecord } from '../schema';

/** The day each source was last found unchanged (its record's `checked`, status `unchanged`): what "not disclosed, as of" may count. */
export function unchangedSince(sources: readonly SourceRecord[] | undefined): ReadonlyMap<string, string> {
  const out = new Map<string, string>();
  for (const s of sources ?? []) if (s.status === 'unchanged') out.set(s.url, s.checked);
  return out;
}
