/** What the PDF viewer needs from the rest of the extension; the viewer page's entrypoint provides it. */
import type { DocumentCall, Handlers } from '../../lib/messages';
import type { ClaimRecord, SourceCorrection, SourceOverride } from '../../lib/schema';

/** A PDF as the store knows it. */
export interface PdfDocumentKey {
  url: string | null;
  fingerprint: string;
  arxiv: string | null;
}

/** The viewer's access to the store and the browser, as calls. */
export interface ViewerApi {
  /** The claims of a document (by URL, fingerprint and arXiv id) and its URL's source correction. */
  claims(doc: PdfDocumentKey): Promise<{ claims: ClaimRecord[]; source: SourceCorrection | null }>;
  save(claims: ClaimRecord[]): Promise<ClaimRecord[]>;
  remove(ids: string[]): Promise<ClaimRecord[]>;
  restore(claims: ClaimRecord[]): Promise<void>;
  /** Model names already in the store, most used first. */
  modelNames(): Promise<string[]>;
  correctSource(source: SourceOverride): Promise<void>;
  /** Reports how the document's claims anchored (the toolbar badge). */
  status(anchored: number, orphans: number): Promise<void>;
  /** Answers the background's calls to this tab (open the form, reveal, report, re-attach, confirm). */
  listen(handlers: Handlers<DocumentCall>): () => void;
  /** Calls back when claims change anywhere (with the page URL, or null for many); returns an unsubscribe function. */
  onChange(callback: (url: string | null) => void): () => void;
  /** Keys of the claim finder's candidates dismissed on a document (by its address). */
  dismissed(url: string): Promise<string[]>;
  /** Remembers a dismissed candidate for a document (by its address). */
  dismiss(url: string, key: string, sentence: string): Promise<void>;
  /** Whether the browser lets the extension read local files (null when it cannot tell). */
  fileAccess(): Promise<boolean | null>;
}
