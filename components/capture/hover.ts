/** The claim card over painted passages: shown while the pointer rests on one, pinned by a click, gone when the pointer leaves. */
import { panelPosition } from '../../lib/capture/selection';
import type { Store } from '../common/store';
import type { CaptureState } from './state';
import type { Painter } from './surface';

const CARD_SIZE = { width: 340, height: 300 };

/** What the card needs from the capture controller. */
export interface HoverHost {
  readonly store: Store<CaptureState>;
  readonly painter: Painter;
  ensureUi(): Promise<void>;
  later(callback: () => void, ms: number): number;
  /** Whether an event happened inside the capture UI. */
  isOurs(event: Event): boolean;
  /** Whether any claim is anchored in the document (else there is nothing to hover). */
  anything(): boolean;
}

/** Whether the curator is selecting text: the toolbar is up, or the document holds a selection. */
function selecting(host: HoverHost): boolean {
  if (host.store.get().toolbar) return true;
  // Asked on every look at the pointer: the selection's text is not read (a large one would cost).
  return document.getSelection()?.isCollapsed === false;
}

/** Shows the claim card for the passages under the pointer. */
export class HoverCards {
  private hoverTimer: number | undefined;
  private hideTimer: number | undefined;
  private inside = false;
  private frame = 0;
  private at = { x: 0, y: 0 };

  constructor(private readonly host: HoverHost) {}

  /** The pointer moved: a card after a short rest on painted passages, none after leaving them. */
  onPointerMove(event: PointerEvent): void {
    const { host } = this;
    if (!host.anything() || host.isOurs(event)) return;
    // A drag selecting text (a button held) is not a rest on a passage.
    if (event.buttons) return;
    // Moves between two frames are folded into one look, at the latest point.
    this.at = { x: event.clientX, y: event.clientY };
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const { x, y } = this.at;
      const card = host.store.get().card;
      if (card?.pinned || host.store.get().form || selecting(host)) return;
      const hits = [...new Set(host.painter.hitTest(x, y))];
      clearTimeout(this.hoverTimer);
      if (hits.length) {
        clearTimeout(this.hideTimer);
        host.painter.setActive(hits);
        this.hoverTimer = host.later(() => this.show(hits, x, y, false), 250);
      } else if (card || host.painter.claims().length) {
        host.painter.setActive([]);
        this.scheduleHide();
      }
    });
  }

  /** A click on painted passages pins their card; elsewhere it closes the card. */
  onClick(event: MouseEvent): void {
    const { host } = this;
    if (host.isOurs(event) || !host.anything()) return;
    const selection = document.getSelection();
    if (selection && !selection.isCollapsed) return;
    const hits = [...new Set(host.painter.hitTest(event.clientX, event.clientY))];
    if (hits.length) {
      host.painter.setActive(hits);
      this.show(hits, event.clientX, event.clientY, true);
    } else if (host.store.get().card) this.close();
  }

  /** The pointer entered or left the card itself (it stays while the pointer is on it). */
  hover(inside: boolean): void {
    this.inside = inside;
    if (!inside) this.scheduleHide();
    else clearTimeout(this.hideTimer);
  }

  /** Closes the card. */
  close(): void {
    this.host.painter.setActive([]);
    this.host.store.set((s) => ({ ...s, card: null }));
  }

  /** Stops its timers. */
  stop(): void {
    clearTimeout(this.hoverTimer);
    clearTimeout(this.hideTimer);
  }

  private show(ids: string[], x: number, y: number, pinned: boolean): void {
    // A selection in progress wins: its toolbar stays in reach, and the card waits for a plain hover or click.
    if (!pinned && selecting(this.host)) return;
    void this.host.ensureUi().then(() => {
      const at = panelPosition({ left: x - 20, top: y - 12, bottom: y + 12 }, CARD_SIZE, { width: innerWidth, height: innerHeight });
      this.host.store.set((s) => (s.form || (!pinned && selecting(this.host)) ? s : { ...s, card: { ids, at, pinned } }));
    });
  }

  private scheduleHide(): void {
    clearTimeout(this.hideTimer);
    this.hideTimer = this.host.later(() => {
      const card = this.host.store.get().card;
      if (card && !card.pinned && !this.inside) this.host.store.set((s) => ({ ...s, card: null }));
    }, 400);
  }
}
