// Deterministic generator of arXiv-scale benchmark pages: sections, hard-wrapped
// and flowing paragraphs, inline links/bold/code, tables, code blocks, CJK
// paragraphs, curly quotes and repeated boilerplate sentences. The passages
// to anchor are marked in the HTML with inline `<span data-rlp>` wrappers (or a
// `data-rlp-start`/`data-rlp-end` pair when a passage crosses blocks); the
// spans add no text, so every matcher reads the same page text.
import { createRandom } from './prng.mjs';

const MODELS = ['Qwen3-235B-A22B', 'GLM-5', 'DeepSeek-R1', 'Kimi K2', 'MiniMax-M1', 'Seed-1.5', 'Llama-4', 'Mistral-Large-3', 'Hunyuan-T1', 'Step-3'];
const NOUNS = [
  'policy model',
  'reward model',
  'critic',
  'rollout engine',
  'actor',
  'reference model',
  'verifier',
  'rollout worker',
  'scheduler',
  'trainer',
  'base model',
  'distilled student',
  'teacher',
  'data pipeline',
  'curriculum',
  'value head',
  'sandbox',
  'judge model',
  'tokenizer',
  'inference server',
  'replay buffer',
  'sampler',
  'optimizer',
  'router',
  'expert layer',
  'draft model',
  'grader',
  'environment pool',
  'prompt filter',
  'length controller',
  'checkpoint merger',
  'evaluation harness',
  'search agent',
  'coding agent',
  'math solver',
  'vision encoder',
  'speech decoder',
  'memory module',
  'planner',
  'tool executor',
];
const DETERMINERS = ['the', 'our', 'each', 'every', 'this', 'the final', 'the second', 'a separate', 'the shared', 'the frozen'];
const VERBS = [
  'is trained with',
  'is optimised by',
  'is warmed up with',
  'uses',
  'samples',
  'filters',
  'rewards',
  'penalises',
  'relies on',
  'was fine-tuned on',
  'scales',
  'reduces',
  'improves',
  'stabilises',
  'combines',
  'replaces',
  'is evaluated on',
  'benefits from',
  'is regularised by',
  'prefers',
  'discards',
  'caches',
  'shards',
  'schedules',
  'distils',
  'is conditioned on',
  'mixes',
  'ranks',
  'truncates',
  'reweights',
  'is initialised from',
  'bootstraps',
  'aggregates',
  'verifies',
  'compresses',
  'streams',
];
const OBJECTS = [
  'GRPO',
  'PPO with a learned critic',
  'rule-based rewards',
  'long chain-of-thought data',
  'rejection-sampled trajectories',
  'asynchronous rollouts',
  'a KL penalty',
  'verifiable math problems',
  'unit-tested code tasks',
  'multi-turn tool calls',
  'a process reward model',
  'rubric-based judgements',
  'length penalties',
  'entropy bonuses',
  'DAPO-style clipping',
  'token-level importance weights',
  'off-policy corrections',
  'preference pairs',
  'synthetic agent environments',
  'cold-start SFT data',
  'dynamic sampling',
  'group-normalised advantages',
  'the Megatron backend',
  'SGLang rollouts',
  'overlong filtering',
  'partial rollouts',
  'reward shaping',
  'outcome supervision',
  'step-level feedback',
  'curriculum buckets',
  'format rewards',
  'language-consistency rewards',
  'pass@k estimates',
  'self-play games',
  'web-browsing traces',
  'retrieval results',
  'image-grounded questions',
  'sandboxed execution feedback',
  'mixture-of-experts routing',
  'FP8 rollouts',
  'speculative decoding',
  'sequence packing',
];
const TAILS = [
  'during the second stage',
  'across {n} general-domain tasks',
  'on math and code prompts',
  'with a batch size of {n}',
  'for {n} steps',
  'at a learning rate of {d}e-6',
  'without supervised fine-tuning',
  'after the cold start',
  'in every epoch',
  'on {n} GPUs',
  'with {n} rollouts per prompt',
  'under a {n}K context window',
  'before thinking mode fusion',
  'as in Section {s}',
  'with a clip ratio of 0.{d}',
  'while keeping the KL below 0.0{d}',
  'over {n} environments',
  'compared with the baseline',
  'for the {n}B variant',
  'on {n} held-out prompts',
  'within {n} seconds per episode',
  'after {n} warm-up iterations',
  'using {n} nodes',
  'as shown in Figure {d}',
  'unlike the version in Table {d}',
  'with a {d}:{d} data mix',
  'at temperature 0.{d}',
  'on the {n} hardest problems',
  'until the reward saturates',
  'when the verifier disagrees',
  'for {n} turns per dialogue',
  'in {n} languages',
  'with {n} experts active',
  'at a {n}-token budget',
  'following the recipe of [{n}]',
];
const ADJECTIVES = [
  'stable',
  'sparse',
  'dense',
  'verifiable',
  'multi-turn',
  'long-horizon',
  'agentic',
  'noisy',
  'curated',
  'balanced',
  'larger',
  'smaller',
  'filtered',
  'synthetic',
  'multilingual',
  'multimodal',
  'distilled',
  'quantised',
  'sharded',
  'frozen',
  'adaptive',
  'hierarchical',
];
const BOILERPLATE = [
  'All results are averaged over three random seeds.',
  'See the appendix for the full list of hyper-parameters.',
  'We release the code and the checkpoints to the community.',
  'Numbers in bold are the best in each column.',
  'The same setting is used for every model in this section.',
  'Higher is better for every metric reported here.',
  'This ablation keeps all other settings unchanged.',
  'We leave a fuller study of this effect to future work.',
  'Training curves are shown in the figure below.',
  'The evaluation protocol follows prior work.',
];
const CJK = [
  '我们',
  '在第二阶段',
  '采用',
  '基于规则的奖励',
  '强化学习',
  '策略模型',
  '推理能力',
  '冷启动数据',
  '显著提升了',
  '训练过程中',
  '长链式思维',
  '多轮对话',
  '通用领域任务',
  '进一步',
  '奖励模型',
  '数学与代码',
  '异步采样',
  '拒绝采样',
  '蒸馏',
  '思考模式融合',
  '稳定性',
  '的',
  '并且',
  '通过',
  '对',
  '进行了',
  '优化',
  '实验表明',
  '模型',
  '数据',
  '智能体',
  '工具调用',
  '长上下文',
  '评测',
];
const CJK_TERMS = ['GRPO', 'PPO', 'RLVR', 'SFT', '“思考模式”', '“非思考模式”'];
const METHODS = ['GRPO', 'PPO', 'DAPO', 'REINFORCE++', 'RLOO', 'CISPO', 'GSPO', 'SFT only', 'DPO', 'Base'];
const CODE = [
  '{v}.fit(policy_{d}, reward_fn={f}, kl_coef={d}e-3)',
  '{v} = engine.generate(prompts_{d}, n={n}, temperature=0.{d})',
  'adv_{d} = ({v} - {v}.mean()) / ({v}.std() + 1e-{d})',
  'loss = -(ratio.clamp(1 - {e}, 1 + {e}) * adv_{d}).mean()',
  'for step in range({n}):',
  '    batch = {v}.next_batch(size={n})',
  '    {v}.step(); scheduler_{d}.step()',
  'config.max_{v}_length = {n}',
  'if {v} > 0.{d}: keep_{d}.append(sample)',
  'return torch.where(mask_{d}, {v}, torch.zeros_like({v}))',
  '{v} = load_checkpoint("ckpt/{v}_{n}.pt")',
  'assert {v}.shape[0] == {n}, "bad batch"',
];
const IDENTS = [
  'rewards',
  'logp',
  'values',
  'returns',
  'rollouts',
  'trainer',
  'optimizer',
  'sampler',
  'buffer',
  'scores',
  'tokens',
  'masks',
  'advantages',
  'critic',
];
const FUNCS = ['rule_based', 'rubric_judge', 'unit_tests', 'math_verify', 'format_check', 'length_penalty'];
const SECTION_TITLES = [
  'Introduction',
  'Related Work',
  'Method',
  'Reward Design',
  'Training Infrastructure',
  'Experiments',
  'Ablations',
  'Analysis',
  'Limitations',
  'Conclusion',
];

/** Escapes text for HTML element content. */
function esc(s) {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Fills {n}, {d}, {s} placeholders with random numbers. */
function fill(r, s) {
  return s
    .replace(/\{n\}/g, () => String(r.int(2, 4096)))
    .replace(/\{d\}/g, () => String(r.int(1, 9)))
    .replace(/\{s\}/g, () => `${r.int(2, 9)}.${r.int(1, 6)}`)
    .replace(/\{v\}/g, () => r.pick(IDENTS))
    .replace(/\{f\}/g, () => r.pick(FUNCS))
    .replace(/\{e\}/g, () => `0.${r.int(1, 3)}${r.int(0, 9)}`);
}

/** Plain words as tokens. */
function words(text) {
  return text.split(' ').map((w) => ({ text: w, html: esc(w) }));
}

/** One generated English sentence as tokens (some wrapped in inline markup). */
function sentence(r) {
  const tokens = [];
  const noun = `${r.chance(0.3) ? `${r.pick(ADJECTIVES)} ` : ''}${r.pick(NOUNS)}`;
  const subj = r.chance(0.25) ? `${r.pick(MODELS)}’s ${noun}` : `${r.pick(DETERMINERS)} ${noun}`;
  const subjWords = words(subj);
  subjWords[0] = { text: cap(subjWords[0].text), html: esc(cap(subjWords[0].text)) };
  tokens.push(...subjWords);
  tokens.push(...words(r.pick(VERBS)));
  if (r.chance(0.3)) tokens.push(...words(r.pick(ADJECTIVES)));
  const obj = r.pick(OBJECTS);
  const objWords = words(obj);
  const markup = r.next();
  if (markup < 0.15) tokens.push(group('a', objWords, ` href="#ref-${r.int(1, 300)}"`));
  else if (markup < 0.25) tokens.push(group('b', objWords));
  else if (markup < 0.3) tokens.push(group('em', objWords));
  else if (markup < 0.36 && objWords.length === 1) tokens.push(group('code', objWords));
  else tokens.push(...objWords);
  const tails = r.int(0, 2);
  for (let i = 0; i < tails; i++) tokens.push(...words(fill(r, r.pick(TAILS))));
  if (r.chance(0.08)) tokens.push(...words(`and calls it “${r.pick(['thinking mode', 'fast path', 'slow path', 'warm start', 'self-check'])}”`));
  if (r.chance(0.15)) {
    const n = r.int(1, 120);
    tokens.push({ text: `[${n}]`, html: `<a class="cite" href="#bib${n}">[${n}]</a>` });
  }
  const last = tokens[tokens.length - 1];
  last.text += '.';
  last.html += '.';
  return tokens;
}

/** Capitalises the first letter. */
function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Several words rendered inside one inline element (a single token for passage boundaries). */
function group(tag, ws, attrs = '') {
  return { text: ws.map((w) => w.text).join(' '), html: `<${tag}${attrs}>${ws.map((w) => w.html).join(' ')}</${tag}>`, words: ws.length };
}

/** One CJK sentence as tokens (joined without spaces). */
function cjkSentence(r) {
  const tokens = [];
  const n = r.int(6, 14);
  for (let i = 0; i < n; i++) {
    const t = r.chance(0.12) ? r.pick(CJK_TERMS) : r.pick(CJK);
    tokens.push(r.chance(0.06) ? { text: t, html: `<b>${esc(t)}</b>` } : { text: t, html: esc(t) });
    if (i > 2 && i < n - 2 && r.chance(0.1)) tokens.push({ text: '，', html: '，' });
  }
  tokens[tokens.length - 1] = { text: `${tokens[tokens.length - 1].text}。`, html: `${tokens[tokens.length - 1].html}。` };
  return tokens;
}

/**
 * Builds one benchmark page.
 * @param {{ seed: number, targetChars: number, passages: number, id: string, title: string }} spec
 * @returns {{ html: string, passages: number, approxChars: number }}
 */
export function generatePage(spec) {
  const r = createRandom(spec.seed);
  /** @type {Array<any>} */
  const blocks = [];
  let chars = 0;
  let section = 0;
  let sub = 0;
  while (chars < spec.targetChars) {
    if (blocks.length === 0 || r.chance(0.02)) {
      section++;
      sub = 0;
      const t = `${section}. ${SECTION_TITLES[(section - 1) % SECTION_TITLES.length]}${section > SECTION_TITLES.length ? ` (part ${Math.ceil(section / SECTION_TITLES.length)})` : ''}`;
      blocks.push({ type: 'h2', text: t });
      chars += t.length + 1;
      continue;
    }
    if (r.chance(0.05)) {
      sub++;
      const t = `${section}.${sub} ${cap(r.pick(OBJECTS))} ${r.pick(['in practice', 'at scale', 'for agents', 'and stability', 'revisited'])}`;
      blocks.push({ type: 'h3', text: t });
      chars += t.length + 1;
      continue;
    }
    const roll = r.next();
    if (roll < 0.04) {
      const cols = r.int(4, 6);
      const header = [
        'Method',
        ...Array.from(
          { length: cols - 1 },
          (_, i) => r.pick(['AIME', 'MATH-500', 'LiveCodeBench', 'GPQA', 'SWE-bench', 'Arena-Hard', 'IFEval', 'BFCL']) + (i ? '' : ''),
        ),
      ];
      const rows = Array.from({ length: r.int(4, 8) }, () => [r.pick(METHODS), ...Array.from({ length: cols - 1 }, () => `${r.int(10, 95)}.${r.int(0, 9)}`)]);
      const caption = `Table ${blocks.length % 97}: ${cap(r.pick(OBJECTS))} versus ${r.pick(OBJECTS)} on ${r.pick(MODELS)}.`;
      blocks.push({ type: 'table', caption, header, rows, marks: [] });
      chars += caption.length + header.join(' ').length + rows.reduce((n, row) => n + row.join(' ').length + 1, 0) + 2;
    } else if (roll < 0.08) {
      const lines = Array.from({ length: r.int(4, 12) }, () => fill(r, r.pick(CODE)));
      blocks.push({ type: 'pre', lines, marks: [] });
      chars += lines.reduce((n, l) => n + l.trim().length + 1, 0);
    } else if (roll < 0.16) {
      const tokens = [];
      const starts = [];
      const count = r.int(2, 6);
      for (let i = 0; i < count; i++) {
        starts.push(tokens.length);
        tokens.push(...cjkSentence(r));
      }
      blocks.push({ type: 'p', cjk: true, tokens, starts, marks: [], wrap: false });
      chars += tokens.reduce((n, t) => n + t.text.length, 0) + 1;
    } else {
      const tokens = [];
      const starts = [];
      const boiler = [];
      const count = r.int(3, 9);
      for (let i = 0; i < count; i++) {
        starts.push(tokens.length);
        if (r.chance(0.07)) {
          boiler.push(tokens.length);
          tokens.push(...words(r.pick(BOILERPLATE)));
        } else tokens.push(...sentence(r));
      }
      blocks.push({ type: 'p', cjk: false, tokens, starts, boiler, marks: [], wrap: r.chance(0.4) });
      chars += tokens.reduce((n, t) => n + t.text.length + 1, 0);
    }
  }

  // Choose the passages, at most one per sentence, none overlapping.
  const paras = blocks.filter((b) => b.type === 'p' && !b.cjk);
  const cjks = blocks.filter((b) => b.type === 'p' && b.cjk);
  const tables = blocks.filter((b) => b.type === 'table');
  const pres = blocks.filter((b) => b.type === 'pre');
  const used = new Set();
  const kinds = [
    ['sentence', 34],
    ['phrase', 13],
    ['two-sentences', 6],
    ['cross-block', 5],
    ['boilerplate', 9],
    ['short', 6],
    ['cjk', 10],
    ['curly', 4],
    ['table-cell', 3],
    ['table-row', 3],
    ['code', 4],
    ['link-crossing', 3],
  ];
  const total = kinds.reduce((n, [, w]) => n + w, 0);
  let made = 0;
  let guard = 0;
  const sentenceRange = (b, i) => [b.starts[i], i + 1 < b.starts.length ? b.starts[i + 1] : b.tokens.length];
  const free = (b, key) => !used.has(`${blocks.indexOf(b)}:${key}`);
  const take = (b, key) => used.add(`${blocks.indexOf(b)}:${key}`);
  let kind = kinds[0][0];
  let tries = 0;
  while (made < spec.passages && guard++ < spec.passages * 400) {
    // Pick a kind by weight, then keep trying that kind until it fits somewhere (bounded).
    if (tries === 0 || tries > 60) {
      let roll = r.next() * total;
      for (const [k, w] of kinds) {
        if ((roll -= w) < 0) {
          kind = k;
          break;
        }
      }
      tries = 0;
    }
    tries++;
    const id = `${spec.id}-${String(made).padStart(3, '0')}`;
    const attr = `data-rlp="${id}" data-kind="${kind}"`;
    if (kind === 'sentence' || kind === 'phrase' || kind === 'short' || kind === 'curly' || kind === 'link-crossing') {
      const b = r.pick(paras);
      const si = r.int(0, b.starts.length - 1);
      if (!free(b, si) || b.boiler.includes(b.starts[si])) continue;
      const [a, z] = sentenceRange(b, si);
      const text = b.tokens
        .slice(a, z)
        .map((t) => t.text)
        .join(' ');
      if (kind === 'curly' && !/[’“”]/.test(text)) continue;
      const grouped = b.tokens.slice(a, z).findIndex((t) => t.html.startsWith('<a ') || t.html.startsWith('<b>') || t.html.startsWith('<em>'));
      if (kind === 'link-crossing' && grouped < 0) continue;
      let from = a;
      let to = z;
      if (kind === 'phrase') {
        const len = r.int(3, 8);
        if (z - a <= len + 1) continue;
        from = r.int(a, z - len);
        to = from + len;
      } else if (kind === 'short') {
        const cands = [];
        for (let t = a; t < z; t++) if (/^(GRPO|PPO|KL|SFT|DAPO|SGLang|Megatron)$/.test(b.tokens[t].text.replace(/[.,]$/, ''))) cands.push(t);
        if (!cands.length) continue;
        from = r.pick(cands);
        to = from + 1;
      } else if (kind === 'link-crossing') {
        const g = a + grouped;
        from = Math.max(a, g - r.int(1, 3));
        to = Math.min(z, g + 1 + r.int(1, 3));
      }
      take(b, si);
      b.marks.push({ from, to, open: `<span ${attr}>` });
    } else if (kind === 'two-sentences') {
      const b = r.pick(paras);
      const si = r.int(0, b.starts.length - 2);
      if (b.starts.length < 2 || !free(b, si) || !free(b, si + 1)) continue;
      take(b, si);
      take(b, si + 1);
      b.marks.push({ from: b.starts[si], to: sentenceRange(b, si + 1)[1], open: `<span ${attr}>` });
    } else if (kind === 'cross-block') {
      const bi = blocks.indexOf(r.pick(paras));
      const b = blocks[bi];
      const next = blocks[bi + 1];
      if (!next || next.type !== 'p' || next.cjk) continue;
      const si = b.starts.length - 1;
      if (!free(b, si) || !free(next, 0)) continue;
      take(b, si);
      take(next, 0);
      const [a, z] = sentenceRange(b, si);
      const cut = r.int(a, z - 1);
      b.marks.push({ from: cut, to: z, open: `<span data-rlp-start="${id}" data-kind="${kind}">` });
      next.marks.push({ from: 0, to: Math.max(1, r.int(1, sentenceRange(next, 0)[1])), open: `<span data-rlp-end="${id}">` });
    } else if (kind === 'boilerplate') {
      const b = r.pick(paras);
      if (!b.boiler.length) continue;
      const start = r.pick(b.boiler);
      const si = b.starts.indexOf(start);
      if (!free(b, si)) continue;
      take(b, si);
      b.marks.push({ from: start, to: sentenceRange(b, si)[1], open: `<span ${attr}>` });
    } else if (kind === 'cjk') {
      if (!cjks.length) continue;
      const b = r.pick(cjks);
      const si = r.int(0, b.starts.length - 1);
      if (!free(b, si)) continue;
      take(b, si);
      const [a, z] = sentenceRange(b, si);
      const from = r.chance(0.5) ? a : r.int(a, Math.max(a, z - 3));
      b.marks.push({ from, to: z, open: `<span ${attr}>` });
    } else if (kind === 'table-cell' || kind === 'table-row') {
      if (!tables.length) continue;
      const b = r.pick(tables);
      const ri = r.int(0, b.rows.length - 1);
      if (!free(b, ri)) continue;
      take(b, ri);
      if (kind === 'table-cell') b.marks.push({ row: ri, col: r.int(1, b.rows[ri].length - 1), id, kind });
      else b.marks.push({ row: ri, id, kind, whole: true });
    } else if (kind === 'code') {
      if (!pres.length) continue;
      const b = r.pick(pres);
      const li = r.int(0, b.lines.length - 1);
      if (!free(b, li) || b.lines[li].trim().length < 12) continue;
      take(b, li);
      b.marks.push({ line: li, open: `<span ${attr}>` });
    }
    made++;
    tries = 0;
  }

  const out = [];
  out.push('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">');
  out.push(`<title>${esc(spec.title)}</title>`);
  out.push(
    '<style>body{font:15px/1.5 Georgia,serif;margin:0 auto;max-width:860px;padding:24px;color:#222}table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ccc;padding:2px 6px}pre{background:#f6f6f6;padding:8px;overflow:auto}.cjk{font-family:sans-serif}</style>',
  );
  out.push(
    '</head><body>\n<header class="ltx_page_header"><a href="/">arXiv</a> &gt; <a href="/list/cs.LG">cs.LG</a></header>\n<article class="ltx_document">',
  );
  out.push(`<h1 class="ltx_title">${esc(spec.title)}</h1>`);
  for (const b of blocks) {
    if (b.type === 'h2' || b.type === 'h3') out.push(`<${b.type}>${esc(b.text)}</${b.type}>`);
    else if (b.type === 'p') out.push(renderParagraph(b));
    else if (b.type === 'table') out.push(renderTable(b));
    else if (b.type === 'pre') out.push(renderPre(b));
  }
  out.push('</article>\n<footer>Generated benchmark page; not a real paper.</footer>\n</body></html>\n');
  return { html: out.join('\n'), passages: made, approxChars: chars };
}

/** Renders a paragraph's tokens with passage spans; hard-wrapped paragraphs break source lines near 78 columns. */
function renderParagraph(b) {
  const opens = new Map();
  const closes = new Map();
  for (const m of b.marks) {
    opens.set(m.from, m.open);
    closes.set(m.to - 1, (closes.get(m.to - 1) ?? 0) + 1);
  }
  let html = b.cjk ? '<p class="cjk">' : '<p>';
  let col = 0;
  b.tokens.forEach((t, i) => {
    if (i > 0 && !b.cjk) {
      if (b.wrap && col + t.text.length > 78) {
        html += '\n';
        col = 0;
      } else {
        html += ' ';
        col++;
      }
    }
    html += (opens.get(i) ?? '') + t.html + '</span>'.repeat(closes.get(i) ?? 0);
    col += t.text.length;
  });
  return `${html}</p>`;
}

/** Renders a table; marked cells or rows get passage spans inside their cells. */
function renderTable(b) {
  const cell = (ri, ci, text) => {
    let inner = esc(text);
    for (const m of b.marks) {
      if (m.row !== ri) continue;
      if (!m.whole && m.col === ci) inner = `<span data-rlp="${m.id}" data-kind="${m.kind}">${inner}</span>`;
      if (m.whole && ci === 0) inner = `<span data-rlp-start="${m.id}" data-kind="${m.kind}">${inner}</span>`;
      if (m.whole && ci === b.rows[ri].length - 1) inner = `<span data-rlp-end="${m.id}">${inner}</span>`;
    }
    return `<td>${inner}</td>`;
  };
  const head = `<tr>\n${b.header.map((h) => `<th>${esc(h)}</th>`).join('\n')}\n</tr>`;
  const rows = b.rows.map((row, ri) => `<tr>\n${row.map((c, ci) => cell(ri, ci, c)).join('\n')}\n</tr>`);
  return `<table>\n<caption>${esc(b.caption)}</caption>\n<thead>${head}</thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
}

/** Renders a code block; a marked line's visible text (indentation excluded) is wrapped in a passage span. */
function renderPre(b) {
  const lines = b.lines.map((line, li) => {
    const m = b.marks.find((x) => x.line === li);
    if (!m) return esc(line);
    const indent = line.length - line.trimStart().length;
    return `${line.slice(0, indent)}${m.open}${esc(line.slice(indent))}</span>`;
  });
  return `<pre><code>${lines.join('\n')}\n</code></pre>`;
}

const BLOCK_TAG =
  /<\/?(?:p|div|h[1-6]|li|ul|ol|table|thead|tbody|tr|td|th|caption|pre|section|article|header|footer|nav|main|figure|figcaption|blockquote|br|hr)\b[^>]*>/gi;

/** A generated page's text as the text index would collapse it (an approximation good enough for timing and for pinning the finder's output). */
export function renderText(html) {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(BLOCK_TAG, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}
