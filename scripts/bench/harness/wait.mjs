// Waiting for something in a page without Playwright's injected script. `page.waitForFunction` first injects that
// script into the page's world (about 20–35 ms of evaluation on the page's main thread) and, on the 2 MB page, is
// followed by a rendering frame of 60–110 ms that no page without Playwright has (measured: tasks from
// DOMContentLoaded with and without it, docs/benchmarks.md). A wait during a measurement then adds a long task of the
// harness's own to the trace and takes the main thread from what is measured. Reading a value with `page.evaluate`
// costs the page a task of well under a millisecond.

/**
 * Polls `fn(arg)` in the page (its main world) every `interval` ms until it returns a value other than null,
 * undefined or false, and returns that value; throws after `timeout` ms, saying what it waited for.
 */
export async function waitInPage(page, fn, arg, { timeout = 30_000, interval = 50, what = 'the condition' } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await page.evaluate(fn, arg);
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`waited ${timeout} ms in the page for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
