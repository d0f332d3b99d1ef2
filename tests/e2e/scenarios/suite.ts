/**
 * The scenarios as vitest suites, declared once for every browser: the
 * Chromium file (../scenarios.e2e.test.ts) and the Firefox file
 * (../scenarios.firefox.test.ts) each call `scenarioSuites` with their driver.
 * Two browsers per run: one for the capture, in-page navigation and hostile pages, one for the
 * fixture records (import, painting, re-anchoring, panel, export), so the
 * export holds exactly the imported records.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { DownloadedFile, ExtensionDriver } from '../driver';
import { HAVE_SHARED } from '../harness';
import { captureOnRealPage } from './capture';
import { pageCannotReachStore, tagOnHostilePage } from './hostile';
import { hostilePageWhileCurating } from './hostile-capture';
import { paintsAcrossInPageNavigation } from './navigation';
import { everyRecordPainted, exportStore, importFixtureRecords, panelListsModels, reanchorEditedPage } from './survey';

/** What a browser's file gives the suites. */
export interface SuiteOptions {
  /** Starts the browser with the built extension. */
  launch(): Promise<ExtensionDriver>;
  /** A further check of the exported JSONL, as its own test (Firefox compares it with Chromium's export of the same records). */
  exportCheck?: { name: string; check(file: DownloadedFile): Promise<void> };
}

/** Starts a browser before the enclosing suite's tests and closes it after them; returns the running driver's getter. */
function driverForSuite(launch: () => Promise<ExtensionDriver>): () => ExtensionDriver {
  let driver: ExtensionDriver | null = null;
  beforeAll(async () => {
    driver = await launch();
  });
  afterAll(async () => {
    await driver?.close();
  });
  return () => {
    if (!driver) throw new Error('the browser did not start');
    return driver;
  };
}

/** Declares the scenario suites for one browser (`label` names it in the test names). */
export function scenarioSuites(label: string, options: SuiteOptions): void {
  describe(`${label}: capture, navigation and hostile pages`, () => {
    const driver = driverForSuite(options.launch);

    it.runIf(HAVE_SHARED)('capture: select, tag and save through the toolbar; reload; the passage is painted and the claim stored', async () => {
      await captureOnRealPage(driver());
    });

    it('in-page navigation: each address of a single-page app has its claims painted as the app moves between them', async () => {
      await paintsAcrossInPageNavigation(driver());
    });

    it('hostile page: overridden built-ins; a passage selected with the mouse is tagged, stored and painted again', async () => {
      await tagOnHostilePage(driver());
    });

    it('hostile page: forged messages and events reach no store, and the page has no extension API', async () => {
      await pageCannotReachStore(driver());
    });

    it('hostile page while a curator works: it can neither read nor drive the capture UI, and a neighbour on a shared suffix is not its address', async () => {
      await hostilePageWhileCurating(driver());
    });
  });

  describe.runIf(HAVE_SHARED)(`${label}: the fixture records`, () => {
    const driver = driverForSuite(options.launch);

    it('import through the options page', async () => {
      await importFixtureRecords(driver());
    });

    it('every imported record is painted on its page, and counted on the badge', async () => {
      await everyRecordPainted(driver());
    });

    it('re-anchoring on an edited page: what is left is painted, the removed passage is reported as an orphan', async () => {
      await reanchorEditedPage(driver());
    });

    it('the evidence panel (side panel / sidebar): the survey lists the imported models', async () => {
      await panelListsModels(driver());
    });

    let exported: DownloadedFile | null = null;
    it('export: the JSONL file is valid, dated, and the same bytes twice', async () => {
      exported = await exportStore(driver());
    });

    const extra = options.exportCheck;
    if (extra) {
      it(extra.name, async () => {
        if (!exported) throw new Error('the export test did not produce a file');
        await extra.check(exported);
      });
    }
  });
}
