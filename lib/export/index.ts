/**
 * Exports of the survey dataset: deterministic JSONL, the survey table
 * (Markdown, CSV, JSON), W3C Web Annotations and text-fragment links. Pure:
 * shared by the extension and the CLI.
 */
export { toJsonl, jsonlRows, serializeRecord, canonicalRecord, compareRecords, sortRecords, type JsonlRow } from './jsonl';
export { renderSurveyTable, escapeMarkdown, escapeCsvCell, TABLE_COLUMNS, type TableColumn, type TableOptions } from './table';
export {
  toW3cAnnotations,
  fromW3cAnnotations,
  ANNO_CONTEXT,
  type W3cAnnotation,
  type W3cAnnotationCollection,
  type W3cSelector,
  type W3cTextualBody,
  type AnnotationError,
  type ParsedAnnotations,
} from './w3c';
export { textFragmentLink, encodeTextDirectivePart, type QuoteParts } from './fragment';
export { claimLink, defaultClaimLink, withLink, withLinks } from './links';
export {
  buildExport,
  buildJsonlParts,
  citedSources,
  filterExport,
  exportFileName,
  localDate,
  isEmptyFilter,
  EXPORT_KINDS,
  EXPORT_MIME,
  NO_EXPORT_FILTER,
  type ExportKind,
  type ExportData,
  type ExportFilter,
  type ExportFile,
  type ExportParts,
} from './files';
export { JsonlPartCache, type JsonlPartData } from './part-cache';
