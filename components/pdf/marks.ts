/** The viewer's marks on `<html>` and in the performance timeline: moments of its life for the benchmark and the tests. */

/** Marks a moment (milliseconds since the page started, or a duration given as `ms`). */
export function mark(name: string, ms = performance.now()): void {
  document.documentElement.dataset[name] = String(Math.round(ms));
  performance.mark(`recipe-lens:${name}`);
}

/**
 * Resolves once the frame now being made is out: a task after the next frame's paint and commit, so what is in
 * the page now is on screen then. A hidden page makes no frames and resolves at once.
 */
export function afterFrame(): Promise<void> {
  if (document.visibilityState === 'hidden' || typeof requestAnimationFrame !== 'function') return Promise.resolve();
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  });
}

/** Marks a moment once the frame now being made is out (see {@link afterFrame}): what the curator sees. */
export function markAfterFrame(name: string): void {
  void afterFrame().then(() => mark(name));
}
