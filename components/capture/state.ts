/** The state of the in-page capture UI (toolbar, claim form, claim card, notices) and the actions it can ask for. */
import type { ClaimRecord, Evidence } from '../../lib/schema';
import type { ClaimFormValues, Passage, SourceFields } from '../../lib/capture/draft';
import type { FinderCandidate } from '../../lib/capture/finder';

/** Where to place a floating element, in viewport pixels. */
export interface Point {
  x: number;
  y: number;
}

/** An open claim form. */
export interface FormSession {
  mode: 'new' | 'edit';
  passage: Passage;
  values: ClaimFormValues;
  source: SourceFields;
  /** Whether the source fields came from a stored correction. */
  sourceCorrected: boolean;
  pageModels: string[];
  storeModels: string[];
  editing: ClaimRecord | null;
  at: Point;
  saving: boolean;
  error: string | null;
  /** The finder candidate this form accepts (its key), if any: once saved it leaves the finder's list. */
  candidate?: string | null;
}

/** The claim finder's list on this page. */
export interface FinderState {
  status: 'running' | 'done' | 'error';
  /** Candidates in document order. */
  items: FinderCandidate[];
  talksAboutRl: boolean;
  /** Offer "record as not disclosed": the page talks about RL but names no stage or algorithm. */
  suggestUndisclosed: boolean;
  error: string | null;
}

/** A notice at the bottom of the page, optionally with an undo. */
export interface Toast {
  id: number;
  text: string;
  tone: 'info' | 'error';
  undo?: boolean;
}

/** Everything the capture UI shows. */
export interface CaptureState {
  toolbar: Point | null;
  form: FormSession | null;
  card: { ids: string[]; at: Point; pinned: boolean } | null;
  claims: ClaimRecord[];
  orphans: string[];
  /** Claims whose passage was found with changed text: what was stored and what the page says now. */
  changed: Record<string, { old: string; now: string }>;
  /** The orphan being re-attached: the next selection becomes its passage. */
  reattach: string | null;
  /** Whether the orphan list is open. */
  orphanList: boolean;
  toasts: Toast[];
  /** The extension was reloaded or updated: this page must be reloaded to keep working. */
  disconnected: boolean;
  /** The claim finder's list, while it is open. */
  finder: FinderState | null;
}

/** The empty state. */
export const initialCaptureState: CaptureState = {
  toolbar: null,
  form: null,
  card: null,
  claims: [],
  orphans: [],
  changed: {},
  reattach: null,
  orphanList: false,
  toasts: [],
  disconnected: false,
  finder: null,
};

/** What the UI can ask the page wiring to do. */
export interface CaptureActions {
  openForm(): void;
  closeToolbar(): void;
  /** Escape pressed inside the UI (outside the form, which handles its own): closes what is open. */
  escape(): void;
  save(values: ClaimFormValues, source: SourceFields, suggested: Evidence): Promise<void>;
  cancelForm(): void;
  edit(id: string): void;
  remove(ids: string[]): Promise<void>;
  undo(toastId: number): Promise<void>;
  dismissToast(id: number): void;
  closeCard(): void;
  hoverCard(inside: boolean): void;
  focusClaim(ids: string[]): void;
  confirmText(id: string): Promise<void>;
  startReattach(id: string): void;
  attachHere(): Promise<void>;
  cancelReattach(): void;
  toggleOrphans(): void;
  /** The claim finder's actions, where the page offers it. */
  finder?: FinderActions;
}

/** What the claim finder's list can ask for. */
export interface FinderActions {
  /** Opens the claim form prefilled from a finder candidate. */
  acceptCandidate(key: string): void;
  /** Dismisses a finder candidate for good on this page. */
  dismissCandidate(key: string): Promise<void>;
  /** Scrolls to a finder candidate's sentence and marks it. */
  showCandidate(key: string): void;
  /** Opens the claim form prefilled as "not disclosed" for this page. */
  recordUndisclosed(): void;
  /** Closes the finder's list and takes its candidates off the page. */
  closeFinder(): void;
}
