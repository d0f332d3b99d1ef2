// The browser-neutral scenarios (tests/e2e/scenarios) in Chromium; tests/e2e/scenarios.firefox.test.ts runs them in Firefox.
import { chromiumDriver, launchExtension } from './harness';
import { scenarioSuites } from './scenarios/suite';

scenarioSuites('Chromium', { launch: async () => chromiumDriver(await launchExtension()) });
