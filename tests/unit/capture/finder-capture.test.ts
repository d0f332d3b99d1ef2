// The page side of the claim finder without the DOM: which candidates are offered, how they reach the panel,
// the claim form's values for accepting one or recording "not disclosed", and the opted-in sites.
import { describe, expect, it } from 'vitest';
import {
  candidateValues,
  offerUndisclosed,
  REPORTED_SENTENCE,
  reportCandidate,
  unclaimed,
  undisclosedValues,
  UNDISCLOSED_VALUE,
} from '../../../lib/capture/finder';
import { findCandidates, parseSite, parseSiteList, siteListed } from '../../../lib/finder';
import { FinderSite } from '../../../lib/settings';
import { formValues } from '../fixtures/records';

const PAGE =
  'Zeta-2 technical report. ' +
  'For reasoning, we train Zeta-2 with GRPO on verifiable maths and code tasks. ' +
  'The general RL stage then uses a rule-based reward for format and a model-based reward for helpfulness. ' +
  'Unlike PPO, our recipe needs no critic. ' +
  'Results on AIME are in the table below.';

describe('candidates offered on a page', () => {
  const { candidates } = findCandidates(PAGE, { models: ['Zeta-2'] });

  it('finds the sentences that state the recipe, in document order', () => {
    expect(candidates.map((c) => [c.kind, c.value, c.stage])).toEqual([
      ['algorithm', 'GRPO', null],
      ['reward', 'rule-based reward', 'general_rl'],
    ]);
    expect(candidates[0]!.start).toBeLessThan(candidates[1]!.start);
  });

  it('leaves out a candidate whose sentence is already claimed, and keeps those next to it', () => {
    const grpo = candidates[0]!;
    const claimed = [{ start: grpo.start + 10, end: grpo.start + 20 }];
    expect(unclaimed(candidates, claimed).map((c) => c.value)).toEqual(['rule-based reward']);
    // A claim that ends where a candidate starts does not overlap it.
    expect(unclaimed(candidates, [{ start: 0, end: grpo.start }]).map((c) => c.value)).toEqual(['GRPO', 'rule-based reward']);
    expect(unclaimed(candidates, [])).toEqual(candidates);
  });

  it('reports a candidate to the panel with its key, values and a sentence cut to a readable length', () => {
    const grpo = candidates[0]!;
    expect(reportCandidate(grpo)).toEqual({
      key: grpo.key,
      kind: 'algorithm',
      value: 'GRPO',
      stage: null,
      model: 'Zeta-2',
      sentence: grpo.sentence,
      rank: grpo.rank,
    });
    const long = reportCandidate({ ...grpo, sentence: 'x'.repeat(1000) });
    expect(long.sentence).toHaveLength(REPORTED_SENTENCE);
    expect(long.sentence.endsWith('…')).toBe(true);
  });
});

describe('the claim form for an accepted candidate', () => {
  it('takes kind, value, stage and model from the candidate, and the level the rules give its source', () => {
    const c = { kind: 'algorithm' as const, value: 'GRPO', stage: 'reasoning_rl' as const, model: 'Zeta-2', sentence: 'we train Zeta-2 with GRPO' };
    expect(candidateValues(c, { kind: 'technical_report', models: ['Zeta-2'] }, [])).toEqual(formValues());
    expect(candidateValues(c, { kind: 'official_blog', models: [] }, []).evidence).toBe('B');
  });

  it('names the model the sentence mentions (from the store) when the finder named none, else the page model', () => {
    const c = { kind: 'framework' as const, value: 'slime', stage: null, model: null, sentence: 'GLM-5 was trained with slime.' };
    const values = candidateValues(c, { kind: 'repository', models: ['Zeta-2'] }, ['GLM-5']);
    expect(values).toMatchObject({ model: 'GLM-5', stage: '', kind: 'framework' });
    expect(candidateValues({ ...c, sentence: 'trained with slime' }, { kind: 'repository', models: ['GLM-4.5'] }, []).model).toBe('GLM-4.5');
  });
});

describe('recording a page as not disclosed', () => {
  it('prefills an undisclosed claim about RL stages for the page model, level C, with the date read', () => {
    expect(undisclosedValues({ kind: 'model_card', models: ['Zeta-3', 'Zeta-3-mini'] }, '2026-11-30')).toEqual({
      model: 'Zeta-3',
      recipe: '',
      kind: 'undisclosed',
      stage: '',
      value: UNDISCLOSED_VALUE,
      evidence: 'C',
      evidenceReason: '',
      note: 'Read on 2026-11-30: the page talks about RL but discloses no RL stage or algorithm.',
    });
    expect(undisclosedValues({ kind: 'release', models: [] }, '2026-11-30').model).toBe('');
  });

  it('is not offered again once a "not disclosed" claim is stored for the page', () => {
    expect(offerUndisclosed(true, [])).toBe(true);
    expect(offerUndisclosed(true, [{ kind: 'algorithm' }])).toBe(true);
    expect(offerUndisclosed(true, [{ kind: 'stage' }, { kind: 'undisclosed' }])).toBe(false);
    expect(offerUndisclosed(false, [])).toBe(false);
  });

  it('is suggested by the finder for a page that talks about RL and names no stage or algorithm, and not for one that does', () => {
    const vague = 'Zeta-3 is here. Reinforcement learning made Zeta-3 a better reasoner. We will say more about RL soon. RL also helped with instructions.';
    expect(findCandidates(vague)).toMatchObject({ talksAboutRl: true, suggestUndisclosed: true });
    expect(findCandidates(PAGE)).toMatchObject({ suggestUndisclosed: false });
  });
});

describe('sites opted in to automatic finder runs', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['https://qwenlm.github.io/blog/qwen3/', 'qwenlm.github.io'],
    ['*.qwen.ai', '*.qwen.ai'],
    ['localhost:8080', 'localhost:8080'],
    ['example.com/path?q=1', 'example.com'],
    ['not a site!', null],
    ['', null],
    ['*.', null],
    ['javascript:alert(1)', null],
  ])('reads %j as %j', (input, expected) => {
    expect(parseSite(input)).toBe(expected);
  });

  it('reads a list one per line or comma-separated, once each, and says what it left out', () => {
    expect(parseSiteList('openai.com\n*.qwen.ai, openai.com\n\nnot a site!\n')).toEqual({ sites: ['openai.com', '*.qwen.ai'], rejected: ['not a site!'] });
  });

  it.each([
    ['https://openai.com/index/gpt-5/', ['openai.com'], true],
    ['https://www.openai.com/', ['openai.com'], false],
    ['https://www.openai.com/', ['*.openai.com'], true],
    ['https://openai.com/', ['*.openai.com'], true],
    ['https://notopenai.com/', ['*.openai.com'], false],
    ['http://local.test:8080/a', ['local.test:8080'], true],
    ['http://local.test:9090/a', ['local.test:8080'], false],
    ['http://local.test:9090/a', ['local.test'], true],
    ['file:///tmp/a.html', ['tmp'], false],
    ['not a url', ['openai.com'], false],
    ['https://openai.com/', [], false],
  ])('%s on %j: %s', (url, sites, expected) => {
    expect(siteListed(url, sites)).toBe(expected);
  });

  it('stores only what parseSite accepts (the protocol checks the list again)', () => {
    for (const site of parseSiteList('openai.com\n*.qwen.ai\nlocalhost:8080').sites) expect(FinderSite.safeParse(site).success).toBe(true);
    expect(FinderSite.safeParse('not a site').success).toBe(false);
    expect(FinderSite.safeParse('https://openai.com').success).toBe(false);
  });
});
