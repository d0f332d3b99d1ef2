/** Reading the curator's selection on a page, and placing floating UI next to it. */

/** The selected range, if there is a real selection of page text outside `exclude` (our own UI). */
export function selectedRange(win: Window, exclude?: Node | null): Range | null {
  const selection = win.getSelection();
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  const range = selection.getRangeAt(0);
  if (range.collapsed || !range.toString().trim()) return null;
  if (exclude && (exclude.contains(range.startContainer) || exclude.contains(range.endContainer))) return null;
  const body = win.document.body;
  if (body && !body.contains(range.commonAncestorContainer) && range.commonAncestorContainer !== body) return null;
  return range.cloneRange();
}

/** Viewport size. */
export interface Viewport {
  width: number;
  height: number;
}

/** Where the toolbar goes: just below the end of the selection, kept inside the viewport. */
export function toolbarPosition(range: Range, viewport: Viewport): { x: number; y: number } {
  const rects = range.getClientRects();
  const last = rects.length ? rects[rects.length - 1]! : range.getBoundingClientRect();
  const width = 190;
  const x = clamp(last.right - width / 2, 8, viewport.width - width - 8);
  const below = last.bottom + 8;
  const y = below + 40 > viewport.height ? Math.max(8, last.top - 44) : below;
  return { x, y };
}

/**
 * Where a panel of the given size goes near a passage: below it if there is
 * room, else above it, else docked to the side of the viewport away from the
 * passage so that the passage stays visible.
 */
export function panelPosition(
  anchor: { left: number; top: number; bottom: number; right?: number },
  size: { width: number; height: number },
  viewport: Viewport,
): { x: number; y: number } {
  const height = Math.min(size.height, viewport.height - 16);
  const x = clamp(anchor.left, 8, viewport.width - size.width - 8);
  if (anchor.bottom + 10 + height <= viewport.height - 8) return { x, y: Math.max(8, anchor.bottom + 10) };
  if (anchor.top - 10 - height >= 8) return { x, y: anchor.top - 10 - height };
  const middle = (anchor.left + (anchor.right ?? anchor.left)) / 2;
  const dockX = middle > viewport.width / 2 ? 16 : viewport.width - size.width - 16;
  return { x: clamp(dockX, 8, viewport.width - size.width - 8), y: clamp(viewport.height - height - 16, 8, viewport.height) };
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, Math.max(min, max)));
}
