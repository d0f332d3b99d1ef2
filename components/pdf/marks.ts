/** The viewer's marks on `<html>` and in the performance timeline: moments of its life for the benchmark and the tests. */

/** Marks a moment (milliseconds since the page started, or a duration given as `ms`). */
export function mark(name: string, ms = performance.now()): void {
  document.documentElement.dataset[name] = String(Math.round(ms));
  performance.mark(`recipe-lens:${name}`);
}

/**
 * Marks a moment once the frame now being made is out (a task after its paint and commit): what is in the page
 * now is what the curator sees then. A hidden page makes no frames and is marked at once.
 */
export function markAfterFrame(name: string): void {
  if (document.visibilityState === 'hidden' || typeof requestAnimationFrame !== 'function') {
    mark(name);
    return;
  }
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      mark(name);
    };
    channel.port2.postMessage(null);
  });
}
