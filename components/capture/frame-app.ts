/**
 * One part of a web page's capture UI, inside its extension frame: it shows the controller's state as it comes over
 * the port and sends back the actions the curator takes, with the values typed here. Nothing is read from, or
 * written to, the page.
 */
import { h, render } from 'preact';
import { createStore } from '../common/store';
import { CaptureApp } from './CaptureApp';
import { type CaptureActions, type FinderActions, initialCaptureState } from './state';
import { FRAME_MARGIN, type ToFrame, UI_ACTIONS, type UiAction, type UiPort } from './ui-channel';
import type { UiPart } from './ui-parts';

/** Actions that post their call over the port; each resolves once the controller ran it (or rejects with its error). */
function remoteActions(
  port: UiPort,
  pending: Map<number, { resolve: () => void; reject: (e: Error) => void }>,
): {
  actions: CaptureActions;
  finder: FinderActions;
} {
  let next = 1;
  const call =
    (action: UiAction) =>
    (...args: unknown[]): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        port.post({ type: 'act', id, action, args });
      });
  const actions: Record<string, unknown> = {};
  const finder: Record<string, unknown> = {};
  for (const action of UI_ACTIONS) {
    if (action.startsWith('finder.')) finder[action.slice(7)] = call(action);
    else actions[action] = call(action);
  }
  return { actions: actions as unknown as CaptureActions, finder: finder as unknown as FinderActions };
}

/** Shows `part` in this document, driven over `port`. */
export function startFramePart(part: UiPart, port: UiPort, doc: Document = document): void {
  const store = createStore(initialCaptureState);
  const pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  const { actions, finder } = remoteActions(port, pending);
  let withFinder = false;
  let measureSoon = () => {};
  const shown: CaptureActions = { ...actions };
  const container = doc.createElement('div');
  container.className = 'rl-frame';
  container.style.padding = `${FRAME_MARGIN}px`;
  doc.body.append(container);

  port.onMessage((raw) => {
    const message = raw as ToFrame;
    if (message.type === 'state') {
      if (message.finder !== withFinder) {
        withFinder = message.finder;
        shown.finder = withFinder ? finder : undefined;
      }
      doc.documentElement.style.setProperty('--rl-page-height', `${message.viewport.height}px`);
      store.set(message.state);
      measureSoon();
    } else if (message.type === 'done') {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error === null) waiting?.resolve();
      else waiting?.reject(new Error(message.error));
    } else if (message.type === 'focus') {
      // The part takes the keyboard where its own effect put it (the form's first field, the list's first button),
      // else at its first control.
      const active = doc.activeElement;
      if (!active || active === doc.body) doc.querySelector<HTMLElement>('input, button, [tabindex]')?.focus();
    }
  });
  port.onDisconnect(() => {
    for (const waiting of pending.values()) waiting.reject(new Error('The page was closed or reloaded.'));
    pending.clear();
    render(null, container);
  });

  // Escape outside the form (which handles its own) closes what is open, as it does on the page.
  doc.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented || store.get().form) return;
    actions.escape();
  });

  // The frame is sized to what it shows.
  const report = () => {
    const box = container.getBoundingClientRect();
    if (box.width === last.width && box.height === last.height) return;
    last = { width: box.width, height: box.height };
    port.post({ type: 'size', width: box.width, height: box.height });
  };
  // A hidden frame gets no rendering updates (so no resize observations): each new state is measured once Preact drew it.
  let last = { width: -1, height: -1 };
  measureSoon = () => setTimeout(report, 0);
  new ResizeObserver(report).observe(container);
  render(h(CaptureApp, { store, actions: shown, part }), container);
}
