import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFrame, mark, markAfterFrame } from '../../../components/pdf/marks';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  for (const key of Object.keys(document.documentElement.dataset)) delete document.documentElement.dataset[key];
});

/** Holds requestAnimationFrame callbacks until the test runs them, as a frame would. */
function holdFrames(): { run(): void; pending(): number } {
  const callbacks: FrameRequestCallback[] = [];
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => callbacks.push(cb));
  return {
    run: () => {
      for (const cb of callbacks.splice(0)) cb(performance.now());
    },
    pending: () => callbacks.length,
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the viewer marks', () => {
  it('writes a moment on <html> and in the performance timeline', () => {
    mark('pdfTestMs', 1234.4);
    expect(document.documentElement.dataset.pdfTestMs).toBe('1234');
    expect(performance.getEntriesByName('recipe-lens:pdfTestMs').length).toBeGreaterThan(0);
  });

  it('waits for the next frame, and a task after it, before saying what is in the page is on screen', async () => {
    const frames = holdFrames();
    let done = false;
    void afterFrame().then(() => (done = true));
    markAfterFrame('pdfShownMs');
    await settle();
    expect(done).toBe(false);
    expect(document.documentElement.dataset.pdfShownMs).toBeUndefined();
    expect(frames.pending()).toBe(2);
    frames.run();
    await settle();
    expect(done).toBe(true);
    expect(document.documentElement.dataset.pdfShownMs).toBeDefined();
  });

  it('does not wait for frames a hidden page never makes', async () => {
    const frames = holdFrames();
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    await afterFrame();
    markAfterFrame('pdfHiddenMs');
    await settle();
    expect(frames.pending()).toBe(0);
    expect(document.documentElement.dataset.pdfHiddenMs).toBeDefined();
  });
});
