import { takeBridge } from '../shared/capture-bridge';
import { ignoreForgedRestarts } from '../shared/forged-restart';
import { useBrowserMessages } from '../shared/i18n';
import { ClaimsSession } from './session';

export default defineContentScript({
  matches: ['http://*/*', 'https://*/*'],
  // Injected by the background when the page script asks for it (the page has claims, or the curator is tagging).
  registration: 'runtime',
  cssInjectionMode: 'ui',
  noScriptStartedPostMessage: true,
  main(ctx) {
    ignoreForgedRestarts();
    useBrowserMessages();
    const bridge = takeBridge();
    // Only the page script loads this script; without its bridge there is nobody to answer for.
    if (!bridge) return;
    const session = new ClaimsSession(ctx, bridge.lookup);
    session.start();
    bridge.attach(session);
  },
});
