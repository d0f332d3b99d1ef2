import './highlights.css';
import { PageBoot } from './boot';

export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_idle',
  // highlights.css is injected by the browser from the manifest: no element is added to the page for it.
  cssInjectionMode: 'manifest',
  // The page hears nothing from us: no "script started" postMessage.
  noScriptStartedPostMessage: true,
  main(ctx) {
    new PageBoot(ctx).start();
  },
});
