/**
 * The background: one module per feature, each exporting the handlers of its
 * calls; here they are joined (the type checker proves every call has exactly
 * one handler), writes are followed by their change notice, and every
 * listener is registered.
 */
import { browser } from 'wxt/browser';
import { type BackgroundCall, joinHandlers } from '../../lib/messages';
import { siteOf } from '../../lib/source/sites';
import { reviewState } from '../../lib/db';
import { nowTimestamp } from '../../lib/time';
import { useBrowserMessages } from '../shared/i18n';
import { answerInBackground } from '../shared/messaging';
import { noticeChanges } from './changes';
import { claimHandlers } from './claims';
import { datasetHandlers, listenForDatasetSchedule } from './dataset';
import { documentHandlers } from './documents';
import { finderHandlers } from './finder';
import { createMenus, listenForMenusAndCommands } from './menus';
import { pdfHandlers } from './pdf';
import { listenForPdfNavigations } from './pdf-navigations';
import { recheckHandlers } from './recheck';
import { settingsHandlers } from './settings';
import { surveyHandlers } from './survey';
import { tabHandlers } from './tabs';
import { listenForUploads, transferHandlers } from './transfer';
import { db } from './db';
import { refreshClaimsIndex } from './claims-index';

export { db };

/** Every call the background answers, each by the feature it belongs to. */
export const handlers = noticeChanges(
  joinHandlers<BackgroundCall>()(
    documentHandlers,
    claimHandlers,
    surveyHandlers,
    finderHandlers,
    transferHandlers,
    tabHandlers,
    pdfHandlers,
    settingsHandlers,
    datasetHandlers,
    recheckHandlers,
  ),
);

export default defineBackground(() => {
  useBrowserMessages();
  // Every listener is registered synchronously so none is missed when the worker wakes for an event.
  answerInBackground(handlers, siteOf);
  listenForUploads(browser.runtime.getURL('/'));
  listenForMenusAndCommands();
  listenForPdfNavigations();
  listenForDatasetSchedule();
  browser.runtime.onInstalled.addListener(() => {
    createMenus();
    // Installed or updated (a migration may have rewritten the store): the page script's claims index anew.
    void db()
      .then(refreshClaimsIndex)
      .catch(() => undefined);
    // From now on claims are filed by the stricter site rule: older ones on shared hosts are listed once to check.
    void db()
      .then((d) => reviewState(d, nowTimestamp()))
      .catch(() => undefined);
  });
  // Nearly every event that wakes the worker reads the store: open it now, while the event's sender is still
  // starting, rather than on the first call (a failure here is reported again to the call that needs it).
  void db().catch(() => undefined);
});
