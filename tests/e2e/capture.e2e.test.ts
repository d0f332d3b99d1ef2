// The capture loop on a real vendor page, in Chromium. The scenario itself is browser-neutral (scenarios/capture.ts).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { HAVE_SHARED, chromiumDriver, launchExtension, type ExtensionBrowser } from './harness';
import { captureOnRealPage } from './scenarios/capture';

let browser: ExtensionBrowser;
beforeAll(async () => {
  browser = await launchExtension();
});
afterAll(async () => {
  await browser?.close();
});

describe.runIf(HAVE_SHARED)('capture on a real page', () => {
  it('tags a selection through the toolbar, stores it, and paints it again after a reload', async () => {
    await captureOnRealPage(chromiumDriver(browser));
  });
});
