/** What the PDF viewer's own UI shows (header, sidebar, find bar, banners) and what it can ask for. */

/** An entry of the document's outline (bookmarks). */
export interface OutlineEntry {
  title: string;
  dest: unknown;
  children: OutlineEntry[];
}

/** Everything the viewer's own UI (header, sidebar, find bar, banners) shows. */
export interface ViewerState {
  phase: 'empty' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** How to fix the error, when we know (e.g. allowing access to local files). */
  help: string | null;
  progress: number;
  file: string;
  title: string;
  authors: string[];
  publisher: string | null;
  published: string | null;
  arxiv: string | null;
  pageCount: number;
  page: number;
  zoom: number;
  /** Whether the zoom follows the window's width. */
  fit: boolean;
  outline: OutlineEntry[];
  sidebar: boolean;
  find: { open: boolean; query: string; index: number; count: number; searching: boolean };
  /** Whether the whole document's text has been read (claims can be tagged and anchored). */
  textReady: boolean;
  /** The http(s) address claims are stored under; null for a local file not yet given one. */
  sourceUrl: string | null;
}

/** The viewer's state before a document is opened. */
export const initialViewerState: ViewerState = {
  phase: 'loading',
  error: null,
  help: null,
  progress: 0,
  file: '',
  title: '',
  authors: [],
  publisher: null,
  published: null,
  arxiv: null,
  pageCount: 0,
  page: 1,
  zoom: 1,
  fit: true,
  outline: [],
  sidebar: false,
  find: { open: false, query: '', index: 0, count: 0, searching: false },
  textReady: false,
  sourceUrl: null,
};

/** What the viewer's UI can ask for. */
export interface ViewerActions {
  zoomIn(): void;
  zoomOut(): void;
  fitWidth(): void;
  setZoom(zoom: number): void;
  goToPage(page: number): void;
  toggleSidebar(): void;
  openOutline(entry: OutlineEntry): void;
  revealClaim(id: string): void;
  openFind(): void;
  find(query: string): void;
  findStep(delta: 1 | -1): void;
  closeFind(): void;
  setSourceUrl(url: string): void;
  openFile(url: string): void;
}
