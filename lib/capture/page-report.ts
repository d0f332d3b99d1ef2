/** What a document tells the evidence panel's "This page" view about itself. */
import type { SourceKind } from '../schema';

/** What a tab's document (a page or a PDF in the viewer) reports about itself. */
export interface PageReport {
  url: string;
  title: string;
  source: { title: string; kind: SourceKind; publisher: string | null; published: string | null; corrected: boolean };
  models: string[];
  /** Claim ids in document order (anchored ones first, by position), then orphans. */
  order: string[];
  orphans: string[];
  /** Claims anchored to text that changed since capture: the stored quote and what the page says now. */
  changed: Array<{ id: string; old: string; now: string }>;
}
