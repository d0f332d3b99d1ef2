/** Plain helpers of the dataset's views, free of the schema library so the panel's first paint does not load it. */
import type { ModelChange } from './publish';

/** The host permission pattern of a repository's origin (match patterns take no port). */
export function originPattern(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.hostname}/*`;
}

/** Per-model changes with nothing in them left out. */
export function changedModels(models: readonly ModelChange[]): ModelChange[] {
  return models.filter((m) => m.claims.added + m.claims.changed + m.claims.deleted + m.records.added + m.records.changed > 0);
}
