/**
 * The capture UI in parts, each shown in a frame of its own on a web page (`frame-host.ts`): what each part shows
 * for a state, and where it stands. Parts never overlap in purpose, so a frame is only as large as what it shows and
 * the page stays usable around it.
 */
import type { CaptureState, Point } from './state';

/** The parts of the capture UI. */
export const UI_PARTS = ['anchored', 'notices', 'orphans', 'finder'] as const;
/** One part: `anchored` (the toolbar, the form or the card, one at a time, at a point), `notices` (bottom right), `orphans` (bottom left), `finder` (top right). */
export type UiPart = (typeof UI_PARTS)[number];

/** Where a part stands in the viewport: at a point (its top left), or in a corner. */
export type PartPlace = { at: Point } | { corner: 'top-right' | 'bottom-right' | 'bottom-left' };

/** Where a part stands for this state, or null when it shows nothing. */
export function partPlace(part: UiPart, state: CaptureState): PartPlace | null {
  switch (part) {
    case 'anchored':
      if (state.form) return { at: state.form.at };
      if (state.toolbar) return { at: state.toolbar };
      if (state.card && state.card.ids.some((id) => state.claims.some((c) => c.id === id))) return { at: state.card.at };
      return null;
    case 'notices':
      return state.toasts.length || state.disconnected ? { corner: 'bottom-right' } : null;
    case 'orphans':
      return !state.form && (state.reattach || state.orphans.length) ? { corner: 'bottom-left' } : null;
    case 'finder':
      return state.finder && !state.form ? { corner: 'top-right' } : null;
  }
}
