/**
 * Deriving the survey table from claim and model records: one row per
 * (model, recipe), its evidence level, its cells and per-stage view, its
 * warnings and its lineage links. Pure: no DOM, no browser APIs.
 */
import type { ClaimKind, ClaimRecord, Evidence, ModelRecord, SourceKind, Stage } from '../schema';
import { STAGES, modelKey } from '../schema/constants';
import { foldModelName } from './models';
import { withoutTombstones } from './tombstones';
import { proposeVendor } from './vendor';
import { claimWarnings, type Warning } from './warnings';

/** One value in a table cell: the claims (same kind, stage and value, case-folded) that state it. */
export interface CellItem {
  value: string;
  kind: ClaimKind;
  stage: Stage | null;
  /** Best effective level among the item's claims (see `effectiveEvidence`). */
  evidence: Evidence;
  claimIds: string[];
  /** Distinct source URLs, first-seen order. */
  sources: string[];
}

/** One pipeline stage of a row: disclosed or not, and when it was last checked. */
export interface StageCell {
  stage: Stage;
  disclosed: boolean;
  /** stage/algorithm/reward/system claims with that stage. */
  items: CellItem[];
  /**
   * Latest `source.accessed` among the stage's own claims and the row's
   * `undisclosed` claims whose stage is this stage or null (a general
   * "no RL details" finding covers every stage); null when there are none.
   */
  lastChecked: string | null;
}

/** One row of the survey table. */
export interface SurveyRow {
  /** `modelKey(model, recipe)`. */
  key: string;
  model: string;
  recipe: string | null;
  /** The vendor stored in the model record, or null. */
  vendor: string | null;
  /** The vendor the row's first-party sources propose (`proposeVendor`), whether or not one is stored; null when they name none. */
  proposedVendor: string | null;
  basedOn: string | null;
  judgment: string;
  judgmentUpdatedAt: string | null;
  /** Best effective level among the row's claims; C when it has only undisclosed claims or none. */
  evidence: Evidence;
  /** E.g. "A: 3 claims from a technical report", "B: 2 claims from an official blog and 2 model cards", "C: only undisclosed claims". */
  evidenceExplanation: string;
  /** The same explanation as data, for the panel to say in the curator's language. */
  evidenceReason: EvidenceReason;
  /** kind framework + system → "RL framework / system". */
  frameworks: CellItem[];
  /** kind stage, algorithm, reward → "Public RL stages and algorithms". */
  stagesAndAlgorithms: CellItem[];
  /** kind intention → "Design intention". */
  intentions: CellItem[];
  /** kind undisclosed. */
  undisclosed: CellItem[];
  /** One per `STAGES` entry, in pipeline order. */
  stages: StageCell[];
  /** The row's claims, sources in reading order (earliest `created_at` first), document order within a source. */
  claims: ClaimRecord[];
  claimCount: number;
  sourceCount: number;
  /** Max `updated_at` of the claims and the model record. */
  lastUpdated: string;
  /**
   * What its "not disclosed" cells are as of: the newest of the row's claims' `source.accessed` and of the days a
   * recheck last found their sources unchanged (`DeriveOptions.unchangedSince`); null for a row without claims.
   */
  asOf: string | null;
  /** Per-claim warnings (in `claims` order), then row warnings (stale). */
  warnings: Warning[];
  /** Keys of rows linked by `based_on` (either direction): related, never merged. */
  related: string[];
}

/** Options of `deriveRows`. */
export interface DeriveOptions {
  /** The present moment, RFC 3339. */
  now: string;
  /** A row whose newest claim is older than this many months is stale; default 6. */
  staleMonths?: number;
  /** Work out the warnings (default true); the rendered table does not show them. */
  warnings?: boolean;
  /**
   * Source URL → the day a recheck last found it unchanged (`unchangedSince` of the `source` records): a "not
   * disclosed" cell is as of the newest of its claims' `accessed` days and of these days of their sources.
   */
  unchangedSince?: ReadonlyMap<string, string>;
}

const LEVEL_RANK: Record<Evidence, number> = { A: 0, B: 1, C: 2 };
const STAGE_RANK = new Map<Stage, number>(STAGES.map((s, i) => [s, i]));
const FRAMEWORK_KINDS = new Set<ClaimKind>(['framework', 'system']);
const STAGE_COLUMN_KINDS = new Set<ClaimKind>(['stage', 'algorithm', 'reward']);
const STAGE_VIEW_KINDS = new Set<ClaimKind>(['stage', 'algorithm', 'reward', 'system']);

/** Compares strings by UTF-16 code units, the same in every locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares RFC 3339 timestamps by the instant they name (text order as a tie-break). */
function compareTime(a: string, b: string): number {
  const d = Date.parse(a) - Date.parse(b);
  return Number.isNaN(d) || d === 0 ? compareText(a, b) : d;
}

/** The best (A before B before C) of some levels, or null when there are none. */
export function bestEvidence(levels: Iterable<Evidence>): Evidence | null {
  let best: Evidence | null = null;
  for (const level of levels) if (best === null || LEVEL_RANK[level] < LEVEL_RANK[best]) best = level;
  return best;
}

/**
 * The level a claim lends its row: its own `evidence`, except that an
 * `undisclosed` claim or a third-party source never lifts a row above C
 * (neither is evidence of a recipe).
 */
export function effectiveEvidence(claim: ClaimRecord): Evidence {
  if (claim.kind === 'undisclosed' || claim.source.kind === 'third_party') return 'C';
  return claim.evidence;
}

const SOURCE_NOUNS: Record<SourceKind, [string, string]> = {
  technical_report: ['a technical report', 'technical reports'],
  official_blog: ['an official blog', 'official blogs'],
  model_card: ['a model card', 'model cards'],
  repository: ['a repository', 'repositories'],
  release: ['a release', 'releases'],
  third_party: ['a third-party write-up', 'third-party write-ups'],
};
const SOURCE_KIND_ORDER: SourceKind[] = ['technical_report', 'official_blog', 'model_card', 'repository', 'release', 'third_party'];

function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** Why a row has its level: no claims, only undisclosed ones, only third-party write-ups, or claims at that level and their sources. */
export type EvidenceReason =
  | { level: Evidence; why: 'none' | 'undisclosed' | 'third_party' }
  | { level: Evidence; why: 'sources'; claims: number; sources: Array<{ kind: SourceKind; count: number }> };

function evidenceReason(level: Evidence, claims: readonly ClaimRecord[]): EvidenceReason {
  if (claims.length === 0) return { level: 'C', why: 'none' };
  const evidential = claims.filter((c) => c.kind !== 'undisclosed');
  if (evidential.length === 0) return { level: 'C', why: 'undisclosed' };
  if (evidential.every((c) => c.source.kind === 'third_party')) return { level: 'C', why: 'third_party' };
  const atLevel = evidential.filter((c) => effectiveEvidence(c) === level);
  // Distinct sources per kind: "3 claims from a technical report", "2 claims from 2 repositories".
  const perKind = new Map<SourceKind, Set<string>>();
  for (const c of atLevel) {
    const urls = perKind.get(c.source.kind) ?? new Set<string>();
    urls.add(c.source.url);
    perKind.set(c.source.kind, urls);
  }
  const sources = SOURCE_KIND_ORDER.filter((k) => perKind.has(k)).map((kind) => ({ kind, count: perKind.get(kind)!.size }));
  return { level, why: 'sources', claims: atLevel.length, sources };
}

/** A row's evidence reason in English (exports, tests, the CLI). */
export function explainEvidenceReason(reason: EvidenceReason): string {
  if (reason.why !== 'sources') {
    return reason.why === 'none'
      ? 'C: no claims recorded yet'
      : reason.why === 'undisclosed'
        ? 'C: only undisclosed claims'
        : 'C: only third-party write-ups, which are not evidence';
  }
  const parts = reason.sources.map(({ kind, count }) => (count === 1 ? SOURCE_NOUNS[kind][0] : `${count} ${SOURCE_NOUNS[kind][1]}`));
  const n = reason.claims;
  return `${reason.level}: ${n} ${n === 1 ? 'claim' : 'claims'} from ${joinWords(parts)}`;
}

/** Document order of claims within a source, then by creation and id. */
function compareInSource(a: ClaimRecord, b: ClaimRecord): number {
  const pa = a.position?.start;
  const pb = b.position?.start;
  if (pa != null && pb != null && pa !== pb) return pa - pb;
  if (pa == null && pb != null) return 1;
  if (pa != null && pb == null) return -1;
  return compareTime(a.created_at, b.created_at) || compareText(a.id, b.id);
}

/** Sources in reading order (earliest claim created first, then URL); claims in document order within each. */
function orderClaims(claims: readonly ClaimRecord[]): ClaimRecord[] {
  const bySource = new Map<string, ClaimRecord[]>();
  for (const c of claims) {
    const list = bySource.get(c.source.url);
    if (list) list.push(c);
    else bySource.set(c.source.url, [c]);
  }
  const groups = [...bySource.entries()].map(([url, list]) => {
    const sorted = [...list].sort(compareInSource);
    const first = list.reduce((min, c) => (compareTime(c.created_at, min) < 0 ? c.created_at : min), list[0]!.created_at);
    return { url, first, sorted };
  });
  groups.sort((a, b) => compareTime(a.first, b.first) || compareText(a.url, b.url));
  return groups.flatMap((g) => g.sorted);
}

function stageRank(stage: Stage | null): number {
  return stage === null ? STAGES.length : STAGE_RANK.get(stage)!;
}

/** Groups claims (already in row order) into cell items, ordered by pipeline stage (null last), then first appearance. */
function cellItems(claims: readonly ClaimRecord[]): CellItem[] {
  const items = new Map<string, { item: CellItem; order: number; levels: Evidence[] }>();
  for (const c of claims) {
    const stage = c.stage ?? null;
    const key = `${c.kind}\u0000${stage ?? ''}\u0000${c.value.trim().toLowerCase()}`;
    let entry = items.get(key);
    if (!entry) {
      entry = {
        item: { value: c.value.trim(), kind: c.kind, stage, evidence: 'C', claimIds: [], sources: [] },
        order: items.size,
        levels: [],
      };
      items.set(key, entry);
    }
    entry.item.claimIds.push(c.id);
    if (!entry.item.sources.includes(c.source.url)) entry.item.sources.push(c.source.url);
    entry.levels.push(effectiveEvidence(c));
  }
  return [...items.values()]
    .sort((a, b) => stageRank(a.item.stage) - stageRank(b.item.stage) || a.order - b.order)
    .map((e) => ({ ...e.item, evidence: bestEvidence(e.levels) ?? 'C' }));
}

function latest(dates: Iterable<string>): string | null {
  let best: string | null = null;
  for (const d of dates) if (best === null || compareText(d, best) > 0) best = d;
  return best;
}

/** `now` minus `months` calendar months (UTC), in milliseconds. */
function monthsBefore(now: string, months: number): number {
  const d = new Date(now);
  if (Number.isNaN(d.getTime())) throw new RangeError(`now must be an RFC 3339 timestamp, got ${JSON.stringify(now)}`);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d.getTime();
}

interface Group {
  model: string;
  recipe: string | null;
  claims: ClaimRecord[];
  record: ModelRecord | null;
}

/**
 * The survey table: one row per (model, recipe) found in the claims or the
 * model records (a model record without claims still gives a row), sorted by
 * model, then recipe (null first), in code-unit order. Claims are never
 * copied between rows; `based_on` only links rows through `related`.
 * Tombstones (records with `deleted_at`) count for nothing: a row of
 * deleted claims only is no row.
 */
export function deriveRows(allClaims: readonly ClaimRecord[], allModels: readonly ModelRecord[], options: DeriveOptions): SurveyRow[] {
  const claims = withoutTombstones(allClaims);
  const models = withoutTombstones(allModels);
  const staleBefore = monthsBefore(options.now, options.staleMonths ?? 6);
  const groups = new Map<string, Group>();
  const groupFor = (model: string, recipe: string | null | undefined): Group => {
    const key = modelKey(model, recipe);
    let group = groups.get(key);
    if (!group) {
      group = { model, recipe: recipe || null, claims: [], record: null };
      groups.set(key, group);
    }
    return group;
  };
  for (const c of claims) groupFor(c.model, c.recipe).claims.push(c);
  for (const m of models) {
    const group = groupFor(m.model, m.recipe);
    // Two records for one row: keep the newer (then the later in the input).
    if (!group.record || compareTime(m.updated_at, group.record.updated_at) >= 0) group.record = m;
  }

  const keys = [...groups.keys()].sort((a, b) => {
    const ga = groups.get(a)!;
    const gb = groups.get(b)!;
    if (ga.model !== gb.model) return compareText(ga.model, gb.model);
    if (ga.recipe === null) return gb.recipe === null ? 0 : -1;
    if (gb.recipe === null) return 1;
    return compareText(ga.recipe, gb.recipe);
  });

  // Lineage: a row links to the rows of the model named in its `based_on`, and back.
  const rowsByModel = new Map<string, string[]>();
  for (const key of keys) {
    const folded = foldModelName(groups.get(key)!.model);
    const list = rowsByModel.get(folded);
    if (list) list.push(key);
    else rowsByModel.set(folded, [key]);
  }
  const related = new Map<string, Set<string>>(keys.map((k) => [k, new Set<string>()]));
  for (const key of keys) {
    const basedOn = groups.get(key)!.record?.based_on;
    if (!basedOn) continue;
    for (const other of rowsByModel.get(foldModelName(basedOn)) ?? []) {
      if (other === key) continue;
      related.get(key)!.add(other);
      related.get(other)!.add(key);
    }
  }

  return keys.map((key) => {
    const group = groups.get(key)!;
    const ordered = orderClaims(group.claims);
    const evidential = ordered.filter((c) => c.kind !== 'undisclosed');
    const evidence = bestEvidence(evidential.map(effectiveEvidence)) ?? 'C';
    const reason = evidenceReason(evidence, ordered);
    const stages: StageCell[] = STAGES.map((stage) => {
      const own = ordered.filter((c) => STAGE_VIEW_KINDS.has(c.kind) && c.stage === stage);
      const checked = ordered.filter((c) => c.kind === 'undisclosed' && (c.stage == null || c.stage === stage));
      return {
        stage,
        disclosed: own.length > 0,
        items: cellItems(own),
        lastChecked: latest(
          [...own, ...checked].flatMap((c) => {
            const rechecked = options.unchangedSince?.get(c.source.url);
            return rechecked ? [c.source.accessed, rechecked] : [c.source.accessed];
          }),
        ),
      };
    });

    const warnings = options.warnings === false ? [] : ordered.flatMap(claimWarnings);
    let newestClaim: string | null = null;
    for (const c of ordered) if (newestClaim === null || compareTime(c.updated_at, newestClaim) > 0) newestClaim = c.updated_at;
    if (options.warnings !== false && newestClaim !== null && Date.parse(newestClaim) < staleBefore) {
      const months = options.staleMonths ?? 6;
      warnings.push({
        code: 'stale',
        claimId: null,
        message: `No claim has been updated since ${newestClaim.slice(0, 10)}, more than ${months} ${months === 1 ? 'month' : 'months'} ago. Re-check the sources.`,
        args: [newestClaim.slice(0, 10), String(months)],
      });
    }

    let lastUpdated = group.record?.updated_at ?? newestClaim ?? '';
    if (newestClaim !== null && compareTime(newestClaim, lastUpdated) > 0) lastUpdated = newestClaim;

    const record = group.record;
    return {
      key,
      model: group.model,
      recipe: group.recipe,
      vendor: record?.vendor ?? null,
      proposedVendor: proposeVendor(ordered)?.vendor ?? null,
      basedOn: record?.based_on ?? null,
      judgment: record?.judgment ?? '',
      judgmentUpdatedAt: record ? record.updated_at : null,
      evidence,
      evidenceReason: reason,
      evidenceExplanation: explainEvidenceReason(reason),
      frameworks: cellItems(ordered.filter((c) => FRAMEWORK_KINDS.has(c.kind))),
      stagesAndAlgorithms: cellItems(ordered.filter((c) => STAGE_COLUMN_KINDS.has(c.kind))),
      intentions: cellItems(ordered.filter((c) => c.kind === 'intention')),
      undisclosed: cellItems(ordered.filter((c) => c.kind === 'undisclosed')),
      stages,
      claims: ordered,
      claimCount: ordered.length,
      sourceCount: new Set(ordered.map((c) => c.source.url)).size,
      lastUpdated,
      asOf: latest(ordered.flatMap((c) => [c.source.accessed, options.unchangedSince?.get(c.source.url) ?? c.source.accessed])),
      warnings,
      related: keys.filter((k) => related.get(key)!.has(k)),
    };
  });
}
