/** Waiting for the page's next idle moment, for background work that must not delay what the user sees. */

/**
 * Resolves at the browser's next idle period (within `timeout` ms even if none comes), with a clock of the
 * milliseconds left in it; or after a macrotask, with none left, where there is no idle callback.
 */
export function nextIdle(timeout = 500): Promise<() => number> {
  const idle = (globalThis as { requestIdleCallback?: (cb: (deadline: { timeRemaining(): number }) => void, options: { timeout: number }) => number })
    .requestIdleCallback;
  return new Promise((resolve) => (idle ? idle((deadline) => resolve(() => deadline.timeRemaining()), { timeout }) : setTimeout(() => resolve(() => 0), 0)));
}
