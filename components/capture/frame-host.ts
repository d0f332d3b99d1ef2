/**
 * The capture UI on a web page, out of the page's reach: each part (toolbar/form/card, notices, orphans, the
 * finder's list) is an extension page in a frame of its own, and the frames sit in a closed shadow root. The page
 * cannot read a frame (another origin), cannot send it events, and cannot find its elements; the frames and the
 * controller talk over a `MessageChannel` handed to each frame with a one-time number only that frame knows
 * (`ui-channel.ts`). What a frame shows is
 * the controller's state; what it asks for is one of the named actions, with the values the curator gave in it.
 */
import type { Store } from '../common/store';
import type { MountUi, UiHost } from './mount';
import type { CaptureActions, CaptureState } from './state';
import { FRAME_MARGIN, type FromFrame, HANDOVER_KEY, isUiAction, messagePortUi, type ToFrame, type UiAction, type UiPort } from './ui-channel';
import { type PartPlace, partPlace, UI_PARTS, type UiPart } from './ui-parts';

/** What the framed mount needs from the browser. */
export interface FrameLink {
  /** The address of the frame page for a part (web-accessible). */
  frameUrl(part: UiPart): string;
  /** The extension's origin: the one origin the handover message may be delivered to. */
  origin: string;
}

/** Styles of the host and its frames: nothing of the page's reaches into the shadow root, and the host resists being hidden. */
const HOST_CSS = `
:host { all: initial !important; display: block !important; position: static !important; visibility: visible !important; opacity: 1 !important; }
iframe { position: fixed; border: 0; margin: 0; padding: 0; background: transparent; color-scheme: light; z-index: 2147483647;
  max-width: 100vw; max-height: 100vh; visibility: hidden; width: 0; height: 0; }
iframe[data-shown] { visibility: visible; }
`;

/** The part that holds the keyboard in this state: an open form, a pinned card, a finished finder's list (null: the page). */
function focusedPart(state: CaptureState): UiPart | null {
  if (state.form || state.card?.pinned) return 'anchored';
  if (state.finder && state.finder.status !== 'running') return 'finder';
  return null;
}

/** A fresh one-time number for a frame's port. */
function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Runs a named action with the arguments a frame sent. */
function runAction(actions: CaptureActions, action: UiAction, args: unknown[]): unknown {
  const [scope, name] = action.startsWith('finder.') ? [actions.finder, action.slice(7)] : [actions, action];
  const fn = (scope as unknown as Record<string, ((...a: unknown[]) => unknown) | undefined> | undefined)?.[name];
  if (typeof fn !== 'function') throw new Error(`no action ${action} here`);
  return fn(...args);
}

/** One part's frame: the element, its port once open, and the last size it reported. */
class FramePart {
  readonly frame: HTMLIFrameElement;
  readonly nonce = nonce();
  port: UiPort | null = null;
  size = { width: 0, height: 0 };
  private loads = 0;

  constructor(
    readonly part: UiPart,
    private readonly host: FramedUi,
    doc: Document,
    url: string,
  ) {
    this.frame = doc.createElement('iframe');
    this.frame.setAttribute('title', 'Recipe Lens');
    this.frame.setAttribute('allowtransparency', 'true');
    // The frame's number, read (and cleared) by the frame as its window.name: nobody else can read it there.
    this.frame.name = this.nonce;
    this.frame.addEventListener('load', () => {
      // A second load is a navigation of our frame by somebody else: it is no longer ours.
      if (++this.loads > 1) this.host.drop(this);
      else this.host.connect(this);
    });
    this.frame.src = url;
  }

  /** Sends the state (when the port is open; the frame gets the latest state once it connects). */
  send(message: ToFrame): void {
    this.port?.post(message);
  }

  /** Places the frame: at a point or in a corner, sized to what it shows; hidden when it shows nothing. */
  layout(place: PartPlace | null): void {
    const style = this.frame.style;
    const shown = place !== null && this.size.width > 0 && this.size.height > 0;
    this.frame.toggleAttribute('data-shown', shown);
    if (!shown) {
      // Nothing of a hidden frame is left on screen, nor in the way of the page's pointer.
      style.width = style.height = '0px';
      return;
    }
    style.width = `${this.size.width}px`;
    style.height = `${this.size.height}px`;
    style.left = style.top = style.right = style.bottom = '';
    if (!place) return;
    const inset = `${16 - FRAME_MARGIN}px`;
    if ('at' in place) {
      style.left = `${place.at.x - FRAME_MARGIN}px`;
      style.top = `${place.at.y - FRAME_MARGIN}px`;
    } else {
      if (place.corner === 'top-right') style.top = inset;
      else style.bottom = inset;
      if (place.corner === 'bottom-left') style.left = inset;
      else style.right = inset;
    }
  }
}

/** The framed UI of one controller. */
class FramedUi implements UiHost {
  private readonly element: HTMLElement;
  private readonly root: ShadowRoot;
  private readonly parts = new Map<UiPart, FramePart>();
  private readonly stops: Array<() => void> = [];
  private focusedWas: UiPart | null = null;

  constructor(
    private readonly doc: Document,
    private readonly link: FrameLink,
    private readonly store: Store<CaptureState>,
    private readonly actions: CaptureActions,
  ) {
    this.element = doc.createElement('recipe-lens-ui');
    this.root = this.element.attachShadow({ mode: 'closed' });
    const style = doc.createElement('style');
    style.textContent = HOST_CSS;
    this.root.append(style);
    doc.documentElement.append(this.element);
    this.stops.push(store.subscribe((state) => this.update(state)));
    const onResize = () => this.update(store.get());
    addEventListener('resize', onResize);
    this.stops.push(() => removeEventListener('resize', onResize));
    // The toolbar's frame is the first one needed: made now, so it loads while the curator is still selecting.
    this.part('anchored');
    this.update(store.get());
  }

  get node(): Node {
    return this.element;
  }

  owns(event: Event): boolean {
    return event.composedPath().includes(this.element);
  }

  destroy(): void {
    for (const stop of this.stops.splice(0)) stop();
    for (const part of [...this.parts.values()]) this.drop(part);
    this.element.remove();
  }

  /** Takes a frame away (it is made again when its part is next needed). */
  drop(part: FramePart): void {
    if (this.parts.get(part.part) !== part) return;
    this.parts.delete(part.part);
    part.port?.disconnect();
    part.frame.remove();
  }

  private message(state: CaptureState): ToFrame {
    return { type: 'state', state, finder: !!this.actions.finder, viewport: { width: innerWidth, height: innerHeight } };
  }

  private update(state: CaptureState): void {
    // The page may have taken our element out: put it back before showing anything.
    if (!this.element.isConnected) this.doc.documentElement.append(this.element);
    for (const name of UI_PARTS) {
      const place = partPlace(name, state);
      const part = place ? this.part(name) : this.parts.get(name);
      if (!part) continue;
      part.send(this.message(state));
      part.layout(place);
    }
    // The keyboard follows what the curator opened: the form, a pinned card, the finder's list; and comes back after.
    const focused = focusedPart(state);
    if (focused && focused !== this.focusedWas) this.focus(focused);
    if (!focused && this.focusedWas) this.giveBackFocus();
    this.focusedWas = focused;
  }

  /** The form closed: the keyboard goes back to the page, where the curator was reading (no frame of ours keeps it). */
  private giveBackFocus(): void {
    const active = this.root.activeElement;
    if (!(active instanceof HTMLIFrameElement)) return;
    active.blur();
    window.focus();
  }

  /** A part's frame, made (hidden until it shows something) when there is none. */
  private part(name: UiPart): FramePart {
    let part = this.parts.get(name);
    if (!part) {
      part = new FramePart(name, this, this.doc, this.link.frameUrl(name));
      this.parts.set(name, part);
      this.root.append(part.frame);
    }
    return part;
  }

  /** Moves the keyboard into a part's frame (the form opened by a shortcut or the toolbar). */
  private focus(name: UiPart): void {
    const part = this.parts.get(name);
    if (!part) return;
    part.frame.focus();
    part.send({ type: 'focus' });
  }

  /** The frame loaded (its listener is there): hands it its port, to our origin only, and sends it the state. */
  connect(part: FramePart): void {
    const target = part.frame.contentWindow;
    if (this.parts.get(part.part) !== part || part.port || !target) return;
    const channel = new MessageChannel();
    target.postMessage({ [HANDOVER_KEY]: part.nonce }, this.link.origin, [channel.port2]);
    const port = messagePortUi(channel.port1);
    part.port = port;
    port.onMessage((message) => this.heard(part, message as FromFrame));
    channel.port1.start();
    port.post(this.message(this.store.get()));
    if (focusedPart(this.store.get()) === part.part) this.focus(part.part);
  }

  private heard(part: FramePart, message: FromFrame): void {
    if (!message || typeof message !== 'object') return;
    if (message.type === 'size') {
      const width = Math.max(0, Math.min(4000, Math.ceil(Number(message.width) || 0)));
      const height = Math.max(0, Math.min(4000, Math.ceil(Number(message.height) || 0)));
      part.size = { width, height };
      part.layout(partPlace(part.part, this.store.get()));
      return;
    }
    if (message.type === 'act' && isUiAction(message.action) && Array.isArray(message.args)) {
      const { id } = message;
      Promise.resolve()
        .then(() => runAction(this.actions, message.action, message.args))
        .then(
          () => part.send({ type: 'done', id, error: null }),
          (error: unknown) => part.send({ type: 'done', id, error: error instanceof Error ? error.message : String(error) }),
        );
    }
  }
}

/** The mount for web pages: every part of the capture UI in an extension frame of its own, made when first needed. */
export function mountInFrames(link: FrameLink, doc: Document = document): MountUi {
  return async (store, actions) => new FramedUi(doc, link, store, actions);
}
