/** Putting the capture UI into a document, and keeping the document's selection while it is used. */
import { h, render } from 'preact';
import type { Store } from '../common/store';
import { CaptureApp } from './CaptureApp';
import type { CaptureActions, CaptureState } from './state';
import uiCss from './ui.css?inline';

/** The capture UI once shown: whether an event came from it, and taking it away. */
export interface UiHost {
  /** The element in the document that holds the UI (its changes are not the document's). */
  readonly node: Node;
  /** Whether an event happened inside the capture UI (the controller leaves those to it). */
  owns(event: Event): boolean;
  /** Takes the UI away. */
  destroy(): void;
}

/**
 * Shows the capture UI for a controller's state and actions, once. The UI reads nothing from the document but the
 * store, and reaches the controller only through `actions`.
 */
export type MountUi = (store: Store<CaptureState>, actions: CaptureActions) => Promise<UiHost>;

/**
 * The mount for a document no other script shares (the PDF viewer, an extension page; unit tests): the UI rendered
 * into a shadow root at the end of the body. A web page gets the framed mount instead (`frame-host.ts`).
 */
export function mountInShadowRoot(doc: Document = document): MountUi {
  return async (store, actions) => {
    const host = doc.createElement('recipe-lens-ui');
    // Open: no script but ours runs in an extension page, and the tests reach the UI through it.
    const shadow = host.attachShadow({ mode: 'open' });
    const style = doc.createElement('style');
    style.textContent = uiCss;
    const container = doc.createElement('div');
    shadow.append(style, container);
    doc.body.append(host);
    render(h(CaptureApp, { store, actions }), container);
    host.addEventListener('mousedown', keepSelection);
    return {
      node: host,
      owns: (event) => event.composedPath().includes(host),
      destroy: () => {
        render(null, container);
        host.remove();
      },
    };
  };
}

/** Keeps the document's selection when the UI's buttons are pressed (its fields still take focus). */
export function keepSelection(event: MouseEvent): void {
  const target = event.composedPath()[0] as HTMLElement | undefined;
  if (target && !/^(INPUT|TEXTAREA|SELECT|OPTION|LABEL)$/.test(target.tagName)) event.preventDefault();
}
