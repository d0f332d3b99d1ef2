/**
 * Claims as W3C Web Annotations (JSON-LD, http://www.w3.org/ns/anno.jsonld)
 * and back. Pure: no DOM, no browser APIs.
 *
 * The document is an `AnnotationCollection` whose `first` page holds every
 * annotation, in JSONL export order. Each annotation:
 * - `id` `urn:rl-survey:claim:<claim id>`, `type` "Annotation",
 *   `motivation` "classifying", `created` / `modified` from the claim,
 *   `creator` `{type: "Person", nickname}` when the claim has a curator;
 * - `body`, an array of `TextualBody`s: first the claim itself —
 *   `purpose` "classifying", `format` "application/json", `value` the claim
 *   record's canonical JSONL line (every field, unknown ones included, so
 *   nothing is lost); then `purpose` "tagging" with the claim's `value`
 *   ("GRPO"); then `purpose` "commenting" with the note when there is one —
 *   so a generic annotation viewer shows something readable;
 * - `target` `{source: source.url, selector: [TextQuoteSelector,
 *   TextPositionSelector?]}`.
 *
 * Reading back: the claim body gives the record; the target's `source`,
 * TextQuoteSelector and TextPositionSelector, when present, win over the
 * body's `source.url`, `quote` and `position` (they are what other W3C tools
 * edit). Errors name the annotation by its 1-based index.
 */
import { ClaimRecord, describeZodError, type ClaimRecord as Claim } from '../schema';
import { parseJsonSafely } from '../import/jsonl';
import { serializeRecord, sortRecords } from './jsonl';

/** The JSON-LD context of W3C Web Annotations. */
export const ANNO_CONTEXT = 'http://www.w3.org/ns/anno.jsonld';
const ID_PREFIX = 'urn:rl-survey:claim:';

/** A W3C TextualBody as written here. */
export interface W3cTextualBody {
  type: 'TextualBody';
  purpose: 'classifying' | 'tagging' | 'commenting';
  value: string;
  format?: string;
}

/** A W3C selector as written here. */
export type W3cSelector =
  | { type: 'TextQuoteSelector'; exact: string; prefix: string; suffix: string }
  | { type: 'TextPositionSelector'; start: number; end: number };

/** One annotation per claim. */
export interface W3cAnnotation {
  id: string;
  type: 'Annotation';
  motivation: 'classifying';
  created: string;
  modified: string;
  creator?: { type: 'Person'; nickname: string };
  body: W3cTextualBody[];
  target: { source: string; selector: W3cSelector[] };
}

/** The exported document. */
export interface W3cAnnotationCollection {
  '@context': typeof ANNO_CONTEXT;
  type: 'AnnotationCollection';
  label: string;
  total: number;
  first: { type: 'AnnotationPage'; startIndex: 0; items: W3cAnnotation[] };
}

/** One annotation that could not be read back, by 1-based index in document order. */
export interface AnnotationError {
  index: number;
  message: string;
}

/** Claims read back from annotations, and the annotations refused. */
export interface ParsedAnnotations {
  records: Claim[];
  errors: AnnotationError[];
}

function toAnnotation(claim: Claim): W3cAnnotation {
  const body: W3cTextualBody[] = [
    { type: 'TextualBody', purpose: 'classifying', format: 'application/json', value: serializeRecord(claim) },
    { type: 'TextualBody', purpose: 'tagging', value: claim.value },
  ];
  if (claim.note) body.push({ type: 'TextualBody', purpose: 'commenting', value: claim.note });
  const selector: W3cSelector[] = [{ type: 'TextQuoteSelector', exact: claim.quote.exact, prefix: claim.quote.prefix, suffix: claim.quote.suffix }];
  if (claim.position) selector.push({ type: 'TextPositionSelector', start: claim.position.start, end: claim.position.end });
  const annotation: W3cAnnotation = {
    id: `${ID_PREFIX}${claim.id}`,
    type: 'Annotation',
    motivation: 'classifying',
    created: claim.created_at,
    modified: claim.updated_at,
    body,
    target: { source: claim.source.url, selector },
  };
  if (claim.curator) annotation.creator = { type: 'Person', nickname: claim.curator };
  return annotation;
}

/** Claims as a W3C `AnnotationCollection` (see the module comment for the shape). */
export function toW3cAnnotations(claims: readonly Claim[]): W3cAnnotationCollection {
  const items = sortRecords(claims).map((c) => toAnnotation(c as Claim));
  return {
    '@context': ANNO_CONTEXT,
    type: 'AnnotationCollection',
    label: 'Recipe Lens claims',
    total: items.length,
    first: { type: 'AnnotationPage', startIndex: 0, items },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function hasType(value: Record<string, unknown>, type: string): boolean {
  return asList(value.type).includes(type);
}

/** The annotations of a collection, page, array or single annotation, in order. */
function annotationsOf(doc: unknown): unknown[] | null {
  if (Array.isArray(doc)) return doc;
  if (!isObject(doc)) return null;
  if (hasType(doc, 'Annotation')) return [doc];
  if (hasType(doc, 'AnnotationPage') || Array.isArray(doc.items)) {
    const out = [...asList(doc.items)];
    if (isObject(doc.next)) out.push(...(annotationsOf(doc.next) ?? []));
    return out;
  }
  if (hasType(doc, 'AnnotationCollection')) {
    return isObject(doc.first) ? (annotationsOf(doc.first) ?? []) : [];
  }
  return null;
}

function claimBody(annotation: Record<string, unknown>): Record<string, unknown> | string {
  for (const body of asList(annotation.body)) {
    if (!isObject(body)) continue;
    const value = body.value;
    let parsed: unknown = value;
    if (typeof value === 'string') {
      if (body.format !== 'application/json') continue;
      try {
        parsed = parseJsonSafely(value);
      } catch {
        return 'the claim body is not valid JSON';
      }
    }
    if (isObject(parsed) && parsed.schema !== undefined) return { ...parsed };
  }
  return 'no claim body (a TextualBody with format "application/json" holding an rl-survey.claim/1 record)';
}

function readAnnotation(annotation: unknown): Claim | string {
  if (!isObject(annotation)) return 'expected an annotation object';
  const record = claimBody(annotation);
  if (typeof record === 'string') return record;
  const target = asList(annotation.target).find(isObject);
  if (target) {
    if (typeof target.source === 'string') {
      record.source = { ...(isObject(record.source) ? record.source : {}), url: target.source };
    }
    for (const selector of asList(target.selector)) {
      if (!isObject(selector)) continue;
      if (hasType(selector, 'TextQuoteSelector')) {
        record.quote = {
          ...(isObject(record.quote) ? record.quote : {}),
          exact: selector.exact,
          prefix: selector.prefix ?? '',
          suffix: selector.suffix ?? '',
        };
      } else if (hasType(selector, 'TextPositionSelector')) {
        record.position = { ...(isObject(record.position) ? record.position : {}), start: selector.start, end: selector.end };
      }
    }
  }
  const parsed = ClaimRecord.safeParse(record);
  return parsed.success ? parsed.data : describeZodError(parsed.error);
}

/**
 * Reads claims back from a W3C annotation document (an object, or its JSON
 * text): an AnnotationCollection, an AnnotationPage, an array or one
 * Annotation. Every claim is validated; problems name the annotation's index.
 */
export function fromW3cAnnotations(json: unknown): ParsedAnnotations {
  let doc = json;
  if (typeof json === 'string') {
    try {
      doc = parseJsonSafely(json);
    } catch (error) {
      return { records: [], errors: [{ index: 0, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }] };
    }
  }
  const annotations = annotationsOf(doc);
  if (annotations === null) {
    return { records: [], errors: [{ index: 0, message: 'expected an AnnotationCollection, an AnnotationPage, an array or an Annotation' }] };
  }
  const records: Claim[] = [];
  const errors: AnnotationError[] = [];
  annotations.forEach((annotation, i) => {
    const result = readAnnotation(annotation);
    if (typeof result === 'string') errors.push({ index: i + 1, message: result });
    else records.push(result);
  });
  return { records, errors };
}
