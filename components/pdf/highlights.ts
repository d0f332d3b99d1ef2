/** The viewer's highlight styles, made from the same colours the HTML pages use (`lib/paint/kinds.ts`). */
import { CLAIM_KINDS } from '../../lib/schema';
import { ACTIVE_HIGHLIGHT, CANDIDATE_HIGHLIGHT, KIND_COLOURS, PENDING_HIGHLIGHT, highlightName } from '../../lib/paint';

/** CSS for every claim kind's highlight, the active and pending marks, the claim finder's candidates, and find matches. */
export function highlightStyles(): string {
  const kinds = CLAIM_KINDS.map((kind) => {
    const { fill, line } = KIND_COLOURS[kind];
    return `::highlight(${highlightName(kind)}) { background-color: ${fill}; text-decoration: underline 2px ${line}; text-underline-offset: 2px; }`;
  });
  return [
    ...kinds,
    `::highlight(${ACTIVE_HIGHLIGHT}) { background-color: rgba(250, 204, 21, 0.45); }`,
    `::highlight(${PENDING_HIGHLIGHT}) { background-color: rgba(99, 102, 241, 0.28); }`,
    // As on web pages (entrypoints/paint.content/highlights.css): faint and dotted, unlike any claim kind.
    `::highlight(${CANDIDATE_HIGHLIGHT}) { background-color: rgba(14, 165, 233, 0.08); text-decoration: underline dotted 1.5px #0284c7; text-underline-offset: 2px; }`,
    '::highlight(recipe-lens-find) { background-color: rgba(250, 204, 21, 0.35); }',
    '::highlight(recipe-lens-find-current) { background-color: rgba(234, 88, 12, 0.45); }',
  ].join('\n');
}
