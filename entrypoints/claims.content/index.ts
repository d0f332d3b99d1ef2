import { PageBoot } from './boot';

export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_idle',
  // No stylesheet: the highlights' styles come with the painting script (paint.content), on pages with claims only.
  // The page hears nothing from us: no "script started" postMessage.
  noScriptStartedPostMessage: true,
  main(ctx) {
    new PageBoot(ctx).start();
  },
});
