import './highlights.css';
import { ClaimsSession } from './session';

export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  runAt: 'document_idle',
  // highlights.css is injected by the browser from the manifest: no element is added to the page for it.
  cssInjectionMode: 'manifest',
  main(ctx) {
    new ClaimsSession(ctx).start();
  },
});
