/**
 * The two interfaces the capture controller works over, so that it never
 * knows whether the document is a web page or a PDF:
 *
 * - a **document surface**: what the document is (its key in the store, its
 *   source facts), how a selection becomes a passage and an anchor, how
 *   stored claims are anchored and where their live ranges are, the whole
 *   text for the finder, and a "stale" signal when what it shows changed;
 * - a **capture API**: the calls to the background, passed in as the panel's
 *   and the viewer's are.
 *
 * An anchor (`A`) is whatever the surface uses to find a passage again: a live
 * Range on a page, a placed passage (run offsets per page) in a PDF.
 */
import type { Passage } from '../../lib/capture/draft';
import type { FinderOptions } from '../../lib/finder';
import type { Caller, DocumentKey } from '../../lib/messages';
import type { HighlightPainter } from '../../lib/paint';
import type { ClaimRecord, SourceKind } from '../../lib/schema';

/** A page's address as the background decided it, with its site (registrable domain by the Public Suffix List; null: none known). */
export interface DecidedAddress {
  url: string;
  site: string | null;
}

/** What a document says about itself before the curator's correction: the form's source fields and the panel's report. */
export interface DocumentFacts {
  /** The address the document is reported under (a local PDF without a web address: its file). */
  url: string;
  title: string;
  kind: SourceKind;
  publisher: string | null;
  published: string | null;
  /** Models the document names (the form's suggestions, the finder's model names). */
  models: string[];
}

/** A passage described from a selection: its selectors, and its anchor in this document (null: anchored afresh once saved). */
export interface Captured<A> {
  passage: Passage;
  anchor: A | null;
}

/** How one stored claim anchored: its anchor (the text found, and whether it is the stored quote unchanged), or an orphan. */
export type Anchoring<A> = { status: 'anchored'; anchor: A; exact: boolean; text: string } | { status: 'orphan' };

/** The document's whole text as the finder reads it, with the way back from offsets to anchors. */
export interface TextView<A> {
  text: string;
  /** What the layout tells the finder about the text (a PDF's line and heading breaks, reference lists to skip, the report's own names). */
  hints?: Pick<FinderOptions, 'breaks' | 'skip' | 'own'>;
  /** The anchor of a span of the text, if it can be placed. */
  place(start: number, end: number): A | null;
  /** The span of the text an anchor covers (null: not in this text any more). */
  offsets(anchor: A): { start: number; end: number } | null;
}

/**
 * What changed in the document: its text (content came or went, the text became readable: anchor what is not
 * anchored), or only where it is drawn (a PDF page's text layer appeared: paint again what `touches` says).
 */
export type Stale<A> = { kind: 'text' } | { kind: 'layout'; touches(anchor: A): boolean };

/** Tells the curator something while the surface works (why a selection cannot be described, that the text is still being read). */
export type Say = (text: string, tone?: 'info' | 'error') => void;

/** A document as the capture controller sees it (`html-surface` for pages, `pdf-surface` for the PDF viewer). */
export interface DocumentSurface<A> {
  /** How the store knows this document; null while it is not known yet (a PDF still opening). */
  key(): DocumentKey | null;
  /** Takes the address the store answered a lookup for (a page whose canonical link was honoured), and its site; optional. */
  adoptAddress?(url: string | null | undefined, site?: string | null): void;
  /** What the document says about itself (before the curator's correction). */
  facts(): DocumentFacts;
  /** Why claims cannot be stored from this document yet (a local PDF not given a web address), or null. */
  unaddressed(): string | null;
  /** Resolves once the document's text can be read (at once for a page; a PDF once every page's text is read). */
  ready(): Promise<void>;
  /** Whether a selection lies in the document's text (not in the viewer's own controls). */
  canCapture(range: Range): boolean;
  /** The passage a selection covers and its anchor; null when it cannot be described (the surface said why through `say`). */
  describe(range: Range, say: Say): Promise<Captured<A> | null>;
  /** The selectors of an anchor's passage as the document reads now (null: it is not there any more). */
  describeAnchor(anchor: A): Promise<Passage | null>;
  /** Anchors stored claims, one result per claim; null while the text cannot be read yet (the surface signals `text` once it can). */
  anchorAll(claims: readonly ClaimRecord[], signal: AbortSignal): Promise<Array<Anchoring<A>> | null>;
  /** The live ranges of an anchor that can be painted now (none while its page is not drawn, or its text is gone). */
  ranges(anchor: A): Range[];
  /** Whether an anchor still points at the document's text (a page's range whose nodes left the DOM does not). */
  isLive(anchor: A): boolean;
  /** Document order of two anchors (negative: `a` first). */
  compare(a: A, b: A): number;
  /** Brings an anchor's passage into view; its live range, or null when it cannot be shown. */
  reveal(anchor: A): Promise<Range | null>;
  /** The whole text for the finder (throws, saying why, when the document has none). */
  textView(): Promise<TextView<A>>;
  /** The passage a "not disclosed" record quotes: the page's main heading, the report's `title` in its text (null: none). */
  headline(title: string): Promise<A | null>;
  /**
   * Marks a claim with where it sits in this document (a PDF's fingerprint, page and `#page=` link; a page needs
   * nothing). A mark the claim has is kept, unless `moved` (its passage was re-attached or confirmed).
   */
  stamp(claim: ClaimRecord, passage: Passage, moved: boolean): ClaimRecord;
  /** Calls back when the document changed under its anchors; returns a function that stops. */
  watch(listener: (change: Stale<A>) => void): () => void;
}

/** The calls to the background the capture controller makes. */
export type CaptureCall =
  | 'document.claims'
  | 'document.status'
  | 'claims.save'
  | 'claims.delete'
  | 'claims.restore'
  | 'models.names'
  | 'source.correct'
  | 'dismissals.get'
  | 'dismissals.add';

/** The capture controller's access to the background, passed in by the page's or the viewer's wiring. */
export interface CaptureApi {
  /** Sends the controller's calls: the document's claims, saving, deleting and restoring them, model names, the source's correction, the badge, the finder's dismissals. */
  call: Caller<CaptureCall>;
  /** Change notices the document hears other than the background's `claims.changed` call (an extension page's broadcast). */
  onChange?(callback: (url: string | null) => void): () => void;
}

/** What the controller paints with (the CSS Custom Highlight painter; a fake in tests). */
export type Painter = Pick<HighlightPainter, 'paint' | 'setActive' | 'markPending' | 'paintCandidates' | 'claims' | 'clear' | 'hitTest'>;
