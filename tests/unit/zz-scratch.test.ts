import { it } from 'vitest';
import { anchor, describe as describeRange, buildTextIndex, rangeFromOffsets } from '../../lib/anchoring';
const original = [
    '<h2>Post-training</h2>',
    '<p>To develop the hybrid model, we implemented a four-stage training pipeline. ',
    'In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration. ',
    'The third stage fused thinking and non-thinking modes into one model. ',
    'Finally, general RL was applied across more than 20 domains.</p>',
    '<h2>Evaluation</h2><p>The model was evaluated on math, code and agent benchmarks.</p>',
  ].join('');
function sel(needle: string) {
  document.body.innerHTML = original;
  const idx = buildTextIndex(document);
  const s = idx.text.indexOf(needle);
  const r = rangeFromOffsets(idx, s, s + needle.length)!;
  return describeRange(r);
}
it('dbg', () => {
  const cases: Array<[string, string, string]> = [
    ['utilizing rule-based rewards to improve exploration', 'utilizing rule-based rewards to improve', 'utilizing verifiable rewards to improve'],
    ['The third stage fused thinking and non-thinking modes into one model.', 'fused thinking and', 'fused both thinking and'],
    ['general RL was applied across more than 20 domains', 'more than 20', 'more than'],
    ['we implemented a four-stage training pipeline', 'four-stage', 'fourstage'],
    ['In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration.', 'In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration. ', ''],
    ['In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration.', 'In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration. ', 'In the second stage we scaled up RL compute, using rule-based rewards to improve exploration. '],
    ['In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration.', 'In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration. ', 'In the second stage we scaled up the compute, using model-based rewards to improve exploitation. '],
    ['In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration.', 'In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration. ', 'In the third stage we scaled down SFT data, utilizing model-based rewards to reduce exploration. '],
    ['In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration.', 'In the second stage we scaled up RL compute, utilizing rule-based rewards to improve exploration. ', '', ],
    ['four-stage', 'four-stage', 'three-stage'],
    ['four-stage training', 'four-stage training', 'five-stage training'],
  ];
  for (const [needle, from, to] of cases) {
    const s = sel(needle);
    document.body.innerHTML = original.replace(from, to) + (to === '' ? '<p>Separately, in the second stage we scaled up SFT compute, utilizing rule-based filters to improve quality.</p><p>In the final stage we scaled up the evaluation, using many benchmarks to measure the model.</p>' : '');
    const r = anchor(document, s);
    console.log(JSON.stringify(needle.slice(0, 40)), '→', r.status, r.confidence, r.status === 'anchored' ? JSON.stringify(r.text) : r.reason);
  }
});
