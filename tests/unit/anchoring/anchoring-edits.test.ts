// Anchoring across the kinds of edits real authors make to READMEs and docs (issue 13), on small pages written
// here: a passage is described on the old page, the page is edited, and the passage is looked for on the new one.
// An edited passage must be found on its new text and flagged as not exact (the drift review shows old and new);
// a removed one must be an orphan, even with a look-alike nearby.
import { describe as suite, expect, it } from 'vitest';
import {
  anchor,
  anchorAll,
  buildTextIndex,
  describe as describeRange,
  ORPHAN_THRESHOLD,
  rangeFromOffsets,
  type AnchorResult,
  type AnchorSelectors,
} from '../../../lib/anchoring';

/** Replaces the test document's body with `html` and returns the body. */
function page(html: string): HTMLElement {
  document.body.innerHTML = html;
  return document.body;
}

/** The selectors a curator's capture of `quote` stores on the page `html` (its first occurrence). */
function capture(html: string, quote: string): AnchorSelectors {
  const root = page(html);
  const index = buildTextIndex(root);
  const at = index.text.indexOf(quote);
  if (at < 0) throw new Error(`not on the old page: ${quote}`);
  return describeRange(rangeFromOffsets(index, at, at + quote.length) as Range, root, index);
}

/** Narrows a result to the anchored case, failing with the orphan's reason otherwise. */
function mustAnchor(r: AnchorResult | undefined): Extract<AnchorResult, { status: 'anchored' }> {
  if (!r || r.status !== 'anchored') throw new Error(`expected anchored, got orphan: ${r?.status === 'orphan' ? r.reason : 'nothing'}`);
  return r;
}

/** Expects a passage found on its new text, approximately (flagged for the drift review), with the reasons given. */
function expectEdited(r: AnchorResult | undefined, now: string): void {
  const a = mustAnchor(r);
  expect(a.text).toBe(now);
  expect(a.exact).toBe(false);
  expect(a.confidence).toBeGreaterThanOrEqual(ORPHAN_THRESHOLD);
  expect(a.reasons?.length).toBeGreaterThan(0);
}

/** A small README: a title, an intro, a feature list, two numbered sections. */
function readme(parts: Partial<Record<'intro' | 'models' | 'frameworks' | 'features' | 'h1' | 'h2' | 'serve' | 'extra', string>> = {}): string {
  return [
    '<h1>RL Kit</h1>',
    `<p>${parts.intro ?? 'RL Kit is a library for post-training language models with reinforcement learning from verifiable rewards.'}</p>`,
    '<h2>Supported models</h2>',
    `<ul><li>${parts.models ?? 'Qwen2-7B-Instruct: trained with GRPO on math and code prompts for three epochs.'}</li>`,
    '<li>Llama-3-8B-Instruct: trained with PPO and a learned reward model on chat prompts.</li></ul>',
    '<h2>Features</h2>',
    `<ul><li>${parts.features ?? 'Support multiple reward models in one training run, combined by weights.'}</li>`,
    `<li>${parts.frameworks ?? 'Works with Llama-Factory, Swift and OpenRLHF for supervised warm-up.'}</li>`,
    '<li>Asynchronous rollouts overlap generation with training to keep the GPUs busy.</li></ul>',
    `<h2>${parts.h1 ?? '3. Training'}</h2>`,
    '<p>Training runs on a single node by default. Multi-node training needs a Ray cluster and a shared file system for checkpoints.</p>',
    parts.extra ?? '',
    `<h2>${parts.h2 ?? '4. Evaluation'}</h2>`,
    `<p>${parts.serve ?? 'We evaluate on AIME and LiveCodeBench with greedy decoding and report the mean of three seeds.'}</p>`,
    '<p>Results for every checkpoint are written to a JSON file next to the weights.</p>',
  ].join('\n');
}

suite('kinds of real edits', () => {
  it('rename: a model renamed in the passage', () => {
    const old = 'Qwen2-7B-Instruct: trained with GRPO on math and code prompts for three epochs.';
    const now = 'Qwen2.5-7B-Instruct: trained with GRPO on math and code prompts for three epochs.';
    const sel = capture(readme(), old);
    expectEdited(anchor(page(readme({ models: now })), sel), now);
  });

  it('list insertion: an item inserted into a list inside the passage', () => {
    const old = 'Works with Llama-Factory, Swift and OpenRLHF for supervised warm-up.';
    const now = 'Works with Llama-Factory, unsloth, Swift and OpenRLHF for supervised warm-up.';
    const sel = capture(readme(), old);
    expectEdited(anchor(page(readme({ frameworks: now })), sel), now);
  });

  it('rewording: a few words changed', () => {
    const old = 'Support multiple reward models in one training run, combined by weights.';
    const now = 'Support for multiple reward models in a single training run, combined by weights.';
    const sel = capture(readme(), old);
    expectEdited(anchor(page(readme({ features: now })), sel), now);
  });

  it('a sentence moved to another section, losing its full stop', () => {
    const sentence = 'Results for every checkpoint are written to a JSON file next to the weights.';
    const sel = capture(readme(), sentence);
    const moved = readme()
      .replace(`<p>${sentence}</p>`, '')
      .replace('<h2>Features</h2>', `<p>${sentence.slice(0, -1)}</p>\n<h2>Features</h2>`);
    expectEdited(anchor(page(moved), sel), sentence.slice(0, -1));
  });

  it('renumbered headings: a claim on a heading and one under it', () => {
    const html = readme();
    const list = [capture(html, '3. Training'), capture(html, 'Multi-node training needs a Ray cluster and a shared file system for checkpoints.')];
    const root = page(readme({ h1: '4. Training', h2: '5. Evaluation', extra: '<h2>3. Installation</h2><p>Install it with pip.</p>' }));
    const [heading, body] = anchorAll(root, list);
    expectEdited(heading, '4. Training');
    const b = mustAnchor(body);
    expect(b.exact).toBe(true);
    expect(b.text).toBe('Multi-node training needs a Ray cluster and a shared file system for checkpoints.');
  });

  it('a look-alike sentence nearby: the edited passage is told from it, and a removed one is not moved onto it', () => {
    const lookAlike = '<li>Qwen2-1.5B-Instruct: trained with GRPO on math prompts for two epochs.</li>';
    const old = 'Qwen2-7B-Instruct: trained with GRPO on math and code prompts for three epochs.';
    const html = readme().replace('</ul>', `${lookAlike}</ul>`);
    const sel = capture(html, old);
    const edited = 'Qwen2-7B-Instruct: trained with GRPO on math and code prompts for four epochs.';
    expectEdited(anchor(page(html.replace(old, edited)), sel), edited);
    const removed = html.replace(`<li>${old}</li>`, '');
    const r = anchor(page(removed), sel);
    expect(r.status).toBe('orphan');
    expect(r.confidence).toBeLessThan(ORPHAN_THRESHOLD);
  });

  it('a short quote found once, verbatim, is found whatever its context, unless an edited copy competes', () => {
    const quote = 'We recommend using SGLang to serve it.';
    const html = readme({ serve: `We evaluate on AIME with greedy decoding. ${quote} Other engines work too.` });
    const sel = capture(html, quote);
    // Its surroundings rewritten, similar sentences nearby.
    const rewritten = readme({
      serve: `Evaluation moved to a separate repository. We recommend using vLLM to serve the base model. ${quote} We recommend using SGLang to serve the reward model.`,
    });
    const found = mustAnchor(anchor(page(rewritten), sel));
    expect(found.exact).toBe(true);
    expect(found.text).toBe(quote);
  });

  it('a rewritten paragraph: found while most of it is kept, an orphan once it is replaced', () => {
    const old = 'RL Kit is a library for post-training language models with reinforcement learning from verifiable rewards.';
    const sel = capture(readme(), old);
    const kept =
      'RL Kit is a fast and scalable library for post-training large language and vision models with reinforcement learning from verifiable and learned rewards.';
    expectEdited(anchor(page(readme({ intro: kept })), sel), kept);
    const replaced = 'This project provides recipes and scripts to reproduce our reports on several public benchmarks.';
    const r = anchor(page(readme({ intro: replaced })), sel);
    expect(r.status).toBe('orphan');
  });

  it('a removed passage whose neighbours closed up over it is an orphan, even with the same words elsewhere', () => {
    const old = 'Asynchronous rollouts overlap generation with training to keep the GPUs busy.';
    const html = readme({ extra: '<p>In a later release, asynchronous rollouts will overlap generation with training.</p>' });
    const sel = capture(html, old);
    const r = anchor(page(html.replace(`<li>${old}</li>`, '')), sel);
    expect(r.status).toBe('orphan');
    if (r.status === 'orphan') expect(r.reason).toMatch(/uncertain|no longer occurs/);
  });
});

suite('reasons', () => {
  it('an approximate match and an orphan say what the decision rested on', () => {
    const old = 'Support multiple reward models in one training run, combined by weights.';
    const sel = capture(readme(), old);
    const found = mustAnchor(anchor(page(readme({ features: 'Support for multiple reward models in one training run, combined by weights.' })), sel));
    expect(found.reasons).toEqual(expect.arrayContaining([expect.stringMatching(/^quote \d+% similar/), 'prefix intact', 'suffix intact']));
    expect(found.decision?.margin).toBeGreaterThan(0);
    const gone = anchor(page(readme({ features: 'Logging to TensorBoard and Weights & Biases out of the box.' })), sel);
    expect(gone.status).toBe('orphan');
  });
});
