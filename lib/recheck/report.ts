/**
 * What a recheck of many sources found, for people: counts in one line, and a Markdown report per model (each of
 * its sources, every edited passage as a word diff, gone and unreachable ones, and the new candidates, the models
 * recorded as not disclosed first). The page's text goes in as text: anything in it that Markdown or HTML would
 * read as markup is escaped, so a page cannot put a link or a script into the report. Pure.
 */
import type { Candidate } from '../finder/find';
import type { ClaimRecord } from '../schema';
import { sourceStatus, type ClaimVerdict } from './verdicts';
import { wordDiff } from './word-diff';

/** A new sentence worth a look, with the link that opens the source at it. */
export interface LinkedCandidate extends Candidate {
  link: string;
  /** The PDF page it is on (a PDF's candidates only): the viewer opens there. */
  page?: number;
}

/** One source's recheck. */
export interface SourceRecheck {
  url: string;
  /** The title its claims give it. */
  title: string;
  /** Its live claims (tombstones left out), in the verdicts' order. */
  claims: ClaimRecord[];
  verdicts: ClaimVerdict[];
  /** New candidates, best first (none for an unreachable source). */
  candidates: LinkedCandidate[];
  /** Every live claim of the source says "not disclosed". */
  undisclosedOnly: boolean;
  /** The source's rendered text, which the verdicts' and candidates' offsets refer to (absent when it was not read). */
  text?: string;
}

/** Counts over a whole recheck. */
export interface RecheckTotals {
  sources: { all: number; unchanged: number; changed: number; unreachable: number };
  claims: { all: number; unchanged: number; edited: number; gone: number; unreachable: number };
  candidates: number;
}

/** The counts of a recheck. */
export function recheckTotals(results: readonly SourceRecheck[]): RecheckTotals {
  const out: RecheckTotals = {
    sources: { all: 0, unchanged: 0, changed: 0, unreachable: 0 },
    claims: { all: 0, unchanged: 0, edited: 0, gone: 0, unreachable: 0 },
    candidates: 0,
  };
  for (const r of results) {
    out.sources.all++;
    out.sources[sourceStatus(r.verdicts)]++;
    for (const v of r.verdicts) {
      out.claims.all++;
      out.claims[v.verdict]++;
    }
    out.candidates += r.candidates.length;
  }
  return out;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The one-line summary (`survey recheck`'s last line, the report's first). */
export function totalsLine(t: RecheckTotals): string {
  const s = t.sources;
  const c = t.claims;
  return (
    `${plural(s.all, 'source')}: ${s.unchanged} unchanged, ${s.changed} changed, ${s.unreachable} unreachable; ` +
    `${plural(c.all, 'claim')}: ${c.unchanged} unchanged, ${c.edited} edited, ${c.gone} gone, ${c.unreachable} unreachable; ` +
    `${plural(t.candidates, 'new candidate')}`
  );
}

/** Text from a page, safe in Markdown: no markup, links, HTML or table breaks survive; white space collapsed. */
export function markdownText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/&/g, '&amp;')
    .replace(/[\\`*_[\]|~]/g, (ch) => `\\${ch}`)
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** A link target safe in Markdown (angle brackets, so spaces and parentheses stay inside). */
function target(url: string): string {
  return `<${url.replace(/[<>\s]/g, encodeURIComponent)}>`;
}

/** An edited passage's old → new, removed words struck through and added ones in bold. */
export function markdownDiff(before: string, after: string): string {
  // Words are apart in at least one of the texts wherever two runs meet: the runs are joined by one space.
  return wordDiff(before, after)
    .map((p) => {
      const text = markdownText(p.text);
      if (!text) return '';
      return p.op === 'same' ? text : p.op === 'removed' ? `~~${text}~~` : `**${text}**`;
    })
    .filter(Boolean)
    .join(' ');
}

function modelLabel(c: Pick<ClaimRecord, 'model' | 'recipe'>): string {
  return c.recipe ? `${c.model} · ${c.recipe}` : c.model;
}

function claimLabel(c: ClaimRecord): string {
  return `${markdownText(c.value)} (${c.kind}${c.stage ? `, ${c.stage}` : ''}; evidence ${c.evidence})`;
}

function sourceSection(r: SourceRecheck, model: string, withCandidates: boolean): string[] {
  const lines: string[] = [];
  const mine = r.claims.map((c, i) => ({ claim: c, verdict: r.verdicts[i]! })).filter((x) => modelLabel(x.claim) === model);
  const status = sourceStatus(mine.map((x) => x.verdict));
  lines.push(`### [${markdownText(r.title || r.url)}](${target(r.url)}): ${status}`, '');
  if (status === 'unreachable') {
    lines.push(`Not read: ${markdownText(mine[0]?.verdict.reason ?? 'unknown')}. Nothing is said about its ${plural(mine.length, 'claim')}.`, '');
  } else {
    for (const { claim, verdict } of mine) {
      if (verdict.verdict === 'edited') lines.push(`- **edited**: ${claimLabel(claim)}: ${markdownDiff(claim.quote.exact, verdict.text ?? '')}`);
      else if (verdict.verdict === 'gone') lines.push(`- **gone**: ${claimLabel(claim)}: “${markdownText(claim.quote.exact)}”`);
    }
    const same = mine.filter((x) => x.verdict.verdict === 'unchanged').length;
    if (same > 0) lines.push(`- ${plural(same, 'claim')} unchanged`);
    lines.push('');
  }
  if (withCandidates && r.candidates.length > 0) {
    lines.push(r.undisclosedOnly ? 'New on the page, where its claims say not disclosed:' : 'New on the page:', '');
    for (const c of r.candidates.slice(0, 5)) lines.push(`- [${markdownText(c.sentence)}](${target(c.link)}): ${c.kind} ${markdownText(c.value)}`);
    if (r.candidates.length > 5) lines.push(`- and ${plural(r.candidates.length - 5, 'more candidate')}`);
    lines.push('');
  }
  return lines;
}

/** The Markdown report of a recheck made on `today`: the totals, then a section per model. */
export function markdownReport(results: readonly SourceRecheck[], today: string): string {
  const byModel = new Map<string, SourceRecheck[]>();
  for (const r of results)
    for (const c of r.claims) {
      const list = byModel.get(modelLabel(c)) ?? [];
      if (!list.includes(r)) list.push(r);
      byModel.set(modelLabel(c), list);
    }
  // Candidates are shown once per source, under the first model (in the report's order) that cites it.
  const undisclosedFirst = (m: string) => (byModel.get(m)!.some((r) => r.undisclosedOnly && r.candidates.length > 0) ? 0 : 1);
  const models = [...byModel.keys()].sort((a, b) => undisclosedFirst(a) - undisclosedFirst(b) || (a < b ? -1 : a > b ? 1 : 0));
  const shown = new Set<SourceRecheck>();
  const lines = [`# Recheck of ${today}`, '', totalsLine(recheckTotals(results)), ''];
  if (models.length === 0) lines.push('No claims to recheck: the dataset holds none that is not deleted.', '');
  for (const model of models) {
    lines.push(`## ${markdownText(model)}`, '');
    for (const r of byModel.get(model)!) {
      lines.push(...sourceSection(r, model, !shown.has(r)));
      shown.add(r);
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
