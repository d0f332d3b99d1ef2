/**
 * The survey-record schemas (`shared/spec/survey-records.md`): the single
 * source of types for the database, the message protocol, import/export and
 * the CLI. Readers keep unknown fields (`looseObject`) so they survive a
 * round trip; a record whose `schema` is unknown is rejected.
 */
import { z } from 'zod';
import { CLAIM_KINDS, CLAIM_SCHEMA, EVIDENCE_LEVELS, isHttpUrl, MODEL_SCHEMA, SOURCE_KINDS, SOURCE_SCHEMA, SOURCE_STATUSES, STAGES } from './constants';

export {
  CLAIM_KINDS,
  CLAIM_SCHEMA,
  EVIDENCE_LEVELS,
  isHttpUrl,
  MODEL_SCHEMA,
  SOURCE_KINDS,
  SOURCE_SCHEMA,
  SOURCE_STATUSES,
  STAGES,
  modelKey,
} from './constants';

// Extension pages forbid eval under their content security policy: validate without generated code.
z.config({ jitless: true });

/** What a passage claims (schema). */
export const ClaimKind = z.enum(CLAIM_KINDS);
export type ClaimKind = z.infer<typeof ClaimKind>;

/** A pipeline stage (schema). */
export const Stage = z.enum(STAGES);
export type Stage = z.infer<typeof Stage>;

/** An evidence level (schema). */
export const Evidence = z.enum(EVIDENCE_LEVELS);
export type Evidence = z.infer<typeof Evidence>;

/** A source's kind (schema). */
export const SourceKind = z.enum(SOURCE_KINDS);
export type SourceKind = z.infer<typeof SourceKind>;

/** RFC 3339 UTC timestamp such as `2026-11-29T10:00:00Z`. */
export const Timestamp = z.iso.datetime({ offset: false, message: 'must be an RFC 3339 UTC timestamp like 2026-11-29T10:00:00Z' });
/** Calendar date `YYYY-MM-DD`. */
export const IsoDate = z.iso.date({ message: 'must be a date like 2026-11-29' });

/** Absolute http(s) URL. */
export const HttpUrl = z.string().refine(isHttpUrl, 'must be an absolute http(s) URL');

/** Stable claim id: 8–64 characters of `[A-Za-z0-9_-]`. */
export const ClaimId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8–64 characters of A-Z a-z 0-9 _ -');

/** A non-empty single-line name (model, recipe). */
const Name = z.string().trim().min(1, 'must not be empty').max(200);

/** W3C TextQuoteSelector: the passage as rendered, with context. */
export const Quote = z.looseObject({
  exact: z.string().min(1).max(4000),
  prefix: z.string().max(64),
  suffix: z.string().max(64),
});
export type Quote = z.infer<typeof Quote>;

/** W3C TextPositionSelector over the page's rendered text; a hint only. */
export const Position = z
  .looseObject({
    start: z.number().int().nonnegative(),
    end: z.number().int().nonnegative(),
  })
  .refine((p) => p.end >= p.start, 'end must not be before start');
export type Position = z.infer<typeof Position>;

/**
 * Where a claim sits in a PDF (an optional addition to the record format):
 * the document's pdf.js fingerprint (its first file identifier), the 1-based
 * page where the passage starts, and the arXiv id (without version) when the
 * report is on arXiv. `quote` and `position` are over the whole document's text.
 */
export const PdfRef = z.looseObject({
  fingerprint: z.string().min(1).max(200),
  page: z.number().int().positive(),
  arxiv: z.string().max(40).nullable().optional(),
});
export type PdfRef = z.infer<typeof PdfRef>;

/** Where a claim's passage was read. */
export const Source = z.looseObject({
  url: HttpUrl,
  title: z.string().max(1000),
  kind: SourceKind,
  publisher: z.string().max(200).nullable().optional(),
  published: IsoDate.nullable().optional(),
  accessed: IsoDate,
});
export type Source = z.infer<typeof Source>;

/** One highlighted passage supporting one statement about one model. */
export const ClaimRecord = z.looseObject({
  schema: z.literal(CLAIM_SCHEMA),
  id: ClaimId,
  model: Name,
  recipe: Name.nullable().optional(),
  kind: ClaimKind,
  stage: Stage.nullable().optional(),
  value: z.string().trim().min(1, 'must not be empty').max(200),
  evidence: Evidence,
  evidence_reason: z.string().max(2000).nullable().optional(),
  quote: Quote,
  position: Position.nullable().optional(),
  source: Source,
  // A link is followed (the panel opens it): only http(s), never `javascript:` or `data:`; empty means none.
  link: z
    .string()
    .max(8000)
    .refine((s) => s === '' || HttpUrl.safeParse(s).success, 'must be an absolute http(s) URL')
    .nullable()
    .optional(),
  pdf: PdfRef.nullable().optional(),
  note: z.string().max(20000).optional(),
  curator: z.string().max(200).optional(),
  created_at: Timestamp,
  updated_at: Timestamp,
  /** Set when the claim was deleted: the record stays as a tombstone so that a merge never brings it back. */
  deleted_at: Timestamp.optional(),
});
export type ClaimRecord = z.infer<typeof ClaimRecord>;

/** One row of the survey table: the curator's standing judgment. */
export const ModelRecord = z.looseObject({
  schema: z.literal(MODEL_SCHEMA),
  model: Name,
  recipe: Name.nullable().optional(),
  vendor: z.string().max(200).nullable().optional(),
  based_on: z.string().max(200).nullable().optional(),
  judgment: z.string().max(20000).optional(),
  updated_at: Timestamp,
});
export type ModelRecord = z.infer<typeof ModelRecord>;

/**
 * What the last recheck of one source URL found (`rl-survey.source/1`): the day it reached the source, its status
 * and the verdicts' counts. It never edits a claim; one record per `url`, the later `updated_at` winning.
 */
export const SourceRecord = z.looseObject({
  schema: z.literal(SOURCE_SCHEMA),
  url: HttpUrl,
  checked: IsoDate,
  status: z.enum(SOURCE_STATUSES),
  claims: z.looseObject({
    unchanged: z.number().int().min(0),
    edited: z.number().int().min(0),
    gone: z.number().int().min(0),
  }),
  updated_at: Timestamp,
});
export type SourceRecord = z.infer<typeof SourceRecord>;

/** Any survey record, told apart by `schema`. */
export const SurveyRecord = z.discriminatedUnion('schema', [ClaimRecord, ModelRecord]);
export type SurveyRecord = z.infer<typeof SurveyRecord>;

/** Source metadata a curator corrected once for a page, keyed by its normalised URL. */
export const SourceOverride = Source.omit({ accessed: true });
export type SourceOverride = z.infer<typeof SourceOverride>;

/** A stored source correction, with when it was made. */
export type SourceCorrection = SourceOverride & { updated_at: string };

/** Turns a zod error into short `path: message` lines for people, not stack traces. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
