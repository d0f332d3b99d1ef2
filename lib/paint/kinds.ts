/** Highlight names and colours per claim kind, shared by the painter and its stylesheet. */
import type { ClaimKind } from '../schema';
import { CLAIM_KINDS } from '../schema/constants';

/** Prefix of every highlight name we register in `CSS.highlights`. */
export const HIGHLIGHT_PREFIX = 'recipe-lens';

/** The highlight name for claims of one kind. */
export function highlightName(kind: ClaimKind): string {
  return `${HIGHLIGHT_PREFIX}-${kind}`;
}

/** The highlight that marks the passage under the pointer or in focus. */
export const ACTIVE_HIGHLIGHT = `${HIGHLIGHT_PREFIX}-active`;

/** The highlight that keeps the passage being tagged visible while the claim form has focus. */
export const PENDING_HIGHLIGHT = `${HIGHLIGHT_PREFIX}-pending`;

/** The highlight of the claim finder's candidates: faint, beneath every claim, distinct from every kind. */
export const CANDIDATE_HIGHLIGHT = `${HIGHLIGHT_PREFIX}-candidate`;

/** Every highlight name we may register. */
export const ALL_HIGHLIGHTS: readonly string[] = [...CLAIM_KINDS.map(highlightName), ACTIVE_HIGHLIGHT, PENDING_HIGHLIGHT, CANDIDATE_HIGHLIGHT];

/** Fill and underline colour per kind (fill is translucent so the page text stays legible). */
export const KIND_COLOURS: Record<ClaimKind, { fill: string; line: string }> = {
  stage: { fill: 'rgba(59, 130, 246, 0.20)', line: '#2563eb' },
  algorithm: { fill: 'rgba(139, 92, 246, 0.20)', line: '#7c3aed' },
  framework: { fill: 'rgba(16, 185, 129, 0.22)', line: '#059669' },
  reward: { fill: 'rgba(245, 158, 11, 0.25)', line: '#d97706' },
  system: { fill: 'rgba(20, 184, 166, 0.22)', line: '#0d9488' },
  intention: { fill: 'rgba(236, 72, 153, 0.18)', line: '#db2777' },
  undisclosed: { fill: 'rgba(100, 116, 139, 0.20)', line: '#475569' },
};
