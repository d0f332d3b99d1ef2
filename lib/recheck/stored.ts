/**
 * A source's recheck as the extension keeps it: what the runner found (each live claim's verdict, with the selectors
 * an edited passage would move to, and the new candidates with their links), validated where it crosses into the
 * background and stored per source URL beside the spec's `source` record. Pure.
 */
import { z } from 'zod';
import { selectorsAt } from '../anchoring';
import { ClaimId, HttpUrl, Timestamp, type SourceRecord } from '../schema';
import type { SourceRecheck } from './report';

const Selectors = z.object({
  quote: z.object({ exact: z.string().min(1).max(20_000), prefix: z.string().max(200), suffix: z.string().max(200) }),
  position: z.object({ start: z.number().int().min(0), end: z.number().int().min(0) }),
});

/** One claim's verdict as kept: for `edited`, the selectors its passage would move to once the curator accepts. */
export const KeptVerdict = z.object({
  id: ClaimId,
  verdict: z.enum(['unchanged', 'edited', 'gone', 'unreachable']),
  text: z.string().max(20_000).nullable(),
  reason: z.string().max(2000).nullable(),
  selectors: Selectors.nullable(),
  /** The claim's `updated_at` when it was rechecked: an accept is refused once the claim changed since. */
  claim_updated_at: Timestamp,
  /** When the curator accepted the new text (edited only). */
  accepted_at: Timestamp.nullable().optional(),
});
export type KeptVerdict = z.infer<typeof KeptVerdict>;

/** A new sentence worth a look, as kept (the finder's fields a report shows, and the link that opens the source at it). */
export const KeptCandidate = z.object({
  key: z.string().max(64),
  sentence: z.string().max(4000),
  kind: z.string().max(40),
  value: z.string().max(200),
  stage: z.string().max(40).nullable(),
  model: z.string().max(200).nullable(),
  link: z.string().max(8000),
  /** The PDF page it is on (a PDF's candidates only). */
  page: z.number().int().positive().nullable().optional(),
});
export type KeptCandidate = z.infer<typeof KeptCandidate>;

/** Candidates kept per source at most (the best first). */
export const MAX_KEPT_CANDIDATES = 20;

/** What one source's recheck found, as the runner hands it to the background. */
export const SourceFindings = z.object({
  url: HttpUrl,
  title: z.string().max(2000),
  /** When the source was read. */
  checked_at: Timestamp,
  verdicts: z.array(KeptVerdict).max(5000),
  candidates: z.array(KeptCandidate).max(MAX_KEPT_CANDIDATES),
  undisclosedOnly: z.boolean(),
});
export type SourceFindings = z.infer<typeof SourceFindings>;

/** A source's recheck (`recheckPage`/`recheckPdf`/`unreachableSource`) as kept. */
export function findingsOf(result: SourceRecheck, checkedAt: string): SourceFindings {
  const text = result.text ?? '';
  return {
    url: result.url,
    title: result.title,
    checked_at: checkedAt,
    verdicts: result.verdicts.map((v, i) => ({
      id: v.id,
      verdict: v.verdict,
      text: v.text,
      reason: v.reason,
      selectors: v.verdict === 'edited' && v.at ? selectorsAt(text, v.at.start, v.at.end) : null,
      claim_updated_at: result.claims[i]!.updated_at,
    })),
    candidates: result.candidates.slice(0, MAX_KEPT_CANDIDATES).map((c) => ({
      key: c.key,
      sentence: c.sentence,
      kind: c.kind,
      value: c.value,
      stage: c.stage,
      model: c.model,
      link: c.link,
      page: c.page ?? null,
    })),
    undisclosedOnly: result.undisclosedOnly,
  };
}

/**
 * What the store knows of a source's rechecks (database version 8 on), keyed by its URL: the spec's `source` record
 * (this store's last recheck, or one imported or pulled) and the findings of this store's own last recheck.
 */
export interface StoredRecheck {
  url: string;
  record: SourceRecord | null;
  findings: SourceFindings | null;
}
