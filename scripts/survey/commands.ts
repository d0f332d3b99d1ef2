/** The `survey` commands: validate, render, merge, stats. Each returns its exit code. */
import { isTombstone } from '../../lib/survey/tombstones';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderRecords } from '../../lib/dataset/readme';
import { mergeSources, serializeSource, sourcesText } from '../../lib/dataset/sources';
import { serializeRecord, toJsonl } from '../../lib/export';
import { mergeFiles, type FieldDiff, type RecordConflict } from '../../lib/import/merge';
import { CLAIM_KINDS, CLAIM_SCHEMA, EVIDENCE_LEVELS, SOURCE_KINDS, modelKey, type ClaimRecord, type ModelRecord, type SurveyRecord } from '../../lib/schema';
import { UsageError, parseArgs } from './args';
import { formatProblem, readFiles, type Located, type Problem, type ReadFile } from './files';

/** Where a command writes, and the directory relative paths start from. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

function describeRecord(record: SurveyRecord): string {
  if (record.schema === CLAIM_SCHEMA) return `claim id ${JSON.stringify((record as ClaimRecord).id)}`;
  return `model record ${JSON.stringify(record.recipe ? `${record.model} · ${record.recipe}` : record.model)}`;
}

function identity(record: SurveyRecord): string {
  return record.schema === CLAIM_SCHEMA ? `c\u0000${(record as ClaimRecord).id}` : `m\u0000${modelKey(record.model, record.recipe)}`;
}

/** Problems of every file, then records sharing an id (or model, recipe) with different content, across all files. */
function allProblems(files: readonly ReadFile[]): Problem[] {
  const problems = files.flatMap((f) => f.problems);
  const first = new Map<string, { at: Located; line: string }>();
  for (const f of files) {
    for (const located of f.records) {
      const key = identity(located.record);
      const line = serializeRecord(located.record);
      const seen = first.get(key);
      if (!seen) first.set(key, { at: located, line });
      else if (seen.line !== line) {
        problems.push({
          file: located.file,
          line: located.line,
          message: `duplicate ${describeRecord(located.record)} with different content from ${seen.at.file}:${seen.at.line}`,
        });
      }
    }
  }
  const sources = new Map<string, { at: { file: string; line: number }; line: string }>();
  for (const f of files)
    for (const s of f.sources) {
      const line = serializeSource(s.record);
      const seen = sources.get(s.record.url);
      if (!seen) sources.set(s.record.url, { at: s, line });
      else if (seen.line !== line && s.record.updated_at === JSON.parse(seen.line).updated_at)
        problems.push({
          file: s.file,
          line: s.line,
          message: `source ${s.record.url} again with the same updated_at and different content from ${seen.at.file}:${seen.at.line}`,
        });
    }
  const order = new Map(files.map((f, i) => [f.file, i]));
  return problems.sort((a, b) => order.get(a.file)! - order.get(b.file)! || a.line - b.line);
}

function printParseProblems(files: readonly ReadFile[], io: Io): boolean {
  const problems = files.flatMap((f) => f.problems);
  for (const p of problems) io.stderr(`${formatProblem(p)}\n`);
  return problems.length > 0;
}

function split(records: readonly SurveyRecord[]): { claims: ClaimRecord[]; models: ModelRecord[] } {
  return {
    claims: records.filter((r): r is ClaimRecord => r.schema === CLAIM_SCHEMA),
    models: records.filter((r): r is ModelRecord => r.schema !== CLAIM_SCHEMA),
  };
}

/** `survey validate FILE...`: exit 0 when every line of every file is valid, else 1 with `FILE:LINE: message` lines. */
export async function validate(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { values: {}, flags: [] });
  const files = await readFiles(args.positionals, io.cwd);
  const problems = allProblems(files);
  for (const p of problems) io.stdout(`${formatProblem(p)}\n`);
  const records = files.reduce((n, f) => n + f.records.length + f.sources.length, 0);
  if (problems.length > 0) {
    io.stderr(`${problems.length} ${problems.length === 1 ? 'problem' : 'problems'} in ${files.length} ${files.length === 1 ? 'file' : 'files'}\n`);
    return 1;
  }
  io.stdout(`ok: ${records} ${records === 1 ? 'record' : 'records'} in ${files.length} ${files.length === 1 ? 'file' : 'files'}\n`);
  return 0;
}

/** `survey render FILE... [--format md|csv|json] [--lang en|zh]`: the survey table on stdout. */
export async function render(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { values: { format: ['md', 'csv', 'json'], lang: ['en', 'zh'] }, flags: [], aliases: { f: 'format', l: 'lang' } });
  const files = await readFiles(args.positionals, io.cwd);
  if (printParseProblems(files, io)) return 1;
  const format = (args.values.format ?? 'md') as 'md' | 'csv' | 'json';
  const lang = (args.values.lang ?? 'en') as 'en' | 'zh';
  // Several versions of one record across files: the newest is shown (the dataset README's table is made the same way).
  io.stdout(
    renderRecords(
      files.map((f) => f.records.map((l) => l.record)),
      {
        format,
        lang,
        now: new Date().toISOString(),
        sources: mergeSources(
          files.map((f) => f.sources.map((s) => s.record)),
          { prefer: 'newer' },
        ).records,
      },
    ),
  );
  return 0;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function describeDiffs(diffs: readonly FieldDiff[]): string {
  return diffs.map((d) => `${d.field} ${short(d.ours)} ≠ ${short(d.theirs)}`).join('; ');
}

function describeConflict(c: RecordConflict): string {
  return `${c.label}: ${describeDiffs(c.diffs)}`;
}

/** `survey merge FILE... -o OUT [--prefer newer]`: one deterministic JSONL file from several. */
export async function merge(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { values: { out: [], prefer: ['newer'] }, flags: [], aliases: { o: 'out' } });
  const out = args.values.out;
  if (out === undefined) throw new UsageError('merge needs -o OUT (use -o - for stdout)');
  const files = await readFiles(args.positionals, io.cwd);
  if (printParseProblems(files, io)) return 1;
  const prefer = args.values.prefer as 'newer' | undefined;
  const result = mergeFiles(
    files.map((f) => f.records.map((l) => l.record)),
    { prefer },
  );
  if (result.conflicts.length > 0 && prefer === undefined) {
    for (const c of result.conflicts) io.stderr(`conflict: ${describeConflict(c)}\n`);
    io.stderr(
      `${result.conflicts.length} ${result.conflicts.length === 1 ? 'conflict' : 'conflicts'}; nothing written. Re-run with --prefer newer to keep the newest version of each record.\n`,
    );
    return 1;
  }
  for (const c of result.conflicts)
    io.stderr(`warning: versions with the same updated_at differ; kept one (the same whatever the input order): ${describeConflict(c)}\n`);
  const { claims, models } = split(result.records);
  // Source records (what rechecks found) follow, one per URL, the later winning.
  const sources = mergeSources(
    files.map((f) => f.sources.map((s) => s.record)),
    { prefer: 'newer' },
  ).records;
  const text = toJsonl(claims, models) + sourcesText(sources);
  if (out === '-') io.stdout(text);
  else {
    try {
      await writeFile(path.resolve(io.cwd, out), text, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new UsageError(`${out}: cannot be written (${code})`);
    }
    io.stderr(`merged ${files.length} ${files.length === 1 ? 'file' : 'files'} into ${out}: ${result.records.length} records\n`);
  }
  return 0;
}

function countTable(title: string, counts: ReadonlyArray<readonly [string, number]>): string {
  const width = Math.max(0, ...counts.map(([k]) => [...k].length));
  const lines = counts.map(([k, n]) => `  ${k}${' '.repeat(width - [...k].length)}  ${n}`);
  return `${title}\n${lines.length > 0 ? lines.join('\n') : '  (none)'}\n`;
}

/** `survey stats FILE... [--json]`: claims per model, kind, evidence level and source kind. */
export async function stats(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv, { values: {}, flags: ['json'] });
  const files = await readFiles(args.positionals, io.cwd);
  const invalid = printParseProblems(files, io);
  const { records } = mergeFiles(
    files.map((f) => f.records.map((l) => l.record)),
    { prefer: 'newer' },
  );
  const { claims: all, models } = split(records);
  // Tombstones (deleted claims kept for merging) are counted apart: they render nothing.
  const claims = all.filter((c) => !isTombstone(c));
  const deleted = all.length - claims.length;
  const byModel = new Map<string, { label: string; model: string; recipe: string | null; claims: number }>();
  for (const m of models) {
    const key = modelKey(m.model, m.recipe);
    if (!byModel.has(key)) byModel.set(key, { label: m.recipe ? `${m.model} · ${m.recipe}` : m.model, model: m.model, recipe: m.recipe ?? null, claims: 0 });
  }
  for (const c of claims) {
    const key = modelKey(c.model, c.recipe);
    const entry = byModel.get(key) ?? { label: c.recipe ? `${c.model} · ${c.recipe}` : c.model, model: c.model, recipe: c.recipe ?? null, claims: 0 };
    entry.claims += 1;
    byModel.set(key, entry);
  }
  const modelRows = [...byModel.values()].sort((a, b) =>
    a.model !== b.model
      ? a.model < b.model
        ? -1
        : 1
      : a.recipe === b.recipe
        ? 0
        : a.recipe === null
          ? -1
          : b.recipe === null
            ? 1
            : a.recipe < b.recipe
              ? -1
              : 1,
  );
  const tally = <K extends string>(keys: readonly K[], pick: (c: ClaimRecord) => K) =>
    keys.map((k) => [k, claims.filter((c) => pick(c) === k).length] as const);
  const summary = {
    files: files.length,
    claims: claims.length,
    deleted,
    models: models.length,
    byModel: modelRows.map((r) => [r.label, r.claims] as const),
    byKind: tally(CLAIM_KINDS, (c) => c.kind),
    byEvidence: tally(EVIDENCE_LEVELS, (c) => c.evidence),
    bySourceKind: tally(SOURCE_KINDS, (c) => c.source.kind),
  };
  if (args.flags.has('json')) {
    const obj = (pairs: ReadonlyArray<readonly [string, number]>) => Object.fromEntries(pairs);
    io.stdout(
      `${JSON.stringify(
        {
          files: summary.files,
          claims: summary.claims,
          deleted: summary.deleted,
          models: summary.models,
          byModel: obj(summary.byModel),
          byKind: obj(summary.byKind),
          byEvidence: obj(summary.byEvidence),
          bySourceKind: obj(summary.bySourceKind),
        },
        null,
        2,
      )}\n`,
    );
  } else {
    io.stdout(
      [
        `${summary.claims} claims and ${summary.models} model records in ${summary.files} ${summary.files === 1 ? 'file' : 'files'}${summary.deleted ? ` (and ${summary.deleted} deleted ${summary.deleted === 1 ? 'claim' : 'claims'} kept as tombstones)` : ''}\n`,
        countTable('claims per model', summary.byModel),
        countTable('claims per kind', summary.byKind),
        countTable('claims per evidence level', summary.byEvidence),
        countTable('claims per source kind', summary.bySourceKind),
      ].join('\n'),
    );
  }
  return invalid ? 1 : 0;
}
