// Types for the untyped benchmark peer `dom-anchor-text-quote` (only what the benchmark calls).
declare module 'dom-anchor-text-quote' {
  /** A W3C TextQuoteSelector without its type field. */
  export interface TextQuote {
    exact: string;
    prefix?: string;
    suffix?: string;
  }
  /** Finds the quote under `root` (diff-match-patch search around `hint`, a textContent offset); null when not found. */
  export function toRange(root: Node, selector: TextQuote, options?: { hint?: number }): Range | null;
}
