// The seed article's Summary Table, rebuilt from records written for this test (quotes composed here,
// not taken from the real pages) and rendered back: same rows, same columns, "未公开" where the seed has it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { claimLink, renderSurveyTable } from '../../../lib/export';
import type { ClaimRecord, Source } from '../../../lib/schema';
import { deriveRows, type SurveyRow } from '../../../lib/survey';
import { claim, model } from '../fixtures/records';

const NOW = '2026-12-01T00:00:00Z';
const SEED = path.resolve(__dirname, '../../../../shared/seed/000_21e031608ba82bad.txt');

function src(url: string, title: string, kind: Source['kind'], publisher: string): Source {
  return { url, title, kind, publisher, published: null, accessed: '2026-11-29' };
}
const S = {
  qwen35: src('https://qwen.example/blog/qwen3.5', 'Qwen3.5: native multimodal agents', 'official_blog', 'Qwen Team'),
  qwen36: src('https://code.example/QwenLM/Qwen3.6', 'QwenLM/Qwen3.6: README.md', 'repository', 'Qwen Team'),
  m3: src('https://minimax.example/news/minimax-m3', 'MiniMax M3 release', 'release', 'MiniMax'),
  maxProof: src('https://papers.example/abs/maxproof', 'MaxProof: proof RL and test-time scaling with MiniMax-M3', 'technical_report', 'MiniMax'),
  maxProofBlog: src('https://minimax.example/news/maxproof', 'MaxProof with MiniMax M3', 'official_blog', 'MiniMax'),
  k26: src('https://moonshot.example/kimi-k2.6', 'Kimi K2.6', 'release', 'Moonshot AI'),
  k27: src('https://models.example/moonshotai/Kimi-K2.7-Code', 'moonshotai/Kimi-K2.7-Code model card', 'model_card', 'Moonshot AI'),
  glm5: src('https://papers.example/abs/glm-5', 'GLM-5 Technical Report', 'technical_report', 'Zhipu AI'),
  slime: src('https://code.example/THUDM/slime', 'THUDM/slime', 'repository', 'THUDM'),
  glm52: src('https://z.example/blog/glm-5.2', 'GLM-5.2: long-horizon agents', 'official_blog', 'Zhipu AI'),
};

let n = 0;
function c(
  model: string,
  source: Source,
  kind: ClaimRecord['kind'],
  value: string,
  stage: ClaimRecord['stage'],
  evidence: ClaimRecord['evidence'],
  exact: string,
  extra: Partial<ClaimRecord> = {},
): ClaimRecord {
  n += 1;
  return claim({
    id: `seed_claim_${String(n).padStart(3, '0')}`,
    model,
    kind,
    value,
    stage,
    evidence,
    quote: { exact, prefix: '', suffix: '' },
    position: { start: n * 100, end: n * 100 + exact.length },
    source,
    ...extra,
  });
}

const claims: ClaimRecord[] = [
  c('Qwen3.5', S.qwen35, 'framework', 'scalable asynchronous RL framework', null, 'B', 'Qwen3.5 is trained with a scalable asynchronous RL framework.'),
  c('Qwen3.5', S.qwen35, 'system', 'training-inference disaggregation', null, 'B', 'Training and inference run disaggregated.'),
  c('Qwen3.5', S.qwen35, 'system', 'rollout routing replay', 'agentic_rl', 'B', 'We replay rollout routing decisions in training.'),
  c('Qwen3.5', S.qwen35, 'system', 'multi-turn rollout locking', 'agentic_rl', 'B', 'Multi-turn rollouts are locked to one policy version.'),
  c(
    'Qwen3.5',
    S.qwen35,
    'intention',
    'generalise RL to complex agent environments',
    null,
    'B',
    'We scale RL beyond narrow benchmarks to complex agent environments.',
  ),

  c('Qwen3.6', S.qwen36, 'undisclosed', 'RL stages', null, 'C', 'You can fine-tune Qwen3.6 with SFT, DPO, GRPO and more using common frameworks.', {
    note: 'User guidance, not the training recipe.',
  }),
  c('Qwen3.6', S.qwen36, 'undisclosed', 'training framework', null, 'C', 'Qwen3.6 is now available in several sizes.'),
  c(
    'Qwen3.6',
    S.qwen36,
    'intention',
    'stability, agentic coding, thinking preservation',
    null,
    'C',
    'Qwen3.6 focuses on stability, agentic coding and preserving thinking.',
    { evidence_reason: 'Positioning only, no RL detail.' },
  ),

  c('MiniMax M3', S.m3, 'undisclosed', 'general RL recipe', null, 'C', 'MiniMax M3 tops long-context benchmarks and is available today.'),
  c('MiniMax M3', S.maxProof, 'algorithm', 'CISPO', 'reasoning_rl', 'A', 'The Proof Expert is optimised with CISPO.', { recipe: 'MaxProof' }),
  c(
    'MiniMax M3',
    S.maxProof,
    'reward',
    'std-threshold filter',
    'reasoning_rl',
    'A',
    'Prompts whose reward standard deviation is below a threshold are filtered out.',
    { recipe: 'MaxProof' },
  ),
  c(
    'MiniMax M3',
    S.maxProof,
    'algorithm',
    'rejection-sampling fine-tuning',
    'sft_distillation',
    'A',
    'The Fixer Expert is trained with rejection-sampling fine-tuning.',
    { recipe: 'MaxProof' },
  ),
  c('MiniMax M3', S.maxProofBlog, 'framework', 'forge', null, 'B', 'Proof RL ran on forge, our RL framework.', { recipe: 'MaxProof' }),
  c(
    'MiniMax M3',
    S.maxProof,
    'intention',
    'fewer verifier false positives, less reward hacking',
    null,
    'B',
    'The verifier is aligned to cut false positives that invite reward hacking.',
    { recipe: 'MaxProof' },
  ),

  c('Kimi K2.6', S.k26, 'intention', 'long-horizon coding, agent swarms', null, 'C', 'Kimi K2.6 brings long-horizon coding and agent swarms.'),
  c('Kimi K2.6', S.k26, 'undisclosed', 'RL stages', null, 'C', 'Kimi K2.6 is available in the app and the API.'),

  c(
    'Kimi K2.7 Code',
    S.k27,
    'intention',
    'long-horizon software engineering, token efficiency',
    null,
    'C',
    'Kimi K2.7 Code completes long software workflows with fewer thinking tokens.',
    { evidence_reason: 'Results only, no RL detail.' },
  ),
  c(
    'Kimi K2.7 Code',
    S.k27,
    'undisclosed',
    'RL stages, rewards and algorithms',
    null,
    'C',
    'Kimi K2.7 Code is a coding-focused agentic model based on Kimi K2.6.',
  ),

  c('GLM-5', S.glm5, 'stage', 'Reasoning RL', 'reasoning_rl', 'A', 'Post-training runs Reasoning RL, Agentic RL and General RL, then on-policy distillation.'),
  c('GLM-5', S.glm5, 'algorithm', 'GRPO', 'reasoning_rl', 'A', 'Reasoning RL uses GRPO with IcePop and no KL term.'),
  c('GLM-5', S.glm5, 'algorithm', 'IcePop', 'reasoning_rl', 'A', 'Reasoning RL uses GRPO with IcePop and no KL term.'),
  c('GLM-5', S.glm5, 'stage', 'Agentic RL', 'agentic_rl', 'A', 'Agentic RL is fully asynchronous.'),
  c('GLM-5', S.glm5, 'system', 'asynchronous RL', 'agentic_rl', 'A', 'Agentic RL is fully asynchronous.'),
  c('GLM-5', S.glm5, 'system', 'TITO', 'agentic_rl', 'A', 'Token-in-token-out avoids re-tokenisation mismatches.'),
  c(
    'GLM-5',
    S.glm5,
    'algorithm',
    'Direct Double-sided Importance Sampling',
    'agentic_rl',
    'A',
    'Off-policy rollouts are corrected with direct double-sided importance sampling.',
  ),
  c('GLM-5', S.glm5, 'stage', 'General RL', 'general_rl', 'A', 'General RL targets factuality, instruction following and style.'),
  c('GLM-5', S.glm5, 'stage', 'OPD', 'opd_merge', 'A', 'On-policy distillation consolidates the stages.'),
  c('GLM-5', S.slime, 'framework', 'slime', null, 'B', 'slime is the RL framework behind GLM-5.'),
  c('GLM-5', S.glm5, 'intention', 'avoid forgetting across post-training stages', 'opd_merge', 'B', 'Distillation keeps earlier skills from being forgotten.'),

  c('GLM-5.2', S.glm52, 'framework', 'slime', null, 'B', 'GLM-5.2 is trained with slime.'),
  c('GLM-5.2', S.glm52, 'algorithm', 'critic-based PPO', 'agentic_rl', 'B', 'Long-horizon RL moves to PPO with a critic.'),
  c('GLM-5.2', S.glm52, 'reward', 'anti-hack module', 'agentic_rl', 'B', 'An anti-hack module stops reading hidden tests.'),
  c('GLM-5.2', S.glm52, 'stage', 'OPD', 'opd_merge', 'B', 'Parallel on-policy distillation follows.'),
  c(
    'GLM-5.2',
    S.glm52,
    'intention',
    'credit assignment over uneven sub-traces; stop reward hacking',
    null,
    'B',
    'The critic handles sub-traces of uneven length and number.',
  ),
];

const models = [
  model({ model: 'Qwen3.5', vendor: 'Qwen Team', judgment: 'Async RL infrastructure disclosed; not a full recipe.' }),
  model({ model: 'Qwen3.6', vendor: 'Qwen Team', judgment: '只能记录 RL 阶段未公开；不要把 Qwen3.5 的 RL 框架外推到 Qwen3.6。' }),
  model({ model: 'MiniMax M3', vendor: 'MiniMax', judgment: 'General recipe insufficient.' }),
  model({ model: 'MiniMax M3', recipe: 'MaxProof', vendor: 'MiniMax', judgment: 'A proof-RL case study of the M3 series.' }),
  model({ model: 'Kimi K2.6', vendor: 'Moonshot AI', judgment: 'Capability continuity with K2.5 only; no PARL recipe disclosed.' }),
  model({ model: 'Kimi K2.7 Code', vendor: 'Moonshot AI', based_on: 'Kimi K2.6', judgment: 'K2.6 之上的代码专项后训练结果；RL 阶段、奖励和算法均未公开。' }),
  model({ model: 'GLM-5', vendor: 'Zhipu AI', judgment: 'Full RL recipe reconstructable.' }),
  model({ model: 'GLM-5.2', vendor: 'Zhipu AI', judgment: 'Needs a report for the full recipe.' }),
];

// The seed's rows in its order; the MiniMax M3 row is shown as the model row plus its MaxProof row.
const SEED_MODELS = ['Qwen3.5', 'Qwen3.6', 'MiniMax M3', 'Kimi K2.6', 'Kimi K2.7 Code', 'GLM-5', 'GLM-5.2'];
const COLUMNS = ['framework', 'stages', 'intention', 'judgment'] as const;
// Where the seed's cell says the thing is not disclosed (未公开 / 未披露), read off its Summary Table.
const SEED_NOT_DISCLOSED: Record<string, ReadonlyArray<(typeof COLUMNS)[number]>> = {
  'Qwen3.5': [],
  'Qwen3.6': ['framework', 'stages', 'judgment'],
  'MiniMax M3': ['framework', 'stages'],
  'Kimi K2.6': ['framework', 'stages'],
  'Kimi K2.7 Code': ['framework', 'stages', 'judgment'],
  'GLM-5': [],
  'GLM-5.2': [],
};
const SEED_EVIDENCE = ['B', 'C', 'B / A', 'C', 'C', 'A', 'B'];

function seedOrder(rows: SurveyRow[]): SurveyRow[] {
  const rank = (r: SurveyRow) => SEED_MODELS.indexOf(r.model) * 2 + (r.recipe === null ? 0 : 1);
  return [...rows].sort((a, b) => rank(a) - rank(b));
}

function tableRows(md: string): string[][] {
  return md
    .split('\n')
    .filter((l) => l.startsWith('| '))
    .map((l) => l.slice(2, -2).split(/(?<!\\) \| /));
}

describe('the seed’s Summary Table, rendered from records', () => {
  const rows = seedOrder(deriveRows(claims, models, { now: NOW }));

  it('has the seed’s columns and rows in its order, the recipe row right after its model', () => {
    const [header, ...body] = tableRows(renderSurveyTable(rows, { format: 'md', lang: 'en' }));
    expect(header).toEqual(['Model', 'Evidence', 'RL framework / system', 'Public RL stages and algorithms', 'Design intention', 'Current judgment']);
    expect(body.map((r) => r[0])).toEqual(['Qwen3.5', 'Qwen3.6', 'MiniMax M3', 'MiniMax M3 · MaxProof', 'Kimi K2.6', 'Kimi K2.7 Code', 'GLM-5', 'GLM-5.2']);
    const zhHeader = tableRows(renderSurveyTable(rows, { format: 'md', lang: 'zh' }))[0];
    expect(zhHeader).toEqual(['模型', '证据等级', 'RL 框架 / 系统', '公开的 RL 阶段与算法', '设计意图', '当前判断']);
  });

  it('has the seed’s evidence levels (the MiniMax model row’s own level is C: its only claim is a release’s silence)', () => {
    const body = tableRows(renderSurveyTable(rows, { format: 'md', lang: 'en' })).slice(1);
    const byLabel = Object.fromEntries(body.map((r) => [r[0], r[1]]));
    SEED_MODELS.forEach((m, i) => {
      if (m === 'MiniMax M3') {
        expect(byLabel[m]).toBe('C / A');
        expect(SEED_EVIDENCE[i]).toMatch(/ \/ A$/);
        expect(byLabel['MiniMax M3 · MaxProof']).toBe('A');
      } else {
        expect(byLabel[m], m).toBe(SEED_EVIDENCE[i]);
      }
    });
  });

  it('writes 未公开 where the seed does, and cites a source for every disclosed value', () => {
    const body = tableRows(renderSurveyTable(rows, { format: 'md', lang: 'zh' })).slice(1);
    const byLabel = Object.fromEntries(body.map((r) => [r[0]!, r]));
    for (const m of SEED_MODELS) {
      const cells = byLabel[m]!;
      for (const column of SEED_NOT_DISCLOSED[m]!) {
        expect(cells[2 + COLUMNS.indexOf(column)], `${m} ${column}`).toContain('未公开');
      }
    }
    for (const m of ['GLM-5', 'GLM-5.2', 'MiniMax M3 · MaxProof']) {
      const cells = byLabel[m]!;
      for (const cell of cells.slice(2, 5)) {
        expect(cell, m).not.toContain('未公开');
        expect(cell, m).toMatch(/\[\^\d+\]/);
      }
    }
    for (const cells of body) for (const cell of cells) expect(cell.trim()).not.toBe('');
    // System designs (asynchronous RL, TITO) sit in the framework / system column, as the spec's kind table says.
    // Footnotes are passages: GRPO and IcePop share one (the same sentence), the Agentic RL stage shares the asynchronous RL one.
    expect(byLabel['GLM-5']![2]).toBe('asynchronous RL[^19], TITO[^20], slime[^21]');
    expect(byLabel['GLM-5']![3]).toBe(
      'Reasoning RL[^22]：GRPO[^23], IcePop[^23]; Agentic RL[^19]：Direct Double-sided Importance Sampling[^24]; General RL[^25]; OPD[^26]',
    );
  });

  it('puts each undisclosed finding in the cell it speaks about, with its footnote, and leaves the judgment to the curator', () => {
    const body = tableRows(renderSurveyTable(rows, { format: 'md', lang: 'zh' })).slice(1);
    const byLabel = Object.fromEntries(body.map((r) => [r[0]!, r]));
    for (const m of ['Qwen3.6', 'MiniMax M3', 'Kimi K2.6', 'Kimi K2.7 Code']) expect(byLabel[m]![3], m).toMatch(/^未公开：.+\[\^\d+\]$/);
    expect(byLabel['Qwen3.6']![2]).toMatch(/^未公开：training framework\[\^\d+\]$/);
    for (const r of rows) {
      const label = r.recipe ? `${r.model} · ${r.recipe}` : r.model;
      expect(byLabel[label]![5], label).toBe(r.judgment);
    }
    const en = tableRows(renderSurveyTable(rows, { format: 'md', lang: 'en' })).slice(1);
    expect(en.find((r) => r[0] === 'Kimi K2.6')![3]).toMatch(/^Not disclosed: RL stages\[\^\d+\]$/);
  });

  it('gives every claim a footnote with its quoted words and its text-fragment link', () => {
    const md = renderSurveyTable(rows, { format: 'md', lang: 'en' });
    const notes = md.split('\n').filter((l) => l.startsWith('[^'));
    for (const c of claims) {
      const note = notes.find((l) => l.includes(`“${c.quote.exact}”`));
      expect(note, c.id).toBeDefined();
      expect(note!, c.id).toContain(` — ${c.source.title} <${claimLink(c)}>`);
      expect(claimLink(c), c.id).toContain('#:~:text=');
    }
    expect(notes).toHaveLength(new Set(claims.map((c) => `${c.source.url} ${c.quote.exact}`)).size);
  });

  it('reads the same 未公开 cells off the seed article itself, when it is present', () => {
    if (!existsSync(SEED)) {
      expect(existsSync(SEED)).toBe(false); // the shared seed is not checked out here: the embedded table above stands
      return;
    }
    const text = readFileSync(SEED, 'utf8');
    const table = text.slice(text.indexOf('Summary Table'), text.indexOf('Reference Lines'));
    const lines = table.split('\n').filter((l) => l.includes('\t'));
    expect(lines[0]!.split('\t')).toEqual([
      'Model',
      'Evidence',
      'RL framework / system',
      'Public RL stages and algorithms',
      'Design intention',
      'Current judgment',
    ]);
    const seedRows = lines.slice(1).map((l) => l.split('\t'));
    expect(seedRows.map((r) => r[0])).toEqual(SEED_MODELS);
    expect(seedRows.map((r) => r[1])).toEqual(SEED_EVIDENCE);
    for (const r of seedRows) {
      const said = COLUMNS.filter((_, i) => /未公开|未披露/.test(r[2 + i]!));
      expect(said, r[0]).toEqual(SEED_NOT_DISCLOSED[r[0]!]);
    }
  });

  it('links Kimi K2.7 Code to Kimi K2.6 without sharing claims', () => {
    const k27 = rows.find((r) => r.model === 'Kimi K2.7 Code')!;
    const k26 = rows.find((r) => r.model === 'Kimi K2.6')!;
    expect(k27.related).toEqual([k26.key]);
    expect(k26.related).toEqual([k27.key]);
    expect(k27.claims.every((cl) => cl.model === 'Kimi K2.7 Code')).toBe(true);
  });

  it('raises no version warnings on these records', () => {
    expect(rows.flatMap((r) => r.warnings)).toEqual([]);
  });
});
