/**
 * Guessing which model(s) a page is about, from its title, headings and URL:
 * used to prefill the claim form and to warn when a claim names another
 * version (rule 2 of the evidence rules: don't extrapolate across versions).
 */
import { readMeta } from './meta';

/** Families whose names are recognised even in forms the generic pattern distrusts (all caps, no separator). */
const KNOWN_FAMILIES = [
  'Qwen',
  'QwQ',
  'QVQ',
  'GLM',
  'ChatGLM',
  'DeepSeek',
  'Kimi',
  'MiniMax',
  'GPT',
  'Llama',
  'Claude',
  'Gemini',
  'Gemma',
  'Mistral',
  'Mixtral',
  'Magistral',
  'Grok',
  'Phi',
  'ERNIE',
  'Hunyuan',
  'InternLM',
  'InternVL',
  'Yi',
  'Baichuan',
  'Nemotron',
  'OLMo',
  'Doubao',
  'Seed',
  'Step',
  'MiMo',
  'LongCat',
];
const KNOWN_FAMILY_SET = new Set(KNOWN_FAMILIES.map((f) => f.toLowerCase()));

/** Capitalised words followed by a number that are not model names. */
const NOT_FAMILIES = new Set(
  (
    'figure fig table section sec step stage part chapter appendix version python apache license cuda node top layer ' +
    'layers level phase round day days week month year page item example eq equation task test case gpu cpu ubuntu ' +
    'windows ios android http https html utf mit sha iso rfc tab vol no epoch iter batch experiment model models ' +
    'introduction note question answer support upgrade use release releases int fp bf pass issue pr rule stage ' +
    'option tip warning update news chapter lesson week vllm sglang fsdp megatron torch pytorch transformers'
  ).split(' '),
);

const SUFFIX_HYPHEN =
  'Zero|Distill|Instruct|Base|Chat|Thinking|Think|Exp|Pro|Flash|Lite|Mini|Max|Plus|Turbo|Coder|Code|Omni|VL|Air|' +
  'Ultra|Preview|Nano|Math|Vision|Audio|Reasoner|Prover|Speciale|Next|FP8|AWQ|GGUF|Scout|Maverick';
const SUFFIX_SPACE =
  'Pro|Flash|Lite|Mini|Max|Plus|Turbo|Instruct|Thinking|Coder|Code|Omni|VL|Zero|Sonnet|Opus|Haiku|Air|Ultra|' + 'Preview|Nano|Scout|Maverick|Exp';
const SIZE = '\\d+(?:\\.\\d+)?[BMT](?:-A\\d+(?:\\.\\d+)?B)?|A\\d+(?:\\.\\d+)?B';
const FAMILY_PART = `(?:${KNOWN_FAMILIES.join('|')})(?:\\d+(?:\\.\\d+)*)?`;

/** A model-like token: capitalised name, optional Claude tier, version, suffixes. */
const MODEL_RE = new RegExp(
  '(?<![\\p{L}\\p{N}_.\\-])' +
    '([A-Z][A-Za-z]*[A-Za-z])' + // family
    '(?:[ \\-](?:Opus|Sonnet|Haiku))?' + // Claude tier
    '([ \\-]?)' + // separator
    '([A-Z]{0,2}\\d+(?:\\.\\d+)*[a-zA-Z]?)' + // version
    `((?:-(?:${SUFFIX_HYPHEN}|${SIZE}|${FAMILY_PART})(?![A-Za-z]))*` +
    `(?: (?:${SUFFIX_SPACE})(?![\\p{L}\\p{N}]))*)` +
    '(?![\\p{L}\\p{N}_])',
  'gu',
);

/** Model-like names in a piece of text, in order (not deduped). */
export function modelTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(MODEL_RE)) {
    const family = m[1] ?? '';
    const sep = m[2] ?? '';
    const lower = family.toLowerCase();
    if (NOT_FAMILIES.has(lower)) continue;
    const known = KNOWN_FAMILY_SET.has(lower);
    // "FSDP2", "BF16": an all-capital word glued to a number is rarely a model.
    if (!known && sep === '' && family === family.toUpperCase()) continue;
    out.push(m[0]);
  }
  return out;
}

const WEIGHT = { title: 10, h1: 6, url: 3, h2: 3, h3: 1, intro: 1 } as const;

function text(el: Element): string {
  return (el.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * The models a page is about, most prominent first, at most 8: model-like
 * names from the title (citation_title / og:title / <title>), h1, h2, h3 and
 * the URL path, weighted title 10 > h1 6 > h2 = URL 3 > h3 1, ties broken by
 * first appearance; plus variants of those names ("DeepSeek-R1-Zero" for
 * "DeepSeek-R1") found in the first paragraphs. Deduped case-insensitively.
 */
export function guessModels(doc: Document, url: string): string[] {
  const found = new Map<string, { name: string; score: number; order: number }>();
  let order = 0;
  const add = (name: string, weight: number): void => {
    const key = name.toLowerCase();
    const hit = found.get(key);
    if (hit) hit.score += weight;
    else found.set(key, { name, score: weight, order: order++ });
  };

  const meta = readMeta(doc);
  const titles = new Set(
    [meta.get('citation_title'), meta.get('og:title'), doc.title].filter((s): s is string => !!s).map((s) => s.replace(/\s+/g, ' ').trim()),
  );
  for (const title of titles) for (const name of new Set(modelTokens(title))) add(name, WEIGHT.title);
  for (const [selector, weight] of [
    ['h1', WEIGHT.h1],
    ['h2', WEIGHT.h2],
    ['h3', WEIGHT.h3],
  ] as const) {
    for (const el of doc.querySelectorAll(selector)) for (const name of modelTokens(text(el))) add(name, weight);
  }

  let path = '';
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    path = '';
  }
  const pathText = path.replace(/[/_]+/g, ' ');
  for (const name of modelTokens(pathText)) add(name, WEIGHT.url);
  // Lower-case slugs ("/blog/qwen3/") can only confirm names seen elsewhere.
  const slug = ` ${pathText.toLowerCase()} `;
  for (const [key, hit] of found) {
    if (hit.name === key) continue; // already cased like the slug: counted above if present
    const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`[^a-z0-9.]${escaped}[^a-z0-9]`).test(slug)) hit.score += WEIGHT.url;
  }

  // Variants of the prominent names in the opening paragraphs.
  const prominent = [...found.values()].filter((h) => h.score >= WEIGHT.h2).map((h) => h.name.toLowerCase());
  if (prominent.length > 0) {
    const root = doc.querySelector('article') ?? doc.querySelector('main') ?? doc.body;
    const paragraphs = root ? [...root.querySelectorAll('p')].slice(0, 3) : [];
    for (const p of paragraphs) {
      for (const name of modelTokens(text(p))) {
        const lower = name.toLowerCase();
        if (found.has(lower) || prominent.some((base) => lower.startsWith(`${base}-`))) add(name, WEIGHT.intro);
      }
    }
  }

  return [...found.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, 8)
    .map((h) => h.name);
}
