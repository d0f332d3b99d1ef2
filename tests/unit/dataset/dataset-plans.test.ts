// Publish and pull plans: local store vs the dataset, three versions per record (local, dataset, base).
import { describe, expect, it } from 'vitest';
import {
  applyPublish,
  checkReadme,
  commitMessage,
  fileText,
  indexDataset,
  layoutFiles,
  localChanges,
  newReadme,
  planPublish,
  planPull,
  readDataset,
  recordHash,
  recordRef,
  settlePull,
  sourcesText,
  sourcesToPublish,
  stampAfter,
  type PlacedRecord,
} from '../../../lib/dataset';
import { SOURCE_SCHEMA, type ClaimRecord, type SourceRecord, type SurveyRecord } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';

const at = (minute: number) => `2026-12-01T10:${String(minute).padStart(2, '0')}:00Z`;
const c = (id: string, minute: number, value = `v${minute}`, extra: Partial<ClaimRecord> = {}) =>
  claim({ id, value, updated_at: at(minute), ...extra }) as SurveyRecord;
const gone = (record: SurveyRecord, minute: number) => ({ ...record, updated_at: at(minute), deleted_at: at(minute) }) as SurveyRecord;
const basesOf = (...records: SurveyRecord[]) => new Map(records.map((r) => [recordRef(r), recordHash(r)]));
const ids = (records: readonly SurveyRecord[]) => records.map((r) => (r as ClaimRecord).id ?? r.model);

describe('planning a publish', () => {
  const synced = [c('clm_a0000001', 1), c('clm_b0000001', 1), c('clm_c0000001', 1, 'x', { model: 'GLM-5' })];
  const bases = basesOf(...synced);
  const dataset = indexDataset(synced);

  it('publishes nothing when the store has not changed, even where the dataset moved on', () => {
    const moved = indexDataset([c('clm_a0000001', 5, 'theirs'), synced[1]!, synced[2]!]);
    const plan = planPublish(synced, bases, moved);
    expect(plan.writes).toEqual([]);
    expect(plan.conflicts).toEqual([]);
    expect(plan.message).toBe('Recipe Lens: no changes\n');
  });

  it('writes local changes per model with a message that sums them up', () => {
    const local = [
      c('clm_a0000001', 2, 'changed'),
      gone(synced[1]!, 3),
      synced[2]!,
      c('clm_d0000001', 4, 'new', { model: 'GLM-5' }),
      model({ model: 'GLM-5', vendor: 'Zhipu AI' }),
      gone(c('clm_e0000001', 2), 4),
    ];
    const plan = planPublish(local, bases, dataset);
    expect(ids(plan.writes)).toEqual(['clm_a0000001', 'clm_b0000001', 'clm_d0000001', 'GLM-5']);
    expect(plan.models).toEqual([
      { model: 'GLM-5', claims: { added: 1, changed: 0, deleted: 0 }, records: { added: 1, changed: 0 } },
      { model: 'Zeta-2', claims: { added: 0, changed: 1, deleted: 1 }, records: { added: 0, changed: 0 } },
    ]);
    expect(plan.totals).toEqual({ added: 1, changed: 1, deleted: 1, records: 1 });
    expect(plan.message).toBe(
      'Recipe Lens: 1 claim added, 1 changed, 1 deleted, 1 model record updated on 2 models\n\nGLM-5: claims 1 added; model record added\nZeta-2: claims 1 changed, 1 deleted\n',
    );
  });

  it('lets a newer local change win over the dataset’s change, and leaves an overtaken one or a tie for a pull', () => {
    const theirs = indexDataset([c('clm_a0000001', 5, 'theirs'), c('clm_b0000001', 3, 'theirs'), c('clm_c0000001', 4, 'theirs', { model: 'GLM-5' })]);
    const local = [c('clm_a0000001', 6, 'mine'), c('clm_b0000001', 2, 'mine'), c('clm_c0000001', 4, 'mine', { model: 'GLM-5' })];
    const plan = planPublish(local, bases, theirs);
    expect(ids(plan.writes)).toEqual(['clm_a0000001']);
    expect(plan.conflicts.map((x) => [x.key, x.reason])).toEqual([
      ['clm_b0000001', 'overtaken'],
      ['clm_c0000001', 'tie'],
    ]);
    expect(plan.conflicts[0]!.diffs.map((d) => d.field)).toEqual(['value', 'updated_at']);
  });

  it('publishes an older version put back by undo over a tombstone the dataset still has as it was', () => {
    const tombstone = gone(synced[0]!, 3);
    const plan = planPublish(
      [synced[0]!, synced[1]!, synced[2]!],
      basesOf(tombstone, synced[1]!, synced[2]!),
      indexDataset([tombstone, synced[1]!, synced[2]!]),
    );
    expect(plan.writes).toEqual([synced[0]]);
    expect(plan.totals).toEqual({ added: 1, changed: 0, deleted: 0, records: 0 });
  });

  it('records as agreed what the store and the dataset already share', () => {
    const fresh = planPublish(synced, new Map(), dataset);
    expect(fresh.writes).toEqual([]);
    expect(fresh.agreed.map(([ref]) => ref)).toEqual(synced.map(recordRef));
  });

  it('skips a claim deleted before it was ever published, and re-adds what the dataset lost', () => {
    const plan = planPublish([gone(c('clm_x0000001', 1), 2), synced[0]!], bases, new Map());
    expect(ids(plan.writes)).toEqual(['clm_a0000001']);
  });

  it('writes a subject line even for one kind of change', () => {
    expect(
      commitMessage([{ model: 'M', claims: { added: 0, changed: 0, deleted: 2 }, records: { added: 0, changed: 0 } }], {
        added: 0,
        changed: 0,
        deleted: 2,
        records: 0,
      }),
    ).toBe('Recipe Lens: 2 claims deleted on 1 model\n\nM: claims 2 deleted\n');
  });
});

describe('files of a publish', () => {
  const records = [c('clm_a0000001', 1), c('clm_c0000001', 1, 'x', { model: 'GLM-5' }), c('clm_k0000001', 1, 'k', { model: 'Kimi K2' }), model()];
  const files = layoutFiles(records);
  const readme = newReadme('Team survey', records);
  const tree = [...[...files].map(([path, content]) => ({ path, content })), { path: 'README.md', content: readme }];
  const read = readDataset(tree);

  it('rewrites only the files of the models touched, and the README', () => {
    const out = applyPublish(read.records, read.texts, readme, [c('clm_c0000002', 2, 'new', { model: 'GLM-5' })]);
    expect([...out.files.keys()]).toEqual(['records/claims/glm-5.jsonl', 'README.md']);
    expect(out.files.get('records/claims/glm-5.jsonl')).toBe(fileText([records[1]!, c('clm_c0000002', 2, 'new', { model: 'GLM-5' })]));
    expect(checkReadme(out.files.get('README.md')!, out.records)).toEqual([]);
    expect(out.files.get('README.md')).toContain('This dataset holds 4 claims about 3 models.');
  });

  it('moves a claim whose model changed, leaving its old file empty rather than deleted', () => {
    const out = applyPublish(read.records, read.texts, readme, [c('clm_k0000001', 2, 'k', { model: 'GLM-5' })]);
    expect(out.files.get('records/claims/kimi-k2.jsonl')).toBe('');
    expect(out.files.get('records/claims/glm-5.jsonl')!.split('\n')).toHaveLength(3);
  });

  it('writes a tombstone into its model file and drops its row from the table', () => {
    const out = applyPublish(read.records, read.texts, readme, [gone(records[2]!, 3)]);
    expect(out.files.get('records/claims/kimi-k2.jsonl')).toContain('"deleted_at"');
    expect(out.files.get('README.md')).not.toContain('Kimi K2');
    expect(out.files.get('README.md')).toContain('This dataset holds 2 claims about 2 models.');
  });

  it('rewrites in the layout a file holding a record in the wrong place', () => {
    const stray: PlacedRecord[] = [...read.records, { record: c('clm_z0000001', 1, 'z', { model: 'Zeta-2' }), path: 'records/claims/glm-5.jsonl', line: 9 }];
    const out = applyPublish(stray, read.texts, readme, []);
    expect([...out.files.keys()].sort()).toEqual(['README.md', 'records/claims/zeta-2.jsonl']);
  });

  it('makes a README for a dataset without one', () => {
    const out = applyPublish([], new Map(), '', [c('clm_a0000001', 1)], { title: 'Our survey' });
    expect(out.files.get('README.md')).toMatch(/^# Our survey\n/);
    expect([...out.files.keys()].sort()).toEqual(['README.md', 'records/claims/zeta-2.jsonl', 'records/models.jsonl']);
  });
});

describe('source records in a publish', () => {
  const URL_A = claim().source.url;
  const URL_B = 'https://example.org/glm-5';
  const rec = (url: string, minute: number, extra: Partial<SourceRecord> = {}): SourceRecord => ({
    schema: SOURCE_SCHEMA,
    url,
    checked: `2026-12-${String(2 + minute).padStart(2, '0')}`,
    status: 'unchanged',
    claims: { unchanged: 1, edited: 0, gone: 0 },
    updated_at: at(minute),
    ...extra,
  });
  const records = [
    c('clm_a0000001', 1, 'GRPO', { kind: 'algorithm' }),
    c('clm_g0000001', 1, 'slime', { model: 'GLM-5', source: { ...claim().source, url: URL_B } }),
  ];
  const files = layoutFiles(records);
  const readme = newReadme('Team survey', records);
  const read = readDataset([...[...files].map(([path, content]) => ({ path, content })), { path: 'README.md', content: readme }]);

  it("writes the store's records the branch lacks or holds older, never an older one or a tie", () => {
    const theirs = [rec(URL_A, 5), rec(URL_B, 5)];
    const mine = [rec(URL_A, 6), rec(URL_B, 5, { status: 'changed' }), rec('https://example.org/new', 1)];
    expect(sourcesToPublish(mine, theirs)).toEqual([rec(URL_A, 6), rec('https://example.org/new', 1)]);
    expect(sourcesToPublish([rec(URL_A, 4)], theirs)).toEqual([]);
    expect(sourcesToPublish(theirs, theirs)).toEqual([]);
  });

  it('plans them beside the records, and says so in the message (a publish of source records alone is one too)', () => {
    const bases = basesOf(...records);
    const plan = planPublish(records, bases, indexDataset(records), { local: [rec(URL_A, 6), rec(URL_B, 6)], dataset: [rec(URL_B, 7)] });
    expect(plan.writes).toEqual([]);
    expect(plan.sources).toEqual([rec(URL_A, 6)]);
    expect(plan.message).toBe('Recipe Lens: 1 source record updated\n');
    const both = planPublish([...records, c('clm_a0000002', 3, 'PPO')], bases, indexDataset(records), { local: [rec(URL_A, 6), rec(URL_B, 6)], dataset: [] });
    expect(both.message).toBe('Recipe Lens: 1 claim added on 1 model; 2 source records updated\n\nZeta-2: claims 1 added\n');
    expect(planPublish(records, bases, indexDataset(records)).sources).toEqual([]);
  });

  it("merges them into records/sources.jsonl, the branch's others kept, and the README's 'as of' days follow", () => {
    const theirs = [rec(URL_B, 7, { checked: '2026-12-09' })];
    const texts = new Map([...read.texts, ['records/sources.jsonl', sourcesText(theirs)]]);
    const out = applyPublish(read.records, texts, readme, [], { sources: theirs, sourceWrites: [rec(URL_A, 6, { checked: '2026-12-08' })] });
    expect([...out.files.keys()].sort()).toEqual(['README.md', 'records/sources.jsonl']);
    expect(out.files.get('records/sources.jsonl')).toBe(sourcesText([rec(URL_A, 6, { checked: '2026-12-08' }), ...theirs]));
    const merged = [rec(URL_A, 6, { checked: '2026-12-08' }), ...theirs];
    expect(checkReadme(out.files.get('README.md')!, out.records, { sources: merged })).toEqual([]);
    expect(out.files.get('README.md')).toContain('2026-12-08');
    // Without source records to write, the sources file is left as the branch has it.
    expect(applyPublish(read.records, texts, readme, [c('clm_a0000002', 3, 'PPO')], { sources: theirs }).files.has('records/sources.jsonl')).toBe(false);
  });
});

describe('planning a pull', () => {
  const synced = [c('clm_a0000001', 1), c('clm_b0000001', 1), c('clm_c0000001', 1), model({ updated_at: at(1) })];
  const bases = basesOf(...synced);

  it('adds new records, takes what the store did not change (a tombstone deletes), keeps what only the store changed', () => {
    const local = [synced[0]!, c('clm_b0000001', 3, 'mine'), synced[2]!, synced[3]!];
    const remote = [c('clm_a0000001', 0, 'older but theirs'), synced[1]!, gone(synced[2]!, 4), synced[3]!, c('clm_n0000001', 2)];
    const plan = planPull(local, bases, remote);
    expect(ids(plan.writes)).toEqual(['clm_a0000001', 'clm_c0000001', 'clm_n0000001']);
    expect(plan).toMatchObject({ added: 1, updated: 2, deleted: 1, unchanged: 1, kept: 1, conflicts: [] });
    expect(new Map(plan.bases).get('claim:clm_b0000001')).toBeUndefined();
    expect(new Map(plan.bases).get('claim:clm_a0000001')).toBe(recordHash(remote[0]!));
  });

  it('never replaces an unpublished local change silently: a newer dataset version is a conflict, a tie too', () => {
    const local = [c('clm_a0000001', 2, 'mine'), c('clm_b0000001', 3, 'mine'), c('clm_c0000001', 5, 'mine'), synced[3]!];
    const remote = [c('clm_a0000001', 4, 'theirs'), c('clm_b0000001', 3, 'theirs'), c('clm_c0000001', 4, 'theirs'), synced[3]!];
    const plan = planPull(local, bases, remote);
    expect(plan.writes).toEqual([]);
    expect(plan.conflicts.map((x) => [x.key, x.reason])).toEqual([
      ['clm_a0000001', 'overtaken'],
      ['clm_b0000001', 'tie'],
    ]);
    expect(plan.kept).toBe(1);
    expect(plan.conflicts[0]!.theirs).toEqual(remote[0]);
    expect(plan.conflicts[0]!.mine).toEqual(local[0]);
  });

  it('plans like an import for a store that never synced: newer wins, ties are conflicts', () => {
    const local = [c('clm_a0000001', 1), c('clm_b0000001', 5, 'mine'), c('clm_c0000001', 2, 'mine')];
    const remote = [c('clm_a0000001', 2, 'theirs'), c('clm_b0000001', 4, 'theirs'), c('clm_c0000001', 2, 'theirs')];
    const plan = planPull(local, new Map(), remote);
    expect(ids(plan.writes)).toEqual(['clm_a0000001']);
    expect(plan.kept).toBe(1);
    expect(plan.conflicts.map((x) => [x.key, x.reason])).toEqual([['clm_c0000001', 'tie']]);
  });

  it('settles conflicts: theirs as it is, mine stamped after theirs, later left for the next pull', () => {
    const local = [c('clm_a0000001', 2, 'mine'), c('clm_b0000001', 3, 'mine'), gone(synced[2]!, 5)];
    const remote = [c('clm_a0000001', 4, 'theirs'), c('clm_b0000001', 3, 'theirs'), c('clm_c0000001', 6, 'theirs')];
    const plan = planPull(local, bases, remote);
    expect(plan.conflicts).toHaveLength(3);
    const settled = settlePull(
      plan,
      new Map([
        ['claim:clm_a0000001', 'theirs'],
        ['claim:clm_b0000001', 'mine'],
      ]),
      'later',
      '2026-12-01T10:03:00Z',
    );
    expect(settled).toMatchObject({ kept: 1, taken: 1, later: 1 });
    expect(settled.writes[0]).toEqual(remote[0]);
    // The tie was at 10:03:00, the settling too: the kept version is stamped one second later.
    expect(settled.writes[1]).toEqual({ ...local[1], updated_at: '2026-12-01T10:03:01Z' });
    expect(settled.bases.map(([ref]) => ref)).toEqual(['claim:clm_a0000001', 'claim:clm_b0000001']);
    // A tombstone kept is stamped again with its deletion.
    const tomb = settlePull(plan, new Map(), 'mine', '2026-12-01T11:00:00Z').writes.find((w) => (w as ClaimRecord).id === 'clm_c0000001') as ClaimRecord;
    expect([tomb.updated_at, tomb.deleted_at]).toEqual(['2026-12-01T11:00:00Z', '2026-12-01T11:00:00Z']);
  });

  it('stamps strictly after every given time, to the second', () => {
    expect(stampAfter('2026-12-01T10:00:00Z', '2026-12-01T10:00:00Z')).toBe('2026-12-01T10:00:01Z');
    expect(stampAfter('2026-12-01T12:00:00Z', '2026-12-01T10:00:00Z')).toBe('2026-12-01T12:00:00Z');
  });
});

describe('local changes', () => {
  it('counts records changed since their base, and new ones, but not a claim deleted before it was published', () => {
    const a = c('clm_a0000001', 1);
    const b = c('clm_b0000001', 1);
    const local = [a, c('clm_b0000001', 2, 'edited'), c('clm_n0000001', 1), gone(c('clm_x0000001', 1), 2)];
    expect(ids(localChanges(local, basesOf(a, b)))).toEqual(['clm_b0000001', 'clm_n0000001']);
  });
});
