/**
 * The survey table derived from records: rows per (model, recipe), their
 * cells, stages, evidence, warnings and lineage. Pure: shared by the
 * extension's side panel, the exports and the CLI.
 */
export {
  deriveRows,
  explainEvidenceReason,
  bestEvidence,
  effectiveEvidence,
  compareText,
  type CellItem,
  type StageCell,
  type SurveyRow,
  type EvidenceReason,
  type DeriveOptions,
} from './derive';
export { claimWarnings, type Warning, type WarningCode } from './warnings';
export { sourceModels, modelMatches, foldModelName } from './models';
export { isTombstone, withoutTombstones } from './tombstones';
export { proposeVendor, rowVendor, type VendorProposal } from './vendor';
export { undisclosedColumns, type UndisclosedColumn } from './undisclosed';
export { unchangedSince } from './as-of';
