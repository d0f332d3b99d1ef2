/**
 * Who may send a call: rules checked on the sender before any handler runs.
 * Kept free of the schema library so the small page script can use them.
 */
import { browser, type Browser } from 'wxt/browser';

type Sender = Browser.runtime.MessageSender;

/** Who may send a call. */
export type SenderRule = (sender: Sender) => string | null;

/** A content script of ours, in the top frame of an http(s) page. */
export const fromOurContentScript: SenderRule = (sender) => {
  if (sender.id !== browser.runtime.id) return 'refused: message from another extension';
  if (!sender.tab || sender.tab.id === undefined) return 'refused: not from a tab';
  if (sender.frameId !== 0) return 'refused: Recipe Lens works in the top frame only';
  if (!sender.url || !/^https?:/.test(sender.url)) return 'refused: not an http(s) page';
  return null;
};

/** One of the extension's own pages (options, side panel, popup). */
export const fromOurPage: SenderRule = (sender) => {
  if (sender.id !== browser.runtime.id) return 'refused: message from another extension';
  const origin = browser.runtime.getURL('/');
  if (!sender.url || !sender.url.startsWith(origin)) return 'refused: not from an extension page';
  return null;
};

/** A content script of ours or one of our pages. */
export const fromOurContentScriptOrPage: SenderRule = (sender) => {
  const asPage = fromOurPage(sender);
  return asPage === null ? null : fromOurContentScript(sender);
};

/** The background (messages to content scripts come without a tab). */
export const fromOurBackground: SenderRule = (sender) => {
  if (sender.id !== browser.runtime.id) return 'refused: message from another extension';
  if (sender.tab) return 'refused: not from the background';
  return null;
};
