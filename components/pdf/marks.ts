/** The viewer's marks on `<html>` and in the performance timeline: moments of its life for the benchmark and the tests. */

/** Marks a moment (milliseconds since the page started, or a duration given as `ms`). */
export function mark(name: string, ms = performance.now()): void {
  document.documentElement.dataset[name] = String(Math.round(ms));
  performance.mark(`recipe-lens:${name}`);
}
