/**
 * The handover between the two content scripts of a page. The small page
 * script (`claims`) runs everywhere, makes the one lookup and listens; the
 * capture script (toolbar, form, anchoring, painting) is injected into the
 * page only once it is needed and attaches here. Both run in the same
 * isolated world, so the bridge lives on that world's global object, which
 * the page cannot reach.
 */
import type { Sender } from '../../lib/messages/roles';
import type { ClaimRecord, SourceCorrection } from '../../lib/schema';

/** The page's claims as the background answered the lookup. */
export interface PageLookup {
  /** The normalised URL looked up. */
  url: string;
  claims: ClaimRecord[];
  source: SourceCorrection | null;
  /** The curator opted this site in to automatic finder runs. */
  autoFind?: boolean;
}

/** What the capture script's session offers the page script. */
export interface CaptureSession {
  /** Answers a background → content call (validated with its zod schema inside); undefined for messages not ours. */
  answer(message: unknown, sender: Sender): Promise<unknown> | undefined;
  /** Looks at the current selection and offers the toolbar for it. */
  checkSelection(): void;
}

/** What the page script leaves for the capture script. */
export interface CaptureBridge {
  /** The lookup already made for the current URL, so the session does not repeat it (null: look up). */
  lookup: PageLookup | null;
  /** Called by the capture script with its running session. */
  attach(session: CaptureSession): void;
}

const KEY = Symbol.for('recipe-lens.capture-bridge');

/** Leaves the bridge for the capture script about to be injected. */
export function offerBridge(bridge: CaptureBridge): void {
  (globalThis as Record<symbol, unknown>)[KEY] = bridge;
}

/** Takes the bridge the page script left (once); null when the capture script was loaded some other way. */
export function takeBridge(): CaptureBridge | null {
  const g = globalThis as Record<symbol, unknown>;
  const bridge = (g[KEY] as CaptureBridge | undefined) ?? null;
  delete g[KEY];
  return bridge;
}
