// The dataset's `source` records (records/sources.jsonl): one canonical line per URL sorted by URL, bad lines named,
// the later `updated_at` winning a merge whatever the order, ties left to a person, a recheck's record (an
// unreachable source keeps the day it was last read), and the README's "not disclosed" day moved by unchanged rechecks.
import { describe, expect, it } from 'vitest';
import {
  buildDataset,
  checkReadme,
  mergeSources,
  mergeSourcesText,
  newReadme,
  readDataset,
  readmeTable,
  readSourcesFile,
  recheckedSource,
  serializeSource,
  SOURCES_PATH,
  sourcesText,
  unchangedSince,
  layoutFiles,
  isSourcesText,
} from '../../../lib/dataset';
import { unreachableVerdicts, type ClaimVerdict } from '../../../lib/recheck';
import { SOURCE_SCHEMA, type SourceRecord, type SurveyRecord } from '../../../lib/schema';
import { claim } from '../fixtures/records';

const A = 'https://a.example.org/model-card';
const B = 'https://b.example.org/blog/zeta-2';

function source(overrides: Partial<SourceRecord> = {}): SourceRecord {
  return {
    schema: SOURCE_SCHEMA,
    url: A,
    checked: '2026-12-01',
    status: 'unchanged',
    claims: { unchanged: 2, edited: 0, gone: 0 },
    updated_at: '2026-12-01T06:00:00Z',
    ...overrides,
  };
}

const verdict = (id: string, v: ClaimVerdict['verdict'], url = A): ClaimVerdict => ({
  id,
  url,
  verdict: v,
  text: v === 'edited' ? 'new words' : null,
  reason: null,
  at: null,
  confidence: 1,
});

describe('the sources file', () => {
  it('writes the spec’s keys in order, one line per record, sorted by URL', () => {
    const shuffled = {
      claims: { gone: 1, edited: 0, unchanged: 3 },
      updated_at: '2026-12-02T00:00:00Z',
      status: 'changed',
      checked: '2026-12-02',
      url: B,
      schema: SOURCE_SCHEMA,
    } as SourceRecord;
    expect(serializeSource(shuffled)).toBe(
      `{"schema":"${SOURCE_SCHEMA}","url":"${B}","checked":"2026-12-02","status":"changed","claims":{"unchanged":3,"edited":0,"gone":1},"updated_at":"2026-12-02T00:00:00Z"}`,
    );
    const text = sourcesText([shuffled, source()]);
    expect(text.split('\n')).toHaveLength(3);
    expect(text.indexOf(A)).toBeLessThan(text.indexOf(B));
    expect(sourcesText([])).toBe('');
    const read = readSourcesFile(text);
    expect(read.problems).toEqual([]);
    expect(read.layout).toEqual([]);
    expect(read.sources.map((s) => [s.record.url, s.line])).toEqual([
      [A, 1],
      [B, 2],
    ]);
  });

  it('names each bad line and what to do, and reads the rest', () => {
    const good = serializeSource(source());
    const text = [
      '{not json',
      JSON.stringify({ url: A }),
      JSON.stringify({ schema: 'rl-survey.claim/1', id: 'clm_x' }),
      JSON.stringify({ ...source({ url: B }), status: 'fine' }),
      good,
      '',
    ].join('\n');
    const read = readSourcesFile(text);
    expect(read.sources.map((s) => s.line)).toEqual([5]);
    expect(read.problems.map((p) => p.line)).toEqual([1, 2, 3, 4]);
    expect(read.problems[0]!.message).toMatch(/not a JSON object/);
    expect(read.problems[1]!.message).toMatch(/missing "schema".*rl-survey\.source\/1/);
    expect(read.problems[2]!.message).toMatch(/not a source record.*claims and models have their own files/);
    expect(read.problems[3]!.message).toMatch(/status/);
  });

  it('flags a URL twice with different content, and a file out of order, and survey build puts it right', () => {
    const older = source({ checked: '2026-11-20', updated_at: '2026-11-20T00:00:00Z' });
    const text = `${serializeSource(source({ url: B }))}\n${serializeSource(older)}\n${serializeSource(source())}\n`;
    const read = readSourcesFile(text);
    expect(read.problems).toEqual([]);
    expect(read.layout.map((l) => l.line)).toEqual([3, 0]);
    expect(read.layout[0]!.message).toMatch(/appears again with different content \(first at line 2\)/);
    expect(read.layout[1]!.message).toMatch(/"survey build \." rewrites it/);

    const claims = [claim({ id: 'clm_a000000001', source: { ...claim().source, url: A } })];
    const files = [...layoutFiles(claims)].map(([path, content]) => ({ path, content }));
    const dataset = readDataset([...files, { path: SOURCES_PATH, content: text }]);
    expect(dataset.sources).toHaveLength(3);
    const changes = buildDataset(dataset, null, 'Zeta survey');
    expect(changes.get(SOURCES_PATH)).toBe(sourcesText([source(), source({ url: B })]));
    const again = readDataset([
      ...files,
      { path: SOURCES_PATH, content: changes.get(SOURCES_PATH)! },
      { path: 'README.md', content: changes.get('README.md')! },
    ]);
    expect([...buildDataset(again, changes.get('README.md')!, 'Zeta survey').keys()]).toEqual([]);
  });
});

describe('merging source records', () => {
  it('keeps the later updated_at whatever the order of the lists', () => {
    const old = source({ status: 'changed', updated_at: '2026-11-01T00:00:00Z', checked: '2026-11-01' });
    const neu = source({ updated_at: '2026-12-03T00:00:00Z', checked: '2026-12-03' });
    const b = source({ url: B });
    for (const lists of [
      [[old, b], [neu]],
      [[neu], [b, old]],
      [[b], [old], [neu]],
    ]) {
      const merged = mergeSources(lists);
      expect(merged.conflicts).toEqual([]);
      expect(merged.records).toEqual([neu, b]);
    }
  });

  it('leaves two different versions at the same moment to a person, unless told to prefer one, then the same one either way', () => {
    const mine = source({ status: 'changed', claims: { unchanged: 1, edited: 1, gone: 0 } });
    const theirs = source();
    const merged = mergeSources([[mine], [theirs]]);
    expect(merged.records).toEqual([]);
    expect(merged.conflicts).toHaveLength(1);
    expect(merged.conflicts[0]!.url).toBe(A);
    const one = mergeSources([[mine], [theirs]], { prefer: 'newer' }).records;
    const other = mergeSources([[theirs], [mine]], { prefer: 'newer' }).records;
    expect(one).toHaveLength(1);
    expect(one).toEqual(other);
    // The same version twice is no conflict.
    expect(mergeSources([[theirs], [{ ...theirs }]]).conflicts).toEqual([]);
  });

  it('merges two branches’ files by URL, and names the fields of a tie as ours and theirs', () => {
    const base = sourcesText([source()]);
    const ours = sourcesText([source({ updated_at: '2026-12-04T00:00:00Z', checked: '2026-12-04' })]);
    const theirs = sourcesText([source(), source({ url: B })]);
    const clean = mergeSourcesText(base, ours, theirs);
    expect(clean.conflicts).toEqual([]);
    expect(clean.text).toBe(sourcesText([source({ updated_at: '2026-12-04T00:00:00Z', checked: '2026-12-04' }), source({ url: B })]));

    const tieOurs = source({ status: 'changed', claims: { unchanged: 1, edited: 0, gone: 1 }, updated_at: '2026-12-05T00:00:00Z' });
    const tieTheirs = source({ updated_at: '2026-12-05T00:00:00Z' });
    for (const [o, t] of [
      [tieOurs, tieTheirs],
      [tieTheirs, tieOurs],
    ] as const) {
      const tied = mergeSourcesText(base, sourcesText([o]), sourcesText([t]));
      expect(tied.conflicts).toEqual([
        {
          key: A,
          label: `source ${A}`,
          diffs: [
            { field: 'status', ours: o.status, theirs: t.status },
            { field: 'claims', ours: o.claims, theirs: t.claims },
          ],
        },
      ]);
    }
    expect(() => mergeSourcesText(base, '{broken\n', theirs)).toThrow(/our version of records\/sources\.jsonl, line 1/);
  });
});

describe('a recheck’s source record', () => {
  const when = { today: '2026-12-05', now: '2026-12-05T07:00:00Z', accessed: '2026-11-29' };

  it('is unchanged or changed, with today’s day and the counts', () => {
    expect(recheckedSource(A, [verdict('c1', 'unchanged'), verdict('c2', 'unchanged')], when)).toEqual(
      source({ checked: '2026-12-05', claims: { unchanged: 2, edited: 0, gone: 0 }, updated_at: '2026-12-05T07:00:00Z' }),
    );
    expect(recheckedSource(A, [verdict('c1', 'unchanged'), verdict('c2', 'edited'), verdict('c3', 'gone')], when)).toEqual(
      source({ checked: '2026-12-05', status: 'changed', claims: { unchanged: 1, edited: 1, gone: 1 }, updated_at: '2026-12-05T07:00:00Z' }),
    );
  });

  it('keeps, for an unreachable source, the day it was last read and that reading’s counts', () => {
    const verdicts = unreachableVerdicts([claim({ source: { ...claim().source, url: A } })], 'HTTP 503');
    const previous = source({ checked: '2026-11-30', claims: { unchanged: 4, edited: 0, gone: 0 } });
    expect(recheckedSource(A, verdicts, { ...when, previous })).toEqual({ ...previous, status: 'unreachable', updated_at: '2026-12-05T07:00:00Z' });
    expect(recheckedSource(A, verdicts, when)).toEqual(
      source({ checked: '2026-11-29', status: 'unreachable', claims: { unchanged: 0, edited: 0, gone: 0 }, updated_at: '2026-12-05T07:00:00Z' }),
    );
  });
});

describe('"not disclosed" as of', () => {
  // GLM-5 has a framework claim from source A and no stage claims: its stages cell is "not disclosed (checked …)".
  const records: SurveyRecord[] = [
    claim({
      id: 'clm_glm5_00001',
      model: 'GLM-5',
      kind: 'framework',
      stage: null,
      value: 'slime',
      source: { ...claim().source, url: A, accessed: '2026-11-10' },
    }),
  ];

  it('is the newest of the claims’ access days and their sources’ unchanged rechecks', () => {
    expect(readmeTable(records)).toContain('not disclosed (checked 2026-11-10)');
    expect(unchangedSince([source({ checked: '2026-12-01' }), source({ url: B, status: 'changed', checked: '2026-12-03' })])).toEqual(
      new Map([[A, '2026-12-01']]),
    );
    expect(readmeTable(records, [source({ checked: '2026-12-01' })])).toContain('not disclosed (checked 2026-12-01)');
  });

  it('is not moved by a recheck that found the source changed or could not read it, nor by another source', () => {
    for (const s of [
      source({ status: 'changed', checked: '2026-12-01' }),
      source({ status: 'unreachable', checked: '2026-12-01' }),
      source({ url: B, checked: '2026-12-01' }),
    ])
      expect(readmeTable(records, [s])).toContain('not disclosed (checked 2026-11-10)');
    // An unchanged recheck older than the claim's access day moves nothing either.
    expect(readmeTable(records, [source({ checked: '2026-11-01' })])).toContain('not disclosed (checked 2026-11-10)');
  });

  it('is what a README check expects once the sources file says so', () => {
    const sources = [source({ checked: '2026-12-01' })];
    const readme = newReadme('Zeta survey', records, sources);
    expect(readme).toContain('not disclosed (checked 2026-12-01)');
    expect(checkReadme(readme, records, { sources })).toEqual([]);
    expect(checkReadme(readme, records, {}).length).toBeGreaterThan(0);
  });
});

describe('telling the sources file in a merge', () => {
  it('by its lines, whatever the name (a model may be called "Sources")', () => {
    const claims = `${JSON.stringify(claim({ model: 'Sources' }))}\n`;
    expect(isSourcesText(sourcesText([source()]), '', '')).toBe(true);
    expect(isSourcesText('', '\n', `\uFEFF${sourcesText([source()])}`)).toBe(true);
    expect(isSourcesText(claims, sourcesText([source()]))).toBe(false);
    expect(isSourcesText('', '', '')).toBe(false);
    expect(isSourcesText('{not json\n')).toBe(false);
  });
});
