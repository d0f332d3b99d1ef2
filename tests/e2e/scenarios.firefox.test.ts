// The browser-neutral scenarios (tests/e2e/scenarios) in Firefox (firefox-esr through WebDriver BiDi, see firefox.ts).
// The export is compared byte for byte with Chromium's export of the same records, made in a fresh Chromium here.
import { expect } from 'vitest';
import { firefoxDriver, launchFirefox } from './firefox';
import { chromiumDriver, launchExtension } from './harness';
import { scenarioSuites } from './scenarios/suite';
import { exportStore, importFixtureRecords } from './scenarios/survey';

scenarioSuites('Firefox', {
  launch: async () => firefoxDriver(await launchFirefox()),
  exportCheck: {
    name: 'export: the JSONL file is byte-identical to Chromium’s export of the same records',
    async check(firefoxFile) {
      const chromium = chromiumDriver(await launchExtension());
      try {
        await importFixtureRecords(chromium);
        const chromiumFile = await exportStore(chromium);
        expect(firefoxFile.fileName).toBe(chromiumFile.fileName);
        expect(firefoxFile.text).toBe(chromiumFile.text);
        expect(firefoxFile.bytes.equals(chromiumFile.bytes)).toBe(true);
      } finally {
        await chromium.close();
      }
    },
  },
});
