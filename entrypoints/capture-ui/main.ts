/**
 * One part of a web page's capture UI, in an extension frame the capture script put on the page: it takes the one
 * port that script hands it (with the number only this frame was given) and shows what the controller says.
 * Wiring only: the part is `components/capture/frame-app.ts`.
 */
import { startFramePart } from '../../components/capture/frame-app';
import { awaitHandover } from '../../components/capture/ui-channel';
import { UI_PARTS, type UiPart } from '../../components/capture/ui-parts';
import '../../components/capture/ui.css';
import { useBrowserMessages } from '../shared/i18n';

useBrowserMessages();
const part = new URLSearchParams(location.hash.slice(1)).get('part') as UiPart | null;
// The number is read once and cleared: a document loaded later in this frame (somebody else's) finds nothing.
const nonce = window.name;
window.name = '';
// Listening at once: the capture script hands the port over when this frame's load event fires.
if (part && UI_PARTS.includes(part) && window.parent !== window) awaitHandover(window, nonce, (port) => startFramePart(part, port));
