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

/** Where a panel of the given size goes near a rectangle (below it if there is room, else above, else pinned to the top). */
export function panelPosition(anchor: { left: number; top: number; bottom: number }, size: { width: number; height: number }, viewport: Viewport): { x: number; y: number } {
  const x = clamp(anchor.left, 8, viewport.width - size.width - 8);
  const height = Math.min(size.height, viewport.height - 16);
  let y = anchor.bottom + 10;
  if (y + height > viewport.height - 8) {
    const above = anchor.top - 10 - height;
    y = above >= 8 ? above : clamp(viewport.height - height - 8, 8, viewport.height);
  }
  return { x, y };
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, Math.max(min, max)));
}
