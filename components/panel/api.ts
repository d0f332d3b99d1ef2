/**
 * What the evidence panel needs from the rest of the extension: its calls to the background (the page's `call`,
 * made from the protocol), the window it follows, and browser events for live updates. The side panel's
 * entrypoint provides it.
 */
import type { PageReport } from '../../lib/capture/page-report';
import type { PageCaller } from '../../lib/messages';
import type { RecheckApi } from '../recheck/api';

/** The panel's access to the store and the browser (the recheck's reader among it). */
export interface PanelApi extends RecheckApi {
  /** Every call an extension page may send. */
  call: PageCaller;
  /** The window whose active tab the panel follows (`tab.page`). */
  windowId: number;
  /** Calls back when claims change anywhere; returns an unsubscribe function. */
  onChange(callback: () => void): () => void;
  /** Calls back when the active tab (or its page) changes; returns an unsubscribe function. */
  onActiveTabChange(callback: () => void): () => void;
  /** Opens the options page (backup, import, export). */
  openOptions?(): void;
}

export type { PageReport };
