// Small statistics for benchmark figures: medians, percentiles, the spread of a median (interquartile
// range and a seeded bootstrap interval), and a least-squares growth exponent. Pure; seeded, so the same
// samples always give the same interval.
import { createRandom } from './prng.mjs';

/** Median of a list of numbers (the mean of the two middle values for an even count); NaN for none. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The p-th percentile (0–100) by linear interpolation between closest ranks; NaN for none. */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const at = (Math.min(100, Math.max(0, p)) / 100) * (s.length - 1);
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return s[lo] + (s[hi] - s[lo]) * (at - lo);
}

/** First and third quartiles. */
export function quartiles(xs) {
  return { q1: percentile(xs, 25), q3: percentile(xs, 75) };
}

/**
 * A percentile bootstrap interval for the median: `rounds` resamples (with replacement, seeded) of
 * `xs`, the median of each, and the (1 − level)/2 and (1 + level)/2 percentiles of those medians.
 */
export function bootstrapMedian(xs, { rounds = 2000, level = 0.95, seed = 1 } = {}) {
  if (!xs.length) return { low: NaN, high: NaN };
  const r = createRandom(seed);
  const medians = new Array(rounds);
  const sample = new Array(xs.length);
  for (let i = 0; i < rounds; i++) {
    for (let j = 0; j < xs.length; j++) sample[j] = xs[Math.floor(r.next() * xs.length)];
    medians[i] = median(sample);
  }
  return { low: percentile(medians, ((1 - level) / 2) * 100), high: percentile(medians, ((1 + level) / 2) * 100) };
}

/** Median, quartiles and the 95 % bootstrap interval of the median of `xs`. */
export function spread(xs, options) {
  const { q1, q3 } = quartiles(xs);
  const ci = bootstrapMedian(xs, options);
  return { n: xs.length, median: median(xs), q1, q3, ciLow: ci.low, ciHigh: ci.high };
}

/**
 * How a cost grows with the work: the exponent k of cost ≈ c · size^k fitted by least squares on
 * log–log (1 linear, 2 quadratic, near 0 flat). Points with a non-positive size or cost are left out;
 * null with fewer than two points.
 */
export function growthExponent(points) {
  const ps = points.filter(([x, y]) => x > 0 && y > 0).map(([x, y]) => [Math.log(x), Math.log(y)]);
  if (ps.length < 2) return null;
  const mx = ps.reduce((n, [x]) => n + x, 0) / ps.length;
  const my = ps.reduce((n, [, y]) => n + y, 0) / ps.length;
  const sxx = ps.reduce((n, [x]) => n + (x - mx) ** 2, 0);
  const sxy = ps.reduce((n, [x, y]) => n + (x - mx) * (y - my), 0);
  return sxx ? sxy / sxx : null;
}
