/** The PDF viewer's keys: find, zoom and moving between pages (the capture UI has taken what it uses). */

/** What the viewer's keys act on. */
export interface KeyTarget {
  openFind(): void;
  /** Whether the find bar is open (Escape closes it). */
  findOpen(): boolean;
  closeFind(): void;
  zoomStep(direction: 1 | -1): void;
  fit(): void;
  /** The page being read and the page count; null before the pages are laid out. */
  pages(): { page: number; count: number } | null;
  scrollToPage(page: number, fraction?: number): void;
  /** Whether the key belongs to the capture UI. */
  isOurs(event: KeyboardEvent): boolean;
}

/** Whether keys typed now go to a text field (ours, the header's or the form's). */
function typing(event: KeyboardEvent): boolean {
  const target = event.composedPath()[0] as HTMLElement | undefined;
  return !!target && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable);
}

/** Acts on one key the capture UI did not take. */
export function onViewerKey(event: KeyboardEvent, to: KeyTarget): void {
  const mod = event.ctrlKey || event.metaKey;
  const key = event.key;
  if (mod && key.toLowerCase() === 'f' && !event.shiftKey && !event.altKey) {
    event.preventDefault();
    to.openFind();
    document.dispatchEvent(new CustomEvent('recipe-lens-find-focus'));
    return;
  }
  if (mod && (key === '=' || key === '+')) {
    event.preventDefault();
    to.zoomStep(1);
    return;
  }
  if (mod && key === '-') {
    event.preventDefault();
    to.zoomStep(-1);
    return;
  }
  if (mod && key === '0') {
    event.preventDefault();
    to.fit();
    return;
  }
  if (key === 'Escape') {
    if (to.findOpen()) to.closeFind();
    return;
  }
  const pages = to.pages();
  if (mod || event.altKey || typing(event) || to.isOurs(event) || !pages) return;
  const { page, count } = pages;
  if (key === 'n' || key === 'j' || (key === 'ArrowRight' && !event.shiftKey)) {
    event.preventDefault();
    to.scrollToPage(page + 1);
  } else if (key === 'p' || key === 'k' || (key === 'ArrowLeft' && !event.shiftKey)) {
    event.preventDefault();
    to.scrollToPage(page - 1);
  } else if (key === 'Home' && !event.shiftKey) {
    event.preventDefault();
    to.scrollToPage(1);
  } else if (key === 'End' && !event.shiftKey) {
    event.preventDefault();
    to.scrollToPage(count, 1);
  }
}
