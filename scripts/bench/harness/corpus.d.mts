/** What a benchmark page is built from (see corpus.mjs). */
export interface PageSpec {
  /** Seed of the generator: the same spec always yields the same page. */
  seed: number;
  /** About how many characters of text the page holds. */
  targetChars: number;
  /** How many passages to mark for anchoring. */
  passages: number;
  /** The page's id. */
  id: string;
  /** The page's title. */
  title: string;
}

/** A deterministic arXiv-scale benchmark page: its HTML, the passages marked and about how many characters it holds. */
export declare function generatePage(spec: PageSpec): { html: string; passages: number; approxChars: number };

/** A generated page's text as the text index would collapse it (an approximation good enough for timing and for pinning the finder's output). */
export declare function renderText(html: string): string;
