import { describe, expect, it } from 'vitest';
import { STAGES, modelKey, type ClaimRecord } from '../../../lib/schema';
import { bestEvidence, claimWarnings, deriveRows, isTombstone, modelMatches, sourceModels, undisclosedColumns, withoutTombstones } from '../../../lib/survey';
import { claim, model } from '../fixtures/records';

const NOW = '2026-12-01T00:00:00Z';

// Sources composed for these tests, shaped like the seed's (not copied from real pages).
const m3Release = {
  url: 'https://www.minimax.example/news/minimax-m3',
  title: 'MiniMax M3 release',
  kind: 'release' as const,
  publisher: 'MiniMax',
  published: '2026-10-20',
  accessed: '2026-11-20',
};
const maxProofReport = {
  url: 'https://arxiv.example/abs/2611.00001',
  title: 'MaxProof: Proof-Oriented RL and Test-Time Scaling for MiniMax-M3',
  kind: 'technical_report' as const,
  publisher: 'MiniMax',
  published: '2026-11-02',
  accessed: '2026-11-21',
};
const maxProofBlog = {
  url: 'https://www.minimax.example/news/maxproof',
  title: 'MaxProof: proving with MiniMax M3',
  kind: 'official_blog' as const,
  publisher: 'MiniMax',
  published: '2026-11-03',
  accessed: '2026-11-22',
};
const qwen36Repo = {
  url: 'https://github.com/QwenLM/Qwen3.6',
  title: 'QwenLM/Qwen3.6: README.md',
  kind: 'repository' as const,
  publisher: 'Qwen Team',
  published: null,
  accessed: '2026-11-25',
};

function minimaxClaims(): ClaimRecord[] {
  return [
    claim({
      id: 'm3_undisclosed_1',
      model: 'MiniMax M3',
      kind: 'undisclosed',
      stage: null,
      value: 'RL stages',
      evidence: 'C',
      quote: { exact: 'MiniMax M3 leads on long-context and agentic benchmarks and is available through our API today.', prefix: '', suffix: '' },
      position: { start: 10, end: 100 },
      source: m3Release,
      created_at: '2026-11-20T09:00:00Z',
      updated_at: '2026-11-20T09:00:00Z',
    }),
    claim({
      id: 'maxproof_cispo',
      model: 'MiniMax M3',
      recipe: 'MaxProof',
      kind: 'algorithm',
      stage: 'reasoning_rl',
      value: 'CISPO',
      quote: {
        exact: 'The Proof Expert is trained with CISPO, keeping only prompts whose reward standard deviation exceeds a threshold.',
        prefix: '',
        suffix: '',
      },
      position: { start: 400, end: 510 },
      source: maxProofReport,
      created_at: '2026-11-21T09:00:00Z',
      updated_at: '2026-11-21T09:00:00Z',
    }),
    claim({
      id: 'maxproof_stdfilter',
      model: 'MiniMax M3',
      recipe: 'MaxProof',
      kind: 'reward',
      stage: 'reasoning_rl',
      value: 'std-threshold filter',
      quote: { exact: 'keeping only prompts whose reward standard deviation exceeds a threshold', prefix: '', suffix: '' },
      position: { start: 440, end: 509 },
      source: maxProofReport,
      created_at: '2026-11-21T09:01:00Z',
      updated_at: '2026-11-21T09:01:00Z',
    }),
    claim({
      id: 'maxproof_rsft',
      model: 'MiniMax M3',
      recipe: 'MaxProof',
      kind: 'algorithm',
      stage: 'sft_distillation',
      value: 'rejection-sampling fine-tuning',
      quote: { exact: 'The Fixer Expert is trained by rejection-sampling fine-tuning on repaired proofs.', prefix: '', suffix: '' },
      position: { start: 900, end: 980 },
      source: maxProofReport,
      created_at: '2026-11-21T09:02:00Z',
      updated_at: '2026-11-21T09:02:00Z',
    }),
    claim({
      id: 'maxproof_forge',
      model: 'MiniMax M3',
      recipe: 'MaxProof',
      kind: 'framework',
      stage: null,
      value: 'forge',
      evidence: 'B',
      quote: { exact: 'Proof RL for MaxProof ran on forge, our in-house RL framework.', prefix: '', suffix: '' },
      position: null,
      source: maxProofBlog,
      created_at: '2026-11-22T09:00:00Z',
      updated_at: '2026-11-22T09:00:00Z',
    }),
  ];
}

describe('bestEvidence', () => {
  it('picks A over B over C and is null for nothing', () => {
    expect(bestEvidence(['C', 'B', 'C'])).toBe('B');
    expect(bestEvidence(new Set(['C', 'A', 'B'] as const))).toBe('A');
    expect(bestEvidence([])).toBeNull();
  });
});

describe('deriveRows', () => {
  it('gives MiniMax M3 a C row and its MaxProof recipe an A row, never merged', () => {
    const rows = deriveRows(minimaxClaims(), [model({ model: 'MiniMax M3', vendor: 'MiniMax', judgment: 'General recipe not disclosed.' })], { now: NOW });
    expect(rows.map((r) => [r.model, r.recipe, r.evidence])).toEqual([
      ['MiniMax M3', null, 'C'],
      ['MiniMax M3', 'MaxProof', 'A'],
    ]);
    const [general, maxProof] = rows as [(typeof rows)[0], (typeof rows)[0]];
    expect(general.key).toBe(modelKey('MiniMax M3', null));
    expect(general.evidenceExplanation).toBe('C: only undisclosed claims');
    expect(general.undisclosed.map((i) => i.value)).toEqual(['RL stages']);
    expect(general.stagesAndAlgorithms).toEqual([]);
    expect(general.vendor).toBe('MiniMax');
    expect(general.judgment).toBe('General recipe not disclosed.');
    expect(general.stages.every((s) => !s.disclosed && s.lastChecked === '2026-11-20')).toBe(true);

    expect(maxProof.key).toBe(modelKey('MiniMax M3', 'MaxProof'));
    expect(maxProof.evidenceExplanation).toBe('A: 3 claims from a technical report');
    expect(maxProof.frameworks.map((i) => [i.value, i.evidence])).toEqual([['forge', 'B']]);
    // Pipeline order: SFT (rejection sampling) before Reasoning RL (CISPO, std filter).
    expect(maxProof.stagesAndAlgorithms.map((i) => i.value)).toEqual(['rejection-sampling fine-tuning', 'CISPO', 'std-threshold filter']);
    expect(maxProof.stagesAndAlgorithms[1]!.sources).toEqual([maxProofReport.url]);
    expect(maxProof.claimCount).toBe(4);
    expect(maxProof.sourceCount).toBe(2);
    expect(maxProof.judgment).toBe('');
    expect(maxProof.judgmentUpdatedAt).toBeNull();
    expect(maxProof.lastUpdated).toBe('2026-11-22T09:00:00Z');
    const reasoning = maxProof.stages.find((s) => s.stage === 'reasoning_rl')!;
    expect(reasoning.disclosed).toBe(true);
    expect(reasoning.items.map((i) => i.value)).toEqual(['CISPO', 'std-threshold filter']);
    expect(reasoning.lastChecked).toBe('2026-11-21');
    const agentic = maxProof.stages.find((s) => s.stage === 'agentic_rl')!;
    expect(agentic).toEqual({ stage: 'agentic_rl', disclosed: false, items: [], lastChecked: null });
    expect(maxProof.stages.map((s) => s.stage)).toEqual([...STAGES]);
    expect(maxProof.warnings).toEqual([]);
  });

  it('flags a model card’s fine-tuning advice and keeps the row C when stored as undisclosed', () => {
    const advice = 'You can fine-tune Qwen3.6 with SFT, DPO, GRPO and other methods using frameworks such as LLaMA-Factory.';
    const asAlgorithm = claim({
      id: 'q36_guidance',
      model: 'Qwen3.6',
      kind: 'algorithm',
      stage: null,
      value: 'GRPO',
      evidence: 'B',
      quote: { exact: advice, prefix: '', suffix: '' },
      source: qwen36Repo,
    });
    expect(claimWarnings(asAlgorithm).map((w) => w.code)).toEqual(['user_guidance']);

    const asUndisclosed = claim({ ...asAlgorithm, kind: 'undisclosed', value: 'RL stages', evidence: 'C', note: 'User guidance only.' });
    expect(claimWarnings(asUndisclosed)).toEqual([]);
    const intention = claim({
      id: 'q36_intention',
      model: 'Qwen3.6',
      kind: 'intention',
      stage: null,
      value: 'stability and real-world coding experience',
      evidence: 'B',
      quote: { exact: 'Qwen3.6 focuses on stability and real-world developer experience.', prefix: '', suffix: '' },
      source: qwen36Repo,
    });
    const [row] = deriveRows([asUndisclosed, intention], [], { now: NOW });
    expect(row!.evidence).toBe('B'); // the intention is B; the undisclosed claim adds nothing
    const [onlyUndisclosed] = deriveRows([asUndisclosed], [], { now: NOW });
    expect(onlyUndisclosed!.evidence).toBe('C');
    expect(onlyUndisclosed!.stagesAndAlgorithms).toEqual([]);
    expect(onlyUndisclosed!.warnings).toEqual([]);
  });

  it('gives a model record without claims a C row with its judgment', () => {
    const rows = deriveRows([], [model({ model: 'Kimi K2.7 Code', based_on: 'Kimi K2.6', judgment: 'Nothing disclosed.' })], { now: NOW });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      model: 'Kimi K2.7 Code',
      recipe: null,
      evidence: 'C',
      evidenceExplanation: 'C: no claims recorded yet',
      claimCount: 0,
      sourceCount: 0,
      lastUpdated: '2026-11-29T10:05:00Z',
      judgmentUpdatedAt: '2026-11-29T10:05:00Z',
      basedOn: 'Kimi K2.6',
      related: [],
      warnings: [],
    });
  });

  it('links rows by based_on in both directions without sharing claims', () => {
    const k26 = claim({
      id: 'k26_claim_1',
      model: 'Kimi K2.6',
      source: { ...claim().source, title: 'Kimi K2.6 Tech Blog', url: 'https://moonshot.example/k2.6', kind: 'official_blog' },
      evidence: 'B',
    });
    const rows = deriveRows([k26], [model({ model: 'Kimi K2.7 Code', based_on: 'Kimi K2.6' }), model({ model: 'Kimi K2.6' })], { now: NOW });
    const byModel = Object.fromEntries(rows.map((r) => [r.model, r]));
    expect(byModel['Kimi K2.7 Code']!.related).toEqual([modelKey('Kimi K2.6', null)]);
    expect(byModel['Kimi K2.6']!.related).toEqual([modelKey('Kimi K2.7 Code', null)]);
    expect(byModel['Kimi K2.7 Code']!.claims).toEqual([]);
    expect(byModel['Kimi K2.7 Code']!.evidence).toBe('C');
  });

  it('sorts rows by model then recipe (null first), whatever the input order', () => {
    const claims = [
      claim({ id: 'c_zeta_recipe', model: 'Zeta-2', recipe: 'Prover' }),
      claim({ id: 'c_alpha_00001', model: 'Alpha-1', source: { ...claim().source, title: 'Alpha-1 report' } }),
      claim({ id: 'c_zeta_plain1', model: 'Zeta-2' }),
      claim({ id: 'c_zeta_recip2', model: 'Zeta-2', recipe: 'Coder' }),
    ];
    const keys = deriveRows(claims, [], { now: NOW }).map((r) => `${r.model}/${r.recipe}`);
    expect(keys).toEqual(['Alpha-1/null', 'Zeta-2/null', 'Zeta-2/Coder', 'Zeta-2/Prover']);
    expect(deriveRows([...claims].reverse(), [], { now: NOW }).map((r) => `${r.model}/${r.recipe}`)).toEqual(keys);
  });

  it('orders claims by source reading order, then position (null last), then creation', () => {
    const report = claim().source;
    const blog = { ...report, url: 'https://example.org/zeta-2-blog', title: 'Zeta-2 blog', kind: 'official_blog' as const };
    const claims = [
      claim({ id: 'rep_pos_900', position: { start: 900, end: 950 }, created_at: '2026-11-29T11:00:00Z' }),
      claim({ id: 'rep_no_pos1', position: null, created_at: '2026-11-29T10:30:00Z' }),
      claim({ id: 'blog_pos_50', evidence: 'B', source: blog, position: { start: 50, end: 60 }, created_at: '2026-11-29T09:00:00Z' }),
      claim({ id: 'rep_pos_100', position: { start: 100, end: 150 }, created_at: '2026-11-29T12:00:00Z' }),
    ];
    const [row] = deriveRows(claims, [], { now: NOW });
    expect(row!.claims.map((c) => c.id)).toEqual(['blog_pos_50', 'rep_pos_100', 'rep_pos_900', 'rep_no_pos1']);
  });

  it('groups one value stated by several claims into one item with distinct sources', () => {
    const report = claim().source;
    const blog = { ...report, url: 'https://example.org/zeta-2-blog', title: 'Zeta-2 blog', kind: 'official_blog' as const };
    const claims = [
      claim({ id: 'grpo_blog_1', evidence: 'B', source: blog, created_at: '2026-11-28T10:00:00Z' }),
      claim({ id: 'grpo_report', value: 'grpo' }),
      claim({ id: 'grpo_report2', position: { start: 500, end: 520 } }),
    ];
    const [row] = deriveRows(claims, [], { now: NOW });
    expect(row!.stagesAndAlgorithms).toEqual([
      {
        value: 'GRPO',
        kind: 'algorithm',
        stage: 'reasoning_rl',
        evidence: 'A',
        claimIds: ['grpo_blog_1', 'grpo_report', 'grpo_report2'],
        sources: [blog.url, report.url],
      },
    ]);
    expect(row!.evidenceExplanation).toBe('A: 2 claims from a technical report');
  });

  it('puts framework and system claims in one column and intentions in another', () => {
    const claims = [
      claim({ id: 'fw_slime_01', kind: 'framework', stage: null, value: 'slime', evidence: 'B' }),
      claim({ id: 'sys_async_1', kind: 'system', stage: 'agentic_rl', value: 'asynchronous RL' }),
      claim({ id: 'int_forget1', kind: 'intention', stage: 'opd_merge', value: 'avoid forgetting across stages', evidence: 'B' }),
    ];
    const [row] = deriveRows(claims, [], { now: NOW });
    expect(row!.frameworks.map((i) => i.value)).toEqual(['asynchronous RL', 'slime']);
    expect(row!.intentions.map((i) => i.value)).toEqual(['avoid forgetting across stages']);
    expect(row!.stagesAndAlgorithms).toEqual([]);
    // System claims appear in the per-stage view; intentions do not.
    expect(row!.stages.find((s) => s.stage === 'agentic_rl')!.items.map((i) => i.value)).toEqual(['asynchronous RL']);
    expect(row!.stages.find((s) => s.stage === 'opd_merge')!.disclosed).toBe(false);
  });

  it('never lets a third-party write-up lift a row, and explains it', () => {
    const write = claim({ id: 'third_party1', evidence: 'B', source: { ...claim().source, kind: 'third_party', title: 'Zeta-2 explained' } });
    const [row] = deriveRows([write], [], { now: NOW });
    expect(row!.evidence).toBe('C');
    expect(row!.evidenceExplanation).toBe('C: only third-party write-ups, which are not evidence');
    expect(row!.warnings.map((w) => w.code)).toEqual(['third_party']);
  });

  it('explains B rows by source kind', () => {
    const blog = { ...claim().source, kind: 'official_blog' as const, url: 'https://example.org/b' };
    const card = { ...claim().source, kind: 'model_card' as const, url: 'https://example.org/c' };
    const [row] = deriveRows([claim({ id: 'b_blog_0001', evidence: 'B', source: blog }), claim({ id: 'b_card_0001', evidence: 'B', source: card })], [], {
      now: NOW,
    });
    expect(row!.evidenceExplanation).toBe('B: 2 claims from an official blog and a model card');
    const [one] = deriveRows([claim({ id: 'b_blog_0001', evidence: 'B', source: blog })], [], { now: NOW });
    expect(one!.evidenceExplanation).toBe('B: 1 claim from an official blog');
    const repo = (url: string) => ({ ...claim().source, kind: 'repository' as const, url });
    const [repos] = deriveRows(
      [
        claim({ id: 'b_repo_0001', evidence: 'B', source: repo('https://example.org/r1') }),
        claim({ id: 'b_repo_0002', evidence: 'B', source: repo('https://example.org/r2') }),
        claim({ id: 'b_repo_0003', evidence: 'B', source: repo('https://example.org/r2') }),
      ],
      [],
      { now: NOW },
    );
    expect(repos!.evidenceExplanation).toBe('B: 3 claims from 2 repositories');
  });

  it('warns when a row’s newest claim is older than staleMonths', () => {
    const old = claim({ id: 'old_claim_1', updated_at: '2026-05-31T23:59:59Z' });
    const fresh = claim({ id: 'fresh_claim', updated_at: '2026-06-01T00:00:00Z' });
    const [staleRow] = deriveRows([old], [], { now: NOW });
    expect(staleRow!.warnings).toEqual([expect.objectContaining({ code: 'stale', claimId: null })]);
    expect(staleRow!.warnings[0]!.message).toMatch(/since 2026-05-31/);
    expect(deriveRows([old, fresh], [], { now: NOW })[0]!.warnings).toEqual([]);
    expect(deriveRows([old], [], { now: NOW, staleMonths: 12 })[0]!.warnings).toEqual([]);
    // A model record alone is never stale: there is nothing to re-check.
    expect(deriveRows([], [model({ updated_at: '2020-01-01T00:00:00Z' })], { now: NOW })[0]!.warnings).toEqual([]);
  });

  it('keeps the newer of two model records for one row', () => {
    const rows = deriveRows([], [model({ judgment: 'new', updated_at: '2026-11-30T00:00:00Z' }), model({ judgment: 'old' })], { now: NOW });
    expect(rows.map((r) => r.judgment)).toEqual(['new']);
    expect(rows[0]!.lastUpdated).toBe('2026-11-30T00:00:00Z');
  });
});

describe('claimWarnings', () => {
  const src = (title: string, url = 'https://example.org/page', kind: ClaimRecord['source']['kind'] = 'official_blog') => ({
    ...claim().source,
    title,
    url,
    kind,
  });

  it.each([
    ['Qwen3.6', 'Qwen3.5: Towards Native Agents', 'https://qwen.example/blog/qwen3.5', true],
    ['Qwen3.5', 'Qwen3.5: Towards Native Agents', 'https://qwen.example/blog/', false],
    ['Qwen3.5', 'Qwen3: Think Deeper', 'https://qwen.example/blog/', true],
    ['Kimi K2.6', 'Kimi K2.5 technical report', 'https://example.org/report', true],
    ['DeepSeek-R1-Zero', 'deepseek-ai/DeepSeek-R1: README.md', 'https://github.com/deepseek-ai/DeepSeek-R1', false],
    ['MiniMax M3', 'MaxProof for MiniMax-M3', 'https://example.org/maxproof', false],
    ['minimax-m3', 'MiniMax M3 release', 'https://example.org/news', false],
    ['Qwen3.6', 'Qwen/Qwen3.6-35B-A3B · Hugging Face', 'https://hf.example/Qwen/Qwen3.6-35B-A3B', false],
    ['Kimi K2.7', 'Kimi K2.7 Code model card', 'https://example.org/card', true],
    ['Kimi K2.6', 'Kimi K2.7 Code model card', 'https://example.org/card', true],
    ['GLM-5', 'THUDM/slime: README.md', 'https://github.com/THUDM/slime', false],
    ['GLM-5', 'slime', 'https://example.org/GLM-5.2/blog', true],
    ['GLM-5.2', 'Release notes', 'https://example.org/GLM-5.2/blog', false],
    ['Qwen3 2507', 'Qwen3 report', 'https://example.org/', true],
    ['Qwen3-235B-A22B', 'Qwen3 report', 'https://example.org/', false],
  ])('claim on %s from “%s” (%s) → version warning %s', (model, title, url, warned) => {
    const codes = claimWarnings(claim({ model, evidence: 'B', source: src(title, url) })).map((w) => w.code);
    expect(codes.includes('version_extrapolation')).toBe(warned);
  });

  it('says which models the source is about', () => {
    const [w] = claimWarnings(claim({ model: 'Qwen3.6', evidence: 'B', source: src('Qwen3.5 blog') }));
    expect(w).toEqual({
      code: 'version_extrapolation',
      claimId: 'clm_test000001',
      message: expect.stringContaining('“Qwen3.5”'),
      args: ['Qwen3.6', 'Qwen3.5'],
    });
  });

  it('flags level A outside technical reports, and third-party sources', () => {
    expect(claimWarnings(claim({ source: src('Zeta-2 blog') })).map((w) => w.code)).toEqual(['a_without_report']);
    expect(claimWarnings(claim({ evidence: 'C', source: src('Zeta-2 explained', 'https://example.org/x', 'third_party') })).map((w) => w.code)).toEqual([
      'third_party',
    ]);
    expect(claimWarnings(claim())).toEqual([]);
  });

  it('flags user guidance only on algorithm claims', () => {
    const quote = { exact: 'We recommend using GRPO or DPO if you want to fine-tune the model for your domain.', prefix: '', suffix: '' };
    expect(claimWarnings(claim({ quote })).map((w) => w.code)).toEqual(['user_guidance']);
    expect(claimWarnings(claim({ quote, kind: 'framework', value: 'TRL' }))).toEqual([]);
  });

  it('every message is one short plain sentence or two', () => {
    const all = claimWarnings(
      claim({
        model: 'Other-9',
        evidence: 'A',
        quote: { exact: 'You can fine-tune it with GRPO.', prefix: '', suffix: '' },
        source: src('Zeta-2 explained', 'https://example.org/x', 'third_party'),
      }),
    );
    expect(all.map((w) => w.code)).toEqual(['version_extrapolation', 'a_without_report', 'third_party', 'user_guidance']);
    for (const w of all) {
      expect(w.message.length).toBeLessThan(160);
      expect(w.message).toMatch(/^[A-Z“].*\.$/);
    }
  });
});

describe('sourceModels / modelMatches', () => {
  it('reads the title and the URL path', () => {
    expect(sourceModels({ title: 'Kimi K2.6 Tech Blog', url: 'https://example.org/moonshotai/Kimi-K2.6' })).toEqual(['Kimi K2.6']);
    expect(sourceModels({ title: 'Release notes', url: 'https://example.org/QwenLM/Qwen3.6/blob/main/README.md' })).toEqual(['Qwen3.6']);
    expect(sourceModels({ title: 'slime', url: 'not a url' })).toEqual([]);
  });

  it('is not fooled by a shorter version number', () => {
    expect(modelMatches('Qwen3.5', 'Qwen3')).toBe(false);
    expect(modelMatches('GLM-5.2', 'GLM-5')).toBe(false);
    expect(modelMatches('GLM-5', 'GLM-5.2')).toBe(false);
    expect(modelMatches('GLM 5', 'glm-5')).toBe(true);
  });
});

describe('tombstones', () => {
  it.each([
    [{ deleted_at: '2026-11-30T10:00:00Z' }, true],
    [{ deleted_at: 'yes' }, true],
    [{ deleted_at: 1 }, true],
    [{ deleted_at: null }, false],
    [{ deleted_at: '' }, false],
    [{ deleted_at: false }, false],
    [{}, false],
  ])('isTombstone(%j) is %s', (fields, expected) => {
    expect(isTombstone({ ...claim(), ...fields })).toBe(expected);
  });

  it('withoutTombstones keeps the order of the live records', () => {
    const a = claim({ id: 'live_a_0001' });
    const b = claim({ id: 'dead_b_0001', deleted_at: '2026-11-30T10:00:00Z' });
    const c = claim({ id: 'live_c_0001' });
    expect(withoutTombstones([a, b, c]).map((x) => x.id)).toEqual(['live_a_0001', 'live_c_0001']);
  });

  it('deriveRows counts them for nothing: no row, no claim, no evidence, no judgment', () => {
    const dead = { deleted_at: '2026-11-30T10:00:00Z' };
    const rows = deriveRows(
      [
        claim({ id: 'keep_000001', model: 'Zeta-2', evidence: 'B', source: { ...claim().source, kind: 'official_blog' } }),
        claim({ id: 'gone_000001', model: 'Zeta-2', evidence: 'A', ...dead }),
        claim({ id: 'gone_000002', model: 'Gone-1', ...dead }),
      ],
      [model({ model: 'Zeta-2', judgment: 'kept' }), model({ model: 'Gone-2', judgment: 'deleted', ...dead } as never)],
      { now: NOW },
    );
    expect(rows.map((r) => r.model)).toEqual(['Zeta-2']);
    expect(rows[0]!.claims.map((c) => c.id)).toEqual(['keep_000001']);
    expect([rows[0]!.evidence, rows[0]!.judgment]).toEqual(['B', 'kept']);
  });
});

describe('undisclosedColumns', () => {
  it.each([
    ['RL stages', null, ['stages']],
    ['RL stages, rewards and algorithms', null, ['stages']],
    ['general RL recipe', null, ['stages']],
    ['training framework', null, ['framework']],
    ['RL infrastructure', null, ['framework']],
    ['训练框架', null, ['framework']],
    ['design intention', null, ['intention']],
    ['训练目标', null, ['intention']],
    ['RL framework and stages', null, ['framework', 'stages']],
    ['anything at all', null, ['stages']],
    ['training framework', 'agentic_rl', ['stages']],
  ] as const)('%j (stage %s) → %j', (value, stage, columns) => {
    expect(undisclosedColumns({ value, stage })).toEqual(columns);
  });
});
