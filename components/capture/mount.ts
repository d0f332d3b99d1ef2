/** Putting the capture UI into a document: the shadow root it lives in, and keeping the document's selection while it is used. */
import uiCss from './ui.css?inline';

/**
 * Puts the capture UI into the document, once: `mount` renders it into the given container and returns a function
 * that takes it away; resolves with the element that hosts it (events inside it are the UI's, not the document's).
 */
export type MountUi = (mount: (container: HTMLElement) => () => void) => Promise<HTMLElement>;

/** The default mount: an open shadow root in a `recipe-lens-ui` element at the end of the document's body. */
export function mountInShadowRoot(doc: Document = document): MountUi {
  return async (mount) => {
    const host = doc.createElement('recipe-lens-ui');
    const shadow = host.attachShadow({ mode: 'open' });
    const style = doc.createElement('style');
    style.textContent = uiCss;
    const container = doc.createElement('div');
    shadow.append(style, container);
    doc.body.append(host);
    mount(container);
    return host;
  };
}

/** Keeps the document's selection when the UI's buttons are pressed (its fields still take focus). */
export function keepSelection(event: MouseEvent): void {
  const target = event.composedPath()[0] as HTMLElement | undefined;
  if (target && !/^(INPUT|TEXTAREA|SELECT|OPTION|LABEL)$/.test(target.tagName)) event.preventDefault();
}
