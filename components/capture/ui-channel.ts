/**
 * What the capture controller and the frames of its UI say to each other over their port (`frame-host.ts` on the
 * page's side, `frame-app.ts` in the frame). The capture script hands each frame one end of a `MessageChannel` with
 * a number only that frame knows (`awaitHandover`): the page neither hears nor sends anything on it.
 */
import type { CaptureState } from './state';

/** A message port between the two sides (the browser's `runtime.Port`, wrapped). */
export interface UiPort {
  post(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  onDisconnect(listener: () => void): void;
  disconnect(): void;
}

/** The controller's side to a frame: the state to show, and the answer to an action. */
export type ToFrame =
  | { type: 'state'; state: CaptureState; finder: boolean; viewport: { width: number; height: number } }
  | { type: 'done'; id: number; error: string | null }
  | { type: 'focus' };

/** A frame to the controller: its content's size, an action the curator took in it. */
export type FromFrame = { type: 'size'; width: number; height: number } | { type: 'act'; id: number; action: UiAction; args: unknown[] };

/** The actions a frame may ask for, by name (`finder.x` for the finder's); nothing else is run. */
export const UI_ACTIONS = [
  'openForm',
  'closeToolbar',
  'escape',
  'save',
  'cancelForm',
  'edit',
  'remove',
  'undo',
  'dismissToast',
  'closeCard',
  'hoverCard',
  'focusClaim',
  'confirmText',
  'startReattach',
  'attachHere',
  'cancelReattach',
  'toggleOrphans',
  'finder.acceptCandidate',
  'finder.dismissCandidate',
  'finder.showCandidate',
  'finder.recordUndisclosed',
  'finder.closeFinder',
] as const;
/** One of {@link UI_ACTIONS}. */
export type UiAction = (typeof UI_ACTIONS)[number];

/** Whether a string names an action a frame may ask for. */
export function isUiAction(name: unknown): name is UiAction {
  return typeof name === 'string' && (UI_ACTIONS as readonly string[]).includes(name);
}

/** The key of the one message that hands a frame its port: its value is the number the frame was given. */
export const HANDOVER_KEY = 'recipe-lens-ui';

/**
 * A port over a `MessagePort`. There is no close event on a message port: the frame side needs none (the frame goes
 * with the page or the extension), and the page side drops a frame it no longer trusts itself.
 */
export function messagePortUi(port: MessagePort): UiPort {
  const closed: Array<() => void> = [];
  return {
    post: (message) => port.postMessage(message),
    onMessage: (listener) => port.addEventListener('message', (event) => listener((event as MessageEvent).data)),
    onDisconnect: (listener) => closed.push(listener),
    disconnect() {
      port.close();
      for (const listener of closed.splice(0)) listener();
    },
  };
}

/**
 * In a frame: takes the port of the first message that carries the frame's number (`HANDOVER_KEY`) and a port, from
 * the frame's parent; every other message is ignored. The number is the frame's `window.name`, which the capture
 * script set on the element in its closed shadow root and the frame clears at once: a page can neither read it nor
 * guess it, and the handover message goes to our origin only.
 */
export function awaitHandover(win: Window, nonce: string, take: (port: UiPort) => void): void {
  let taken = false;
  win.addEventListener('message', (event) => {
    if (taken || !nonce || event.source !== win.parent) return;
    const data = event.data as Record<string, unknown> | null;
    const port = event.ports[0];
    if (!data || typeof data !== 'object' || data[HANDOVER_KEY] !== nonce || !port) return;
    taken = true;
    const ui = messagePortUi(port);
    take(ui);
    port.start();
  });
}

/** The blank space kept around a part inside its frame, for its shadow (the frame stands that much further out). */
export const FRAME_MARGIN = 14;
