/**
 * The handovers between the three content scripts of a page. The small page
 * script (`claims`) runs everywhere, makes the one lookup and listens; the
 * painting script (`paint`: anchoring and highlights, no UI) is injected when
 * the page has claims; the capture script (toolbar, form, cards, finder) only
 * once the curator interacts, and it takes the painting over. All run in the
 * same isolated world, so the bridges live on that world's global object,
 * which the page cannot reach.
 */
import type { HtmlSurface } from '../../components/capture/html-surface';
import type { PaintedState } from '../../components/capture/paint-session';
import type { HighlightPainter } from '../../lib/paint/painter';
import type { Sender } from '../../lib/messages/roles';
import type { ClaimRecord, SourceCorrection } from '../../lib/schema';

/** The page's claims as the background answered the lookup. */
export interface PageLookup {
  /** The address the background answered for (the page's as the browser says it, or its same-site canonical). */
  url: string;
  /** The page's own address the lookup was made from. */
  asked?: string;
  /** The site of `url` as the background answered it (registrable domain by the Public Suffix List). */
  site?: string | null;
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
  /** The pointer rested on (`move`) or clicked (`click`) painted passages before this script ran: shows their card. */
  pointer(kind: 'move' | 'click', x: number, y: number): void;
}

/** What the painting script hands the capture script: its surface and painter, and what it showed (null: nothing yet). */
export interface PaintingHandover {
  surface: HtmlSurface;
  painter: HighlightPainter;
  state: PaintedState<Range> | null;
}

/** What the painting script's session offers the page script. */
export interface PaintingSession {
  /** Shows a lookup's claims (an in-page navigation's too, none included). */
  show(lookup: PageLookup): Promise<void>;
  /** The current address's claims changed in the store: looks them up again and shows them. */
  reload(): Promise<void>;
  /** Whether a painted claim lies under the viewport point (x, y). */
  hits(x: number, y: number): boolean;
  /** Stops painting and hands everything to the capture script. */
  handOver(): PaintingHandover;
}

/** What the page script leaves for the painting script. */
export interface PaintingBridge {
  /** The lookup that found claims, or one still on its way (sent beside it when the claims index has the page). */
  lookup: Promise<PageLookup>;
  /** Called by the painting script with its running session. */
  attach(session: PaintingSession): void;
  /** Some claims are orphans: the curator is shown them, which needs the capture script. */
  needsCapture(): void;
}

/** What the page script leaves for the capture script. */
export interface CaptureBridge {
  /** The lookup already made for the current URL, so the session does not repeat it (null: look up). */
  lookup: PageLookup | null;
  /** The painting script's work, taken over (null: it never ran here). */
  painting: PaintingHandover | null;
  /** Called by the capture script with its running session. */
  attach(session: CaptureSession): void;
}

/** One bridge slot on the isolated world's global object: left by the page script, taken once by the script it loads. */
function slot<T>(name: string): { offer(bridge: T): void; take(): T | null } {
  const key = Symbol.for(name);
  const g = globalThis as Record<symbol, unknown>;
  return {
    offer: (bridge) => {
      g[key] = bridge;
    },
    take: () => {
      const bridge = (g[key] as T | undefined) ?? null;
      delete g[key];
      return bridge;
    },
  };
}

const captureSlot = slot<CaptureBridge>('recipe-lens.capture-bridge');
const paintingSlot = slot<PaintingBridge>('recipe-lens.paint-bridge');

/** Leaves the bridge for the capture script about to be injected. */
export const offerBridge = captureSlot.offer;

/** Takes the bridge the page script left (once); null when the capture script was loaded some other way. */
export const takeBridge = captureSlot.take;

/** Leaves the bridge for the painting script about to be injected. */
export const offerPaintingBridge = paintingSlot.offer;

/** Takes the bridge the page script left for the painting script (once); null when it was loaded some other way. */
export const takePaintingBridge = paintingSlot.take;
