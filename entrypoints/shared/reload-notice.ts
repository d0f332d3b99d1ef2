/**
 * The notice shown when the extension is reloaded or updated under an open
 * page: nothing can be saved from it until the page is reloaded. Plain DOM in
 * a closed shadow root, so both content scripts can show it without Preact.
 */
import { browser } from 'wxt/browser';

/** Shows the notice (once per page); never throws into the page. */
export function showReloadNotice(): void {
  try {
    if (document.querySelector('recipe-lens-notice')) return;
    const host = document.createElement('recipe-lens-notice');
    const root = host.attachShadow({ mode: 'closed' });
    const box = document.createElement('div');
    box.setAttribute('role', 'alert');
    Object.assign(box.style, {
      position: 'fixed',
      right: '16px',
      bottom: '16px',
      zIndex: '2147483647',
      maxWidth: '380px',
      padding: '10px 14px',
      borderRadius: '10px',
      background: '#7f1d1d',
      color: '#fff',
      font: '13px/1.45 system-ui, sans-serif',
      boxShadow: '0 8px 24px rgba(0,0,0,.25)',
    });
    // The extension context is gone, so its catalog may be too: English stands in.
    box.textContent = `${message('reloadNotice', 'Recipe Lens was updated or reloaded. Reload this page to see and tag its claims again.')} `;
    const close = document.createElement('button');
    close.textContent = message('dismiss', 'Dismiss');
    Object.assign(close.style, { marginLeft: '8px', background: 'none', border: '0', color: '#fecaca', cursor: 'pointer', font: 'inherit', fontWeight: '700' });
    close.addEventListener('click', () => host.remove());
    box.append(close);
    root.append(box);
    document.documentElement.append(host);
  } catch {
    // never throw into the page
  }
}

function message(key: 'reloadNotice' | 'dismiss', fallback: string): string {
  try {
    return browser.i18n.getMessage(key) || fallback;
  } catch {
    return fallback;
  }
}
