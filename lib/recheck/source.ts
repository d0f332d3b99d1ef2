/**
 * One source rechecked on its content as served today, whatever its type: a web page (a parsed `Document`, its
 * hidden elements taken out first) or a PDF (its text model, anchored as the viewer anchors). Gives the claims'
 * verdicts and the new candidates, each with the link that opens the source at it: a text-fragment link on a
 * page, the viewer's page link in a PDF. Pure.
 */
import { buildTextIndex } from '../anchoring';
import { textFragmentLink } from '../export/fragment';
import type { FinderOptions } from '../finder/find';
import { pdfPageLink, type PdfTextModel } from '../pdf';
import type { ClaimRecord } from '../schema';
import { newCandidates } from './candidates';
import { removeHidden } from './hidden';
import type { LinkedCandidate, SourceRecheck } from './report';
import { claimsToRecheck, recheckClaims, unreachableVerdicts, verdictsOf, type ClaimVerdict } from './verdicts';

function titleOf(claims: readonly ClaimRecord[], url: string): string {
  return claims.find((c) => c.source.title.trim())?.source.title ?? url;
}

function withCandidates(
  url: string,
  live: ClaimRecord[],
  verdicts: ClaimVerdict[],
  text: string,
  models: string[],
  link: (start: number, sentence: string) => string,
  hints: Pick<FinderOptions, 'breaks' | 'skip' | 'own'> = {},
): SourceRecheck {
  const found = newCandidates(text, live, verdicts, models, hints);
  const candidates: LinkedCandidate[] = found.candidates.map((c) => ({ ...c, link: link(c.start, c.sentence) }));
  return { url, title: titleOf(live, url), claims: live, verdicts, candidates, undisclosedOnly: found.undisclosedOnly, text };
}

/** A web page's recheck: `doc` as parsed (it is changed: hidden elements are taken out). */
export function recheckPage(url: string, doc: Document, claims: readonly ClaimRecord[], models: string[] = []): SourceRecheck {
  removeHidden(doc);
  const root = doc.body ?? doc.documentElement;
  const index = buildTextIndex(root);
  const live = claimsToRecheck(claims);
  const verdicts = recheckClaims(root, live, index);
  return withCandidates(url, live, verdicts, index.text, models, (_start, sentence) => textFragmentLink(url, { exact: sentence }, index.text));
}

/** A PDF's recheck on its text model: anchored as the viewer paints (the earlier text form tried too). */
export function recheckPdf(url: string, model: PdfTextModel, claims: readonly ClaimRecord[], models: string[] = []): SourceRecheck {
  const live = claimsToRecheck(claims);
  const anchored = model.anchorAll(live.map((c) => ({ quote: c.quote, position: c.position })));
  const verdicts = verdictsOf(
    live,
    anchored.map((a) => a.result),
  );
  const result = withCandidates(url, live, verdicts, model.text, models, (start) => pdfPageLink(url, model.pageAt(start)), model.finderHints());
  return { ...result, candidates: result.candidates.map((c) => ({ ...c, page: model.pageAt(c.start) })) };
}

/** A source that could not be read: its claims' verdicts say why, and it has no candidates. */
export function unreachableSource(url: string, claims: readonly ClaimRecord[], reason: string): SourceRecheck {
  const live = claimsToRecheck(claims);
  return { url, title: titleOf(live, url), claims: live, verdicts: unreachableVerdicts(live, reason), candidates: [], undisclosedOnly: false };
}
