/**
 * The recheck report as the extension shows it: per model, each of its rechecked sources with its claims' verdicts
 * and the new sentences worth a look, the models recorded as not disclosed first, then those with passages to look
 * at;. Pure.
 */
import type { ClaimRecord } from '../schema';
import { isTombstone } from '../survey/tombstones';
import type { KeptCandidate, KeptVerdict, StoredRecheck } from './stored';
import { sourceStatus } from './verdicts';

/** One claim and what the last recheck said of it. */
export interface ReportItem {
  claim: ClaimRecord;
  verdict: KeptVerdict;
}

/** One source under one model. */
export interface ReportSource {
  url: string;
  title: string;
  status: 'unchanged' | 'changed' | 'unreachable';
  /** When it was read. */
  checkedAt: string;
  /** Why it could not be read (unreachable only). */
  reason: string | null;
  items: ReportItem[];
  candidates: KeptCandidate[];
}

/** Counts of one model's verdicts. */
export interface ReportCounts {
  unchanged: number;
  edited: number;
  gone: number;
  unreachable: number;
  accepted: number;
}

/** One model's part of the report. */
export interface ReportModel {
  model: string;
  /** Every claim of the model the recheck saw says "not disclosed": its new sentences may disclose it now. */
  undisclosedOnly: boolean;
  sources: ReportSource[];
  counts: ReportCounts;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The report's models from the stored rechecks and the claims of their sources. */
export function reportModels(rechecks: readonly StoredRecheck[], claims: readonly ClaimRecord[]): ReportModel[] {
  const byId = new Map(claims.filter((c) => !isTombstone(c)).map((c) => [c.id, c]));
  const models = new Map<string, ReportModel>();
  for (const r of rechecks) {
    const f = r.findings;
    if (!f) continue;
    const perModel = new Map<string, ReportItem[]>();
    for (const verdict of f.verdicts) {
      const claim = byId.get(verdict.id);
      if (!claim) continue;
      const list = perModel.get(claim.model) ?? [];
      list.push({ claim, verdict });
      perModel.set(claim.model, list);
    }
    const status = sourceStatus(f.verdicts);
    for (const [model, items] of perModel) {
      const entry = models.get(model) ?? {
        model,
        undisclosedOnly: true,
        sources: [],
        counts: { unchanged: 0, edited: 0, gone: 0, unreachable: 0, accepted: 0 },
      };
      entry.sources.push({
        url: r.url,
        title: f.title,
        status,
        checkedAt: f.checked_at,
        reason: f.verdicts.find((v) => v.reason)?.reason ?? null,
        items,
        candidates: f.candidates,
      });
      for (const { claim, verdict } of items) {
        if (claim.kind !== 'undisclosed') entry.undisclosedOnly = false;
        if (verdict.accepted_at) entry.counts.accepted++;
        else entry.counts[verdict.verdict]++;
      }
      models.set(model, entry);
    }
  }
  const needs = (m: ReportModel) => m.counts.edited + m.counts.gone + m.counts.unreachable > 0;
  return [...models.values()]
    .map((m) => ({ ...m, sources: m.sources.sort((a, b) => byText(a.url, b.url)) }))
    .sort((a, b) => Number(b.undisclosedOnly) - Number(a.undisclosedOnly) || Number(needs(b)) - Number(needs(a)) || byText(a.model, b.model));
}
