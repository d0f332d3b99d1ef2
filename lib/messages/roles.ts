/**
 * Who may send a call: each role's rule, checked on the sender before any
 * handler runs. Pure (the extension's own id and origin are passed in) and
 * free of the schema library, so the small page script can use it.
 */
import { isViewerUrl, VIEWER_PATH } from '../pdf/links';
import type { Role } from './protocol';

/** The sender of a message, as the browser describes it (`runtime.MessageSender`). */
export interface Sender {
  id?: string;
  url?: string;
  tab?: { id?: number };
  frameId?: number;
}

/** This extension: its id and the origin of its pages (`chrome-extension://<id>/`). */
export interface Self {
  id: string;
  origin: string;
  /**
   * The registrable domain of a host (the Public Suffix List's), where the receiver checks the addresses a request
   * names (`lib/messages/addresses.ts`): the background's only.
   */
  siteOf?: (hostname: string) => string | null;
}

/** A content script of ours in the top frame of an http(s) tab. */
function contentScript(sender: Sender, self: Self): string | null {
  if (sender.id !== self.id) return 'refused: message from another extension';
  if (!sender.tab || sender.tab.id === undefined) return 'refused: not from a tab';
  if (sender.frameId !== 0) return 'refused: Recipe Lens works in the top frame only';
  if (!sender.url || !/^https?:/.test(sender.url)) return 'refused: not an http(s) page';
  return null;
}

/** One of the extension's own pages (options, side panel, popup, PDF viewer). */
function page(sender: Sender, self: Self): string | null {
  if (sender.id !== self.id) return 'refused: message from another extension';
  if (!sender.url || !sender.url.startsWith(self.origin)) return 'refused: not from an extension page';
  return null;
}

/** The PDF viewer, the one extension page that reads a document. */
export function isViewerSender(sender: Sender, self: Self): boolean {
  return sender.id === self.id && isViewerUrl(sender.url?.split(/[?#]/)[0], `${self.origin.replace(/\/$/, '')}${VIEWER_PATH}`);
}

/**
 * Why `sender` is not the background (null: it is): messages from the service worker come without a tab. The page
 * script checks this alone, so it carries none of the other roles' checks.
 */
export function notFromBackground(sender: Sender, self: Self): string | null {
  if (sender.id !== self.id) return 'refused: message from another extension';
  if (sender.tab) return 'refused: not from the background';
  return null;
}

/** Why `sender` may not send a call of role `role` (null: it may). */
export function refusal(role: Role, sender: Sender, self: Self): string | null {
  switch (role) {
    case 'document':
      return isViewerSender(sender, self) ? null : contentScript(sender, self);
    case 'page':
      return page(sender, self);
    case 'any':
      return page(sender, self) === null ? null : contentScript(sender, self);
    case 'background':
      return notFromBackground(sender, self);
  }
}
