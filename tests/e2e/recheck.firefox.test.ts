// Rechecking sources in Firefox (firefox-esr through WebDriver BiDi): the options page rechecks the corpus pairs'
// sources over the extension's host permissions and shows the report (tests/e2e/scenarios/recheck.ts).
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { ExtensionDriver } from './driver';
import { firefoxDriver, launchFirefox } from './firefox';
import { SHARED_FIXTURES } from './harness';
import { recheckReportShowsVerdicts } from './scenarios/recheck';
import { existsSync } from 'node:fs';
import path from 'node:path';

describe.runIf(existsSync(path.join(SHARED_FIXTURES, 'revisions', 'cases.json')))('Firefox: rechecking sources', () => {
  let driver: ExtensionDriver;
  beforeAll(async () => {
    driver = firefoxDriver(await launchFirefox());
  });
  afterAll(async () => {
    await driver?.close();
  });

  it('rechecks every source from the options page and reports each verdict: edits as word diffs with Accept, gone passages marked and kept', async () => {
    await recheckReportShowsVerdicts(driver);
  });
});
