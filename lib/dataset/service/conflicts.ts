/** Conflicts as the interface lists them. */
import type { ConflictView } from '../../transfer';

/** How many conflicts an answer lists (the count says how many there are). */
export const SHOWN_CONFLICTS = 200;

/** The first `SHOWN_CONFLICTS` conflicts, with only what the interface shows. */
export function conflictViews(conflicts: ReadonlyArray<{ ref: string; label: string; diffs: ConflictView['diffs'] }>): ConflictView[] {
  return conflicts.slice(0, SHOWN_CONFLICTS).map(({ ref, label, diffs }) => ({ ref, label, diffs }));
}
