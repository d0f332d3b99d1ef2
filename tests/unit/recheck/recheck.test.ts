// The recheck of one source on a written page: verdicts by the painting's rules (never `unchanged` for changed
// text, even a quote mark), tombstones left out, unreachable sources, the source's status and counts, the JSON
// lines of `survey recheck --json`, and the new sentences worth a look (first for a "not disclosed" source).
import { beforeEach, describe, expect, it } from 'vitest';
import { buildTextIndex } from '../../../lib/anchoring';
import { newCandidates, recheckClaims, sourceStatus, unreachableVerdicts, verdictCounts, verdictLine } from '../../../lib/recheck';
import { claim } from '../fixtures/records';

const URL_ = 'https://example.org/zeta-2-report';
const KEPT = 'Reasoning RL uses GRPO with the KL term removed.';
const WORDED = 'The "reasoning" stage is trained with rule-based rewards only.';
const LOST = 'A preference model trained on human comparisons guides the final stage.';

function page(...paragraphs: string[]): void {
  document.body.innerHTML = paragraphs.map((p) => `<p>${p}</p>`).join('');
}

const c = (id: string, exact: string, extra: Record<string, unknown> = {}) =>
  claim({ id, quote: { exact, prefix: '', suffix: '' }, position: null, source: { ...claim().source, url: URL_ }, ...extra });

beforeEach(() => {
  document.body.innerHTML = '';
});

describe('verdicts', () => {
  it('says unchanged, edited (with the new text) and gone as painting would find them', () => {
    page('Zeta-2 is trained in two stages.', KEPT, 'The “reasoning” stage is trained with rule-based rewards only, as before.', 'Nothing else is said.');
    const claims = [c('clm_keep000001', KEPT), c('clm_word000001', WORDED), c('clm_lost000001', LOST)];
    const verdicts = recheckClaims(document.body, claims);
    expect(verdicts.map((v) => [v.id, v.verdict])).toEqual([
      ['clm_keep000001', 'unchanged'],
      ['clm_word000001', 'edited'],
      ['clm_lost000001', 'gone'],
    ]);
    expect(verdicts[1]!.text).toContain('“reasoning” stage is trained with rule-based rewards only');
    expect(verdicts[0]!.text).toBeNull();
    expect(sourceStatus(verdicts)).toBe('changed');
    expect(verdictCounts(verdicts)).toEqual({ unchanged: 1, edited: 1, gone: 1 });
  });

  it('never says unchanged when only a quote mark or a dash changed, and ignores white space', () => {
    page('The “reasoning” stage is trained with rule-based rewards only.', 'Reasoning   RL uses\nGRPO with the KL term removed.');
    const verdicts = recheckClaims(document.body, [c('clm_word000001', WORDED), c('clm_keep000001', KEPT)]);
    expect(verdicts.map((v) => v.verdict)).toEqual(['edited', 'unchanged']);
    expect(verdicts[0]!.text).toBe('The “reasoning” stage is trained with rule-based rewards only.');
    expect(sourceStatus(verdicts)).toBe('changed');
  });

  it('gives no verdict to a tombstone, and calls a source whose passages all stand unchanged', () => {
    page(KEPT);
    const verdicts = recheckClaims(document.body, [c('clm_keep000001', KEPT), c('clm_dead000001', LOST, { deleted_at: '2026-11-30T00:00:00Z' })]);
    expect(verdicts.map((v) => v.id)).toEqual(['clm_keep000001']);
    expect(sourceStatus(verdicts)).toBe('unchanged');
  });

  it('says nothing of the claims of a source it could not read but why, and prints the spec’s JSON lines', () => {
    const verdicts = unreachableVerdicts([c('clm_keep000001', KEPT)], 'HTTP 404');
    expect(sourceStatus(verdicts)).toBe('unreachable');
    expect(verdictLine(verdicts[0]!)).toBe(`{"id":"clm_keep000001","url":"${URL_}","verdict":"unreachable","text":null,"reason":"HTTP 404"}`);
    page('The “reasoning” stage is trained with rule-based rewards only.');
    const [edited] = recheckClaims(document.body, [c('clm_word000001', WORDED)]);
    expect(JSON.parse(verdictLine(edited!))).toEqual({
      id: 'clm_word000001',
      url: URL_,
      verdict: 'edited',
      text: 'The “reasoning” stage is trained with rule-based rewards only.',
      reason: null,
    });
  });

  it('reads markup in a page as text: a script is not run, and its words are not a passage', () => {
    document.body.innerHTML = `<p>${KEPT}</p><script>window.pwned = 1; "${LOST}"</script>`;
    const verdicts = recheckClaims(document.body, [c('clm_keep000001', KEPT), c('clm_lost000001', LOST)]);
    expect(verdicts.map((v) => v.verdict)).toEqual(['unchanged', 'gone']);
    expect((window as { pwned?: number }).pwned).toBeUndefined();
  });
});

describe('new candidates', () => {
  const NOW_SAYS = 'Zeta-2 is now post-trained with GRPO in its reasoning RL stage.';

  it('offers a sentence naming an algorithm that is new since the claims were captured, first for a "not disclosed" source', () => {
    const undisclosed = c('clm_nd00000001', 'The report does not say how Zeta-2 is post-trained.', {
      kind: 'undisclosed',
      stage: null,
      value: 'not disclosed',
    });
    page('The report does not say how Zeta-2 is post-trained.', NOW_SAYS);
    const verdicts = recheckClaims(document.body, [undisclosed]);
    const found = newCandidates(buildTextIndex(document.body).text, [undisclosed], verdicts);
    expect(found.undisclosedOnly).toBe(true);
    expect(found.candidates.map((x) => x.sentence)).toContain(NOW_SAYS);
  });

  it('offers neither a quoted sentence nor one the claims’ captured context already held', () => {
    const held = c('clm_keep000001', KEPT, { quote: { exact: KEPT, prefix: '', suffix: ` ${NOW_SAYS}` } });
    page(KEPT, NOW_SAYS);
    const verdicts = recheckClaims(document.body, [held]);
    const found = newCandidates(buildTextIndex(document.body).text, [held], verdicts);
    expect(found.undisclosedOnly).toBe(false);
    expect(found.candidates.map((x) => x.sentence)).not.toContain(KEPT);
    expect(found.candidates.map((x) => x.sentence)).not.toContain(NOW_SAYS);
    // Captured without that context, the same sentence is new.
    const bare = c('clm_keep000001', KEPT);
    const offered = newCandidates(buildTextIndex(document.body).text, [bare], recheckClaims(document.body, [bare]));
    expect(offered.candidates.map((x) => x.sentence)).toEqual([NOW_SAYS]);
  });
});
