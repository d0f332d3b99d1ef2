/** Waiting for the page's next idle moment, for background work that must not delay what the user sees. */

/** Resolves at the browser's next idle period (within `timeout` ms even if none comes), or after a macrotask where there is no idle callback. */
export function nextIdle(timeout = 500): Promise<void> {
  const idle = (globalThis as { requestIdleCallback?: (cb: () => void, options: { timeout: number }) => number }).requestIdleCallback;
  return new Promise<void>((resolve) => (idle ? idle(() => resolve(), { timeout }) : setTimeout(resolve, 0)));
}
