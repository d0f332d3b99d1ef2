/**
 * What the capture controller and the frames of its UI say to each other over their port (`frame-host.ts` on the
 * page's side, `frame-app.ts` in the frame). The port is opened by the frame, an extension page, with
 * `tabs.connect`, which no web page can call: the page neither hears nor sends any of this.
 */
import type { CaptureState } from './state';
import type { UiPart } from './ui-parts';

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

/** The port's name for a frame: its part and the one-time number the controller gave it. */
export function uiPortName(part: UiPart, nonce: string): string {
  return `recipe-lens-ui:${part}:${nonce}`;
}

/** The part and number in a port's name, or null for a port that is not a frame's. */
export function parseUiPortName(name: string): { part: UiPart; nonce: string } | null {
  const m = /^recipe-lens-ui:(anchored|notices|orphans|finder):([A-Za-z0-9_-]{16,64})$/.exec(name);
  return m ? { part: m[1] as UiPart, nonce: m[2]! } : null;
}

/** The blank space kept around a part inside its frame, for its shadow (the frame stands that much further out). */
export const FRAME_MARGIN = 14;
