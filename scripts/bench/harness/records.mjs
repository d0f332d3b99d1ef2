// Survey records the benchmarks import: a generated store (claims spread over models, a model record each)
// and the claims of passages on a benchmark page. Deterministic (seeded).
import { createRandom } from './prng.mjs';

const KINDS = ['stage', 'algorithm', 'framework', 'reward', 'system', 'intention', 'undisclosed'];
const STAGES = ['pretrain_midtrain', 'sft_distillation', 'reasoning_rl', 'agentic_rl', 'general_rl', 'vlm_omni_rl', 'opd_merge', null];
const VALUES = [
  'GRPO',
  'GSPO',
  'CISPO',
  'PPO',
  'DPO',
  'IcePop',
  'slime',
  'verl',
  'rule-based reward',
  'RLVR',
  'asynchronous RL',
  'TITO',
  'Reasoning RL',
  'General RL',
  'OPD',
];
const VENDORS = ['Zhipu AI', 'Qwen Team', 'DeepSeek', 'Moonshot AI', 'MiniMax', 'ByteDance Seed', 'Mistral', 'Meta'];

/** Survey-record JSONL with `claims` claims spread over `models` models (and a model record each). */
export function generateStore({ claims = 10_000, models = 500, seed = 7 } = {}) {
  const { pick } = createRandom(seed);
  const lines = [];
  for (let m = 0; m < models; m++) {
    lines.push(
      JSON.stringify({
        schema: 'rl-survey.model/1',
        model: `Model-${m}`,
        recipe: null,
        vendor: VENDORS[m % VENDORS.length],
        based_on: m > 0 && m % 10 === 0 ? `Model-${m - 1}` : null,
        judgment: `Judgment for model ${m}: partial recipe from the blog.`,
        updated_at: '2026-11-01T00:00:00Z',
      }),
    );
  }
  for (let i = 0; i < claims; i++) {
    const m = i % models;
    const value = pick(VALUES);
    const exact = `Model-${m} was post-trained with ${value} in stage ${i % 7}; passage ${i} describes the rollout, reward and the data mix used.`;
    lines.push(
      JSON.stringify({
        schema: 'rl-survey.claim/1',
        id: `bench_${String(i).padStart(6, '0')}`,
        model: `Model-${m}`,
        recipe: null,
        kind: pick(KINDS),
        stage: pick(STAGES),
        value,
        evidence: pick(['A', 'B', 'C']),
        evidence_reason: null,
        quote: { exact, prefix: 'previous sentence ends here. ', suffix: ' The next sentence follows.' },
        position: null,
        source: {
          url: `https://example.org/model-${m}/source-${i % 3}`,
          title: `Model-${m} report ${i % 3}`,
          kind: pick(['technical_report', 'official_blog', 'model_card', 'repository']),
          publisher: VENDORS[m % VENDORS.length],
          published: '2026-10-01',
          accessed: '2026-11-20',
        },
        link: null,
        note: i % 5 === 0 ? `note ${i}` : '',
        curator: 'bench',
        created_at: '2026-11-20T00:00:00Z',
        updated_at: '2026-11-20T00:00:00Z',
      }),
    );
  }
  return lines.join('\n') + '\n';
}

/** Survey-record JSONL for the passages of a generated page (so the extension can import them). */
export function pageClaimsJsonl(page, passages) {
  const kinds = ['stage', 'algorithm', 'framework', 'reward', 'system', 'intention', 'undisclosed'];
  return passages
    .map((p, i) =>
      JSON.stringify({
        schema: 'rl-survey.claim/1',
        id: `bench_${p.id}`,
        model: 'BenchModel-1',
        recipe: null,
        kind: kinds[i % kinds.length],
        stage: null,
        value: `passage ${i}`,
        evidence: 'B',
        evidence_reason: null,
        quote: p.quote,
        position: p.position,
        source: { url: page.url, title: page.title, kind: 'technical_report', publisher: 'Benchmark', published: null, accessed: '2026-11-29' },
        link: null,
        note: '',
        curator: 'bench',
        created_at: '2026-11-29T00:00:00Z',
        updated_at: '2026-11-29T00:00:00Z',
      }),
    )
    .join('\n')
    .concat('\n');
}
