/** The state of the in-page capture UI (toolbar, claim form, claim card, notices) and the actions it can ask for. */
import type { ClaimRecord, Evidence } from '../../lib/schema';
import type { ClaimFormValues, Passage, SourceFields } from '../../lib/capture/draft';

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
};

/** What the UI can ask the page wiring to do. */
export interface CaptureActions {
  openForm(): void;
  closeToolbar(): void;
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
}
