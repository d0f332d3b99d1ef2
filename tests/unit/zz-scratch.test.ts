import { it } from 'vitest';
import { anchorAll, buildTextIndex, describe as d, rangeFromOffsets } from '../../lib/anchoring';
it('perf', () => {
  const parts: string[] = [];
  for (let i = 0; i < 10000; i++) parts.push(`<p>Paragraph ${i} says that <a href="#">model ${i % 97}</a> was trained with <strong>GRPO</strong> for ${i} steps, and the reward was rule-based in stage ${i % 7}.</p>`);
  let t0 = performance.now();
  document.body.innerHTML = parts.join('\n').repeat(2);
  console.log('parse', performance.now() - t0);
  t0 = performance.now();
  const idx = buildTextIndex(document);
  console.log('index', performance.now() - t0, idx.text.length);
  const list = [] as any[];
  for (let i = 0; i < 500; i++) { const s = idx.text.indexOf(`Paragraph ${i * 20} says`); list.push(d(rangeFromOffsets(idx, s, s + 80)!, document, idx)); }
  t0 = performance.now();
  const res = anchorAll(document, list, idx);
  console.log('anchorAll 500', performance.now() - t0, res.filter(r => r.status === 'anchored').length, res.map(r => r.confidence).slice(0,5));
  const edited = list.map((s) => ({ quote: { ...s.quote, exact: s.quote.exact.replace('trained', 'tuned') } }));
  t0 = performance.now();
  const res2 = anchorAll(document, edited, idx);
  console.log('anchorAll 500 fuzzy', performance.now() - t0, res2.filter(r => r.status === 'anchored').length, res2.map(r => r.confidence).slice(0,5));
});
