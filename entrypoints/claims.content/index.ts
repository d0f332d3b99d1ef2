import './highlights-root.css';
import { PageBoot } from './boot';

export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_idle',
  // highlights-root.css (Chromium only; the Firefox build drops it, see wxt.config.ts): the highlights' styles on the
  // root element, there before the page's first style pass, costing nothing until a highlight is registered.
  // The page hears nothing from us: no "script started" postMessage.
  noScriptStartedPostMessage: true,
  main(ctx) {
    new PageBoot(ctx).start();
  },
});
