// The dataset repository's layout: slugs, one file per model, byte-identical files, careful reading of a tree.
import { describe, expect, it } from 'vitest';
import { toJsonl } from '../../../lib/export';
import {
  MAX_RECORDS_FILE_BYTES,
  MODELS_PATH,
  claimsPath,
  fileText,
  formatDatasetProblem,
  layoutFiles,
  pathRole,
  readDataset,
  recordPath,
  slug,
} from '../../../lib/dataset';
import type { SurveyRecord } from '../../../lib/schema';
import { claim, model } from '../fixtures/records';

const glm = claim({ id: 'clm_glm5_00001', model: 'GLM-5', value: 'slime', kind: 'framework', stage: null });
const glm2 = claim({ id: 'clm_glm5_00002', model: 'GLM-5', position: { start: 10, end: 20 } });
const kimi = claim({ id: 'clm_kimi_00001', model: 'Kimi K2.7 Code' });
const gone = claim({ id: 'clm_kimi_00002', model: 'Kimi K2.7 Code', updated_at: '2026-12-01T00:00:00Z', deleted_at: '2026-12-01T00:00:00Z' });
const glmModel = model({ model: 'GLM-5', vendor: 'Zhipu AI' });

/** A seeded shuffle (the same permutation for the same seed). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('slugs and paths', () => {
  it.each([
    ['Kimi K2.7 Code', 'kimi-k2.7-code'],
    ['GLM-5', 'glm-5'],
    ['MiniMax M3', 'minimax-m3'],
    ['  Qwen3.5 (VL) ', 'qwen3.5-vl'],
    ['DeepSeek_R1 Zero', 'deepseek-r1-zero'],
    ['A--B', 'a--b'],
    ['Qwen3-235B-A22B', 'qwen3-235b-a22b'],
    ['../../etc/passwd', '..-..-etc-passwd'],
  ])('%s → %s', (name, want) => {
    expect(slug(name)).toBe(want);
    expect(claimsPath(name)).toBe(`records/claims/${want}.jsonl`);
    expect(pathRole(claimsPath(name))).toBe('claims');
  });

  it('gives a name with no a-z, 0-9, dot or hyphen a stable hashed slug, never an empty or dots-only file name', () => {
    expect(slug('通义千问')).toMatch(/^model-[0-9a-f]{8}$/);
    expect(slug('通义千问')).toBe(slug('通义千问'));
    expect(slug('通义千问')).not.toBe(slug('文心一言'));
    expect(slug('...')).toMatch(/^model-[0-9a-f]{8}$/);
  });

  it('puts two models that fold to the same slug in one file', () => {
    expect(slug('GLM 5')).toBe(slug('glm-5'));
    const files = layoutFiles([glm, claim({ id: 'clm_glm5_other', model: 'GLM 5' })]);
    expect([...files.keys()]).toEqual(['records/claims/glm-5.jsonl', MODELS_PATH]);
    expect(files.get('records/claims/glm-5.jsonl')!.trim().split('\n')).toHaveLength(2);
  });

  it('places claims by model and model records in the models file', () => {
    expect(recordPath(kimi)).toBe('records/claims/kimi-k2.7-code.jsonl');
    expect(recordPath(glmModel)).toBe(MODELS_PATH);
    expect(recordPath(claim({ model: 'MiniMax M3', recipe: 'MaxProof' }))).toBe('records/claims/minimax-m3.jsonl');
  });

  it.each([
    ['README.md', 'readme'],
    ['records/models.jsonl', 'models'],
    ['records/claims/glm-5.jsonl', 'claims'],
    ['records/claims/sub/glm-5.jsonl', 'misplaced'],
    ['records/claims/GLM-5.jsonl', 'misplaced'],
    ['records/claims/..jsonl', 'misplaced'],
    ['records/extra.jsonl', 'misplaced'],
    ['records/notes.txt', 'misplaced'],
    ['evil.jsonl', 'other'],
    ['LICENSE', 'other'],
    ['.github/workflows/check.yml', 'other'],
  ])('%s is %s', (path, role) => {
    expect(pathRole(path)).toBe(role);
  });
});

describe('files of a dataset', () => {
  const records: SurveyRecord[] = [glm, glm2, kimi, gone, glmModel, model({ model: 'Kimi K2.7 Code', recipe: 'Agent', vendor: 'Moonshot AI' })];

  it('writes one file per model (tombstones included) and the models file, in export order', () => {
    const files = layoutFiles(records);
    expect([...files.keys()]).toEqual(['records/claims/glm-5.jsonl', 'records/claims/kimi-k2.7-code.jsonl', MODELS_PATH]);
    expect(files.get('records/claims/glm-5.jsonl')).toBe(toJsonl([glm, glm2]));
    expect(files.get('records/claims/kimi-k2.7-code.jsonl')).toBe(toJsonl([kimi, gone]));
    expect(files.get('records/claims/kimi-k2.7-code.jsonl')).toContain('"deleted_at":"2026-12-01T00:00:00Z"');
    expect(files.get(MODELS_PATH)!.trim().split('\n')).toHaveLength(2);
  });

  it('gives byte-identical files whatever order the records come in', () => {
    const want = layoutFiles(records);
    for (let seed = 1; seed <= 20; seed++) expect(layoutFiles(shuffled(records, seed))).toEqual(want);
  });

  it('always has a models file, empty without model records', () => {
    expect(layoutFiles([glm]).get(MODELS_PATH)).toBe('');
    expect(layoutFiles([])).toEqual(new Map([[MODELS_PATH, '']]));
  });

  it('writes deleted_at after updated_at and never as null', () => {
    const line = fileText([gone]).trim();
    expect(line.endsWith('"updated_at":"2026-12-01T00:00:00Z","deleted_at":"2026-12-01T00:00:00Z"}')).toBe(true);
    expect(fileText([glm])).not.toContain('deleted_at');
  });
});

describe('reading a dataset tree', () => {
  const good = layoutFiles([glm, glm2, kimi, gone, glmModel]);
  const tree = (extra: Record<string, string | Uint8Array> = {}) => [
    ...[...good].map(([path, content]) => ({ path, content })),
    { path: 'README.md', content: '# Survey\n' },
    ...Object.entries(extra).map(([path, content]) => ({ path, content })),
  ];

  it('reads every record of the layout with its file and line, and nothing else', () => {
    const read = readDataset(tree({ LICENSE: 'MIT', 'notes/evil.jsonl': fileText([claim({ id: 'clm_evil000001' })]) }));
    expect(read.problems).toEqual([]);
    expect(read.layout).toEqual([]);
    expect(read.ignored).toEqual(['notes/evil.jsonl']);
    expect(read.records.map((r) => [r.path, r.line, (r.record as { id?: string }).id ?? r.record.model])).toEqual([
      ['records/claims/glm-5.jsonl', 1, 'clm_glm5_00002'],
      ['records/claims/glm-5.jsonl', 2, 'clm_glm5_00001'],
      ['records/claims/kimi-k2.7-code.jsonl', 1, 'clm_kimi_00001'],
      ['records/claims/kimi-k2.7-code.jsonl', 2, 'clm_kimi_00002'],
      ['records/models.jsonl', 1, 'GLM-5'],
    ]);
  });

  it('names each bad line by file and line', () => {
    const text = `${JSON.stringify(glm)}\n{"schema":"rl-survey.claim/1","id":"x"\n\n{"schema":"rl-survey.claim/1","id":"short"}\n`;
    const read = readDataset([{ path: 'records/claims/glm-5.jsonl', content: text }]);
    expect(read.problems.map(formatDatasetProblem)).toEqual([
      expect.stringMatching(/^records\/claims\/glm-5\.jsonl:2: not valid JSON/),
      expect.stringMatching(/^records\/claims\/glm-5\.jsonl:4: .*id/),
    ]);
    expect(read.records.map((r) => r.line)).toEqual([1]);
  });

  it('refuses a records file over the size limit whole, and one that is not UTF-8', () => {
    const huge = new Uint8Array(MAX_RECORDS_FILE_BYTES + 1);
    const read = readDataset([
      { path: 'records/claims/glm-5.jsonl', content: huge },
      { path: 'records/claims/kimi.jsonl', content: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) },
    ]);
    expect(read.problems.map(formatDatasetProblem)).toEqual([
      'records/claims/glm-5.jsonl:0: the file is 32.0 MB; a records file may be at most 32.0 MB',
      'records/claims/kimi.jsonl:0: not UTF-8 text',
    ]);
    expect(read.records).toEqual([]);
  });

  it('refuses files under records/ outside the layout', () => {
    const read = readDataset(tree({ 'records/extra.jsonl': fileText([glm]) }));
    expect(read.problems.map(formatDatasetProblem)).toEqual([expect.stringMatching(/^records\/extra\.jsonl:0: not part of the dataset layout/)]);
    expect(read.records.some((r) => r.path === 'records/extra.jsonl')).toBe(false);
  });

  it('keeps markup in every field as text', () => {
    const markup = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const hostile = claim({
      id: 'clm_markup00001',
      model: `GLM-5`,
      value: markup,
      note: markup,
      curator: markup,
      evidence_reason: markup,
      quote: { exact: markup, prefix: '<b>', suffix: '</b>' },
      source: { ...glm.source, title: markup, publisher: markup },
    });
    const read = readDataset([{ path: 'records/claims/glm-5.jsonl', content: fileText([hostile]) }]);
    expect(read.problems).toEqual([]);
    expect(read.records[0]!.record).toEqual(hostile);
  });

  it('tells a record in the wrong file, a duplicate and a file not in export order apart from bad lines', () => {
    const read = readDataset([
      { path: 'records/claims/glm-5.jsonl', content: `${fileText([kimi])}` },
      { path: 'records/claims/kimi-k2.7-code.jsonl', content: `${JSON.stringify(kimi)}\n${JSON.stringify({ ...kimi, note: 'other' })}\n` },
      { path: MODELS_PATH, content: `${JSON.stringify({ ...glmModel, vendor: 'Zhipu' }).replace('{"schema"', '{ "schema"')}\n` },
    ]);
    expect(read.problems).toEqual([]);
    expect(read.layout.map(formatDatasetProblem)).toEqual([
      'records/claims/glm-5.jsonl:1: a claim about "Kimi K2.7 Code" belongs in records/claims/kimi-k2.7-code.jsonl',
      'records/models.jsonl:1: not in the export order and form (sorted records, canonical keys, one "\\n" per line): "survey build ." rewrites it',
      'records/claims/kimi-k2.7-code.jsonl:2: claim clm_kimi_00001 appears again with different content (first at records/claims/glm-5.jsonl:1)',
    ]);
  });
});
