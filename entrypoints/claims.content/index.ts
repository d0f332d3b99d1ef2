import { PageBoot } from './boot';

export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_idle',
  // No stylesheet here: a page with nothing stored gets none (and no style recalculation); the capture script's comes with it.
  // The page hears nothing from us: no "script started" postMessage.
  noScriptStartedPostMessage: true,
  main(ctx) {
    new PageBoot(ctx).start();
  },
});
