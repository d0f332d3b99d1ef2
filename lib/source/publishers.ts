/**
 * Who publishes what: lab web sites, and the code-hosting / model-hub
 * accounts of labs. Keys are either a domain (`qwen.ai`, matching its
 * sub-domains too) or `host/owner` (`github.com/QwenLM`); owners compare
 * case-insensitively. An account that is not listed publishes under its own
 * name (the fixtures keep "THUDM" for `THUDM/slime`).
 */

/** The lab table: domain or `host/owner` → publisher name. */
export const KNOWN_PUBLISHERS: Readonly<Record<string, string>> = {
  // Lab web sites and blogs.
  'qwenlm.github.io': 'Qwen Team',
  'qwen.ai': 'Qwen Team',
  'openai.com': 'OpenAI',
  'anthropic.com': 'Anthropic',
  'deepmind.google': 'Google DeepMind',
  'deepmind.com': 'Google DeepMind',
  'blog.google': 'Google',
  'ai.meta.com': 'Meta',
  'mistral.ai': 'Mistral AI',
  'z.ai': 'Zhipu AI',
  'zhipuai.cn': 'Zhipu AI',
  'bigmodel.cn': 'Zhipu AI',
  'moonshot.ai': 'Moonshot AI',
  'moonshot.cn': 'Moonshot AI',
  'kimi.com': 'Moonshot AI',
  'kimi.ai': 'Moonshot AI',
  'moonshotai.github.io': 'Moonshot AI',
  'minimax.io': 'MiniMax',
  'minimaxi.com': 'MiniMax',
  'deepseek.com': 'DeepSeek',
  'x.ai': 'xAI',
  'seed.bytedance.com': 'ByteDance Seed',
  'team.doubao.com': 'ByteDance Seed',
  'stepfun.com': 'StepFun',
  'allenai.org': 'Ai2',
  // Code-hosting accounts.
  'github.com/QwenLM': 'Qwen Team',
  'github.com/deepseek-ai': 'DeepSeek',
  'github.com/volcengine': 'ByteDance Seed',
  'github.com/ByteDance-Seed': 'ByteDance Seed',
  'github.com/MoonshotAI': 'Moonshot AI',
  'github.com/MiniMax-AI': 'MiniMax',
  'github.com/zai-org': 'Zhipu AI',
  'github.com/openai': 'OpenAI',
  'github.com/anthropics': 'Anthropic',
  'github.com/google-deepmind': 'Google DeepMind',
  'github.com/meta-llama': 'Meta',
  'github.com/mistralai': 'Mistral AI',
  'github.com/stepfun-ai': 'StepFun',
  // Model-hub accounts.
  'huggingface.co/Qwen': 'Qwen Team',
  'huggingface.co/deepseek-ai': 'DeepSeek',
  'huggingface.co/zai-org': 'Zhipu AI',
  'huggingface.co/moonshotai': 'Moonshot AI',
  'huggingface.co/MiniMaxAI': 'MiniMax',
  'huggingface.co/ByteDance-Seed': 'ByteDance Seed',
  'huggingface.co/meta-llama': 'Meta',
  'huggingface.co/mistralai': 'Mistral AI',
  'huggingface.co/google': 'Google',
  'huggingface.co/openai': 'OpenAI',
  'huggingface.co/xai-org': 'xAI',
  'huggingface.co/stepfun-ai': 'StepFun',
  'modelscope.cn/Qwen': 'Qwen Team',
  'modelscope.cn/deepseek-ai': 'DeepSeek',
  'modelscope.cn/ZhipuAI': 'Zhipu AI',
  'modelscope.cn/moonshotai': 'Moonshot AI',
  'modelscope.cn/MiniMax': 'MiniMax',
};

const ownerTable = new Map<string, string>();
const domainTable: Array<[string, string]> = [];
for (const [key, name] of Object.entries(KNOWN_PUBLISHERS)) {
  if (key.includes('/')) ownerTable.set(key.toLowerCase(), name);
  else domainTable.push([key, name]);
}
// Longest domain first, so `seed.bytedance.com` wins over a shorter entry.
domainTable.sort((a, b) => b[0].length - a[0].length);

/** The lab publishing under an account (`github.com`, `THUDM`), if the table knows it. */
export function publisherForOwner(host: string, owner: string): string | undefined {
  const site = host.toLowerCase().replace(/^www\./, '');
  return ownerTable.get(`${site}/${owner.toLowerCase()}`);
}

/** The lab owning a host name (`blog.qwen.ai` → Qwen Team), if the table knows it. */
export function publisherForHost(host: string): string | undefined {
  const h = host.toLowerCase().replace(/\.$/, '');
  for (const [domain, name] of domainTable) {
    if (h === domain || h.endsWith(`.${domain}`)) return name;
  }
  return undefined;
}

/** Lab names as sites call themselves (`og:site_name`), lower-cased → publisher. */
const LAB_NAMES: ReadonlyMap<string, string> = new Map([
  ['qwen', 'Qwen Team'],
  ['qwen team', 'Qwen Team'],
  ['zhipu', 'Zhipu AI'],
  ['zhipu ai', 'Zhipu AI'],
  ['z.ai', 'Zhipu AI'],
  ['智谱', 'Zhipu AI'],
  ['deepseek', 'DeepSeek'],
  ['moonshot', 'Moonshot AI'],
  ['moonshot ai', 'Moonshot AI'],
  ['kimi', 'Moonshot AI'],
  ['minimax', 'MiniMax'],
  ['openai', 'OpenAI'],
  ['anthropic', 'Anthropic'],
  ['deepmind', 'Google DeepMind'],
  ['google deepmind', 'Google DeepMind'],
  ['meta ai', 'Meta'],
  ['ai at meta', 'Meta'],
  ['mistral', 'Mistral AI'],
  ['mistral ai', 'Mistral AI'],
  ['xai', 'xAI'],
  ['bytedance seed', 'ByteDance Seed'],
  ['stepfun', 'StepFun'],
]);

/** The lab a site name stands for ("Qwen", "Qwen Blog", "Mistral AI") or undefined. */
export function publisherForSiteName(siteName: string | null | undefined): string | undefined {
  if (!siteName) return undefined;
  const n = siteName
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^the /, '')
    .replace(/ (?:blog|news|research|official site|website)$/, '')
    .trim();
  return LAB_NAMES.get(n);
}

const FAMILY_LABS: ReadonlyArray<[RegExp, string]> = [
  [/^(?:Qwen|QwQ|QVQ)(?![a-z])/i, 'Qwen Team'],
  [/^(?:Chat)?GLM(?![a-z])/i, 'Zhipu AI'],
  [/^DeepSeek(?![a-z])/i, 'DeepSeek'],
  [/^Kimi(?![a-z])/i, 'Moonshot AI'],
  [/^MiniMax(?![a-z])/i, 'MiniMax'],
];

/**
 * The lab whose model family a title opens with ("Qwen3: …" → Qwen Team,
 * "Introducing GLM-5" → Zhipu AI), or undefined.
 */
export function publisherForTitle(title: string): string | undefined {
  const t = title.trim().replace(/^(?:introducing|announcing|meet)\s+/i, '');
  for (const [re, name] of FAMILY_LABS) if (re.test(t)) return name;
  return undefined;
}
